package exec

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
)

// ScanProgress counts what a query's scans have read against what they
// will read, for a progress bar: file bytes when every scan reads a table
// that knows its split sizes (catalog.SplitSizer: Parquet, CSV), else rows
// against the estimated row counts. InBytes says which.
type ScanProgress struct {
	Progress
	InBytes atomic.Bool
}

// TrackScanBytes returns a copy of root whose Scans add the file bytes
// they read to p.Done, and adds the bytes of the splits they will read
// (those their min/max statistics do not prune) to p.Total. root is left
// as it was (the copy's scans read their tables through counting
// wrappers), so a plan may be tracked for each of its runs. It reports
// false, returning root and adding nothing, when some leaf is not a Scan
// of a sized table: the caller then counts rows instead.
func TrackScanBytes(root Node, p *Progress) (Node, bool) {
	counted := map[*Scan]bool{}
	var scans []*Scan
	ok := true
	seen := map[Node]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		if a, isA := n.(*Analyzed); isA {
			n = a.Inner
		}
		if seen[n] || !ok {
			return
		}
		seen[n] = true
		kids := n.Children()
		if len(kids) == 0 {
			s, isScan := n.(*Scan)
			if !isScan || sizerOf(s.Table) == nil {
				ok = false
				return
			}
			counted[s] = true
			scans = append(scans, s)
		}
		for _, k := range kids {
			walk(k)
		}
	}
	walk(root)
	if !ok || len(scans) == 0 {
		return root, false
	}
	for _, s := range scans {
		skip := s.prunedSplits()
		sz := sizerOf(s.Table)
		for split := range s.Table.NumSplits() {
			if skip == nil || !skip[split] {
				p.Total.Add(sz.SplitBytes(split, s.Columns))
			}
		}
	}
	// The rewrite memoises its copies, so that a node reached twice
	// stays one node.
	memo := map[Node]Node{}
	var track func(n Node) Node
	track = func(n Node) Node {
		if out, ok := memo[n]; ok {
			return out
		}
		var out Node
		switch x := n.(type) {
		case *Analyzed:
			out = &Analyzed{Inner: track(x.Inner), progress: x.progress, progressOnly: x.progressOnly}
		case *Scan:
			out = x
			if counted[x] {
				cp := *x
				cp.Table = countBytes(x.Table, p)
				out = &cp
			}
		default:
			out = RewriteChildren(n, track)
		}
		memo[n] = out
		return out
	}
	return track(root), true
}

// sizerOf is t's SplitSizer, looking through a counting wrapper.
func sizerOf(t catalog.Table) catalog.SplitSizer {
	if b, ok := t.(byteCounted); ok {
		t = b.inner()
	}
	sz, _ := t.(catalog.SplitSizer)
	return sz
}

// byteCounted is a table wrapped by countBytes.
type byteCounted interface{ inner() catalog.Table }

// countBytes wraps t so its reads add to p.Done. A FilteredTable stays
// one (the wrapper embeds it), so scans keep their pushed-down filters and
// row-group pruning.
func countBytes(t catalog.Table, p *Progress) catalog.Table {
	if b, ok := t.(byteCounted); ok {
		t = b.inner()
	}
	c := bytesCounter{sizer: t.(catalog.SplitSizer), p: p}
	if pt, ok := t.(*catalog.ParquetTable); ok {
		return &countedParquet{ParquetTable: pt, bytesCounter: c}
	}
	return &countedTable{Table: t, bytesCounter: c}
}

type bytesCounter struct {
	sizer catalog.SplitSizer
	p     *Progress
}

// splitRower is implemented by tables that know each split's row count
// (Parquet row groups), which lets a split's bytes count batch by batch.
type splitRower interface{ SplitRows(split int) int64 }

// count runs read for one split, adding the split's bytes to p.Done: in
// step with the rows read where the split's row count is known (rows a
// pushed-down filter drops are made up at the end), else all at the end.
func (bc bytesCounter) count(split int, columns []int, emit func(arrow.RecordBatch) error, read func(func(arrow.RecordBatch) error) error) error {
	total := bc.sizer.SplitBytes(split, columns)
	var rows int64
	if r, ok := bc.sizer.(splitRower); ok {
		rows = r.SplitRows(split)
	}
	var added, seen int64
	err := read(func(b arrow.RecordBatch) error {
		if rows > 0 {
			seen += b.NumRows()
			if d := min(total*seen/rows, total) - added; d > 0 {
				bc.p.Done.Add(d)
				added += d
			}
		}
		return emit(b)
	})
	bc.p.Done.Add(total - added)
	return err
}

type countedTable struct {
	catalog.Table
	bytesCounter
}

func (t *countedTable) inner() catalog.Table { return t.Table }

func (t *countedTable) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	return t.count(split, columns, emit, func(e func(arrow.RecordBatch) error) error {
		return t.Table.Read(ctx, split, columns, batchSize, mem, e)
	})
}

// countedParquet keeps every method of *catalog.ParquetTable (filtered
// reads, row-group statistics, split rows) and counts both read paths.
type countedParquet struct {
	*catalog.ParquetTable
	bytesCounter
}

func (t *countedParquet) inner() catalog.Table { return t.ParquetTable }

func (t *countedParquet) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	return t.count(split, columns, emit, func(e func(arrow.RecordBatch) error) error {
		return t.ParquetTable.Read(ctx, split, columns, batchSize, mem, e)
	})
}

func (t *countedParquet) ReadFiltered(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, filter *catalog.RowFilter, emit func(arrow.RecordBatch) error) error {
	return t.count(split, columns, emit, func(e func(arrow.RecordBatch) error) error {
		return t.ParquetTable.ReadFiltered(ctx, split, columns, batchSize, mem, filter, e)
	})
}
