package gpuexec

import (
	"slices"
	"sync"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
)

// A pipeline's chunks run its steps (the scan's filter, then each join)
// each on its own, up to a stop: a chunk whose rows have become few
// (fewer than stashSmall, with steps left) stops there, and the chunks
// before a join deferred to run from its build side (from_build.go)
// stop before it. A joinStash collects the batches of the chunks that
// stopped; run then takes them through the rest of the pipeline at once:
// the batches at the earliest step, made one, run to the next step where
// others wait, are made one with them, and so on — after a selective join
// (TPC-H q18's IN subquery keeps 150 rows of each 2M-row chunk at SF10)
// the later joins run once instead of once per chunk.

// stashSmall is the fewest rows a chunk keeps running its pipeline with:
// below it, a step's fixed costs (launches, synchronisations) outweigh
// its work.
var stashSmall = 1 << 16 // a var: tests make it small

// joinStash is the batches of a pipeline's chunks that stopped early.
type joinStash struct {
	mu     sync.Mutex
	pieces []stashPiece
	// With a join deferred (to run from its build side), at is the step
	// before it, where the chunks stop, and limit the most rows reaching
	// it (rows) before it is better built (over: more came). Batches that
	// stopped sooner, having few rows, do not count: the joins between
	// may still drop most of them.
	at          int
	rows, limit int64
	over        bool
}

// newStash is the stash of a pipeline run whose first deferred join is r
// (-1: none; the chunks then stop before step r+1, at).
func (a *GPUAggregate) newStash(r int) *joinStash {
	if r < 0 {
		return &joinStash{}
	}
	return &joinStash{at: r + 1, limit: a.buildRows(r) / fromBuildRatio}
}

// stashPiece is a chunk's batch that stopped before step.
type stashPiece struct {
	step    int
	b       *arrowgpu.Batch
	release func()
}

// add keeps b, stopped before step, and reports whether the rows
// collected are now over the limit.
func (s *joinStash) add(step int, b *arrowgpu.Batch, release func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pieces = append(s.pieces, stashPiece{step, b, release})
	if s.at > 0 && step == s.at {
		s.rows += int64(b.Len)
		s.over = s.over || s.rows > s.limit
	}
	return s.over
}

func (s *joinStash) free() {
	for _, pc := range s.pieces {
		pc.release()
	}
	s.pieces = nil
}

// run takes the collected batches through the rest of the pipeline p of
// a (to step end) and calls each with the rows that come out (none when
// no row does); the batches stay the stash's. Each of deferred's joins
// whose build side has fewer than fromBuildRatio times the rows reaching
// it is built when they reach it; the others run from their build side.
func (s *joinStash) run(c *exec.Context, q *arrowgpu.Queue, a *GPUAggregate, p *gpuPipeline, deferred []bool, end int, each func(*arrowgpu.Batch) error) error {
	var steps []int
	for _, pc := range s.pieces {
		steps = append(steps, pc.step)
	}
	slices.Sort(steps)
	steps = slices.Compact(steps)
	var carry *arrowgpu.Batch // the rows run so far, at the step being made one
	release := func() {}
	defer func() { release() }()
	for x, step := range steps {
		var batches []*arrowgpu.Batch
		if carry != nil {
			batches = append(batches, carry)
		}
		for _, pc := range s.pieces {
			if pc.step == step {
				batches = append(batches, pc.b)
			}
		}
		cur, err := concatBatches(q, batches, p.needAfter[step-1])
		if err != nil {
			return err
		}
		release()
		carry, release = nil, func() {}
		if cur == nil {
			continue
		}
		next := end
		if x+1 < len(steps) {
			next = steps[x+1]
		}
		// Run cur to next, stopping before each deferred join: it runs
		// from its build side unless the rows reaching it are too many.
		b, rel := cur, cur.Free // the rows run so far, and what frees them
		for at := step; b != nil && at < next; {
			if k := at - 1; deferred != nil && deferred[k] && p.builds[k] == nil && int64(b.Len)*fromBuildRatio > a.buildRows(k) {
				if err := a.runBuilds(c, p.builds, func(j int) bool { return j == k }); err != nil {
					rel()
					return err
				}
			}
			stop := next
			for j := at; deferred != nil && j+1 < next; j++ {
				if deferred[j] {
					stop = j + 1
					break
				}
			}
			v, vrel, _, err := a.pipelineRange(c, q, p, b, at, stop, 0)
			if err != nil || v == nil {
				rel()
				if err != nil {
					return err
				}
				b = nil
				break
			}
			prev := rel
			b, rel, at = v, func() { vrel(); prev() }, stop // v may borrow b's columns
		}
		if b != nil {
			carry, release = b, rel
		}
	}
	if carry == nil {
		return nil
	}
	return each(carry)
}

// concatBatches makes batches (of one step's slots) one batch of the
// slots need marks that they hold — not the columns of build sides not
// joined yet — copying them; nil when they hold no row.
func concatBatches(q *arrowgpu.Queue, batches []*arrowgpu.Batch, need []bool) (*arrowgpu.Batch, error) {
	batches = slices.DeleteFunc(slices.Clone(batches), func(b *arrowgpu.Batch) bool { return b.Len == 0 })
	if len(batches) == 0 {
		return nil, nil
	}
	out := &arrowgpu.Batch{Cols: make([]*arrowgpu.Column, len(need))}
	for sl, want := range need {
		if !want || sl >= len(batches[0].Cols) || batches[0].Cols[sl] == nil {
			continue
		}
		pieces := make([]*arrowgpu.Column, len(batches))
		for i, b := range batches {
			if sl >= len(b.Cols) || b.Cols[sl] == nil {
				out.Free()
				return nil, errs.New(errs.Internal, "GPU join: a collected batch lacks column %d", sl)
			}
			pieces[i] = b.Cols[sl]
		}
		col, err := q.Concat(pieces)
		if err != nil {
			out.Free()
			return nil, err
		}
		out.Cols[sl] = col
	}
	out.Len = batches[0].Len
	for _, b := range batches[1:] {
		out.Len += b.Len
	}
	return out, nil
}
