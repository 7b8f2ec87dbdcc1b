package engine

import (
	"context"

	"gq/exec"
	"gq/physical"
)

type progressKey struct{}

// WithProgress returns a context under which queries count the rows their
// scans read into p (done, and the tables' row counts as the total), for a
// client's progress bar.
func WithProgress(ctx context.Context, p *exec.Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// WithScanProgress is WithProgress in file bytes: queries whose scans all
// read Parquet or CSV files count the bytes of the projected columns read
// against those the scans will read (p.InBytes set); others count rows.
func WithScanProgress(ctx context.Context, p *exec.ScanProgress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// trackProgress wraps root's scans when ctx asks for progress.
func trackProgress(ctx context.Context, root exec.Node) exec.Node {
	if root == nil {
		return root
	}
	switch p := ctx.Value(progressKey{}).(type) {
	case *exec.ScanProgress:
		if tracked, ok := exec.TrackScanBytes(root, &p.Progress); ok {
			p.InBytes.Store(true)
			return tracked
		}
		p.InBytes.Store(false)
		return exec.TrackLeaves(root, &p.Progress, physical.EstimatedRows)
	case *exec.Progress:
		return exec.TrackLeaves(root, p, physical.EstimatedRows)
	}
	return root
}
