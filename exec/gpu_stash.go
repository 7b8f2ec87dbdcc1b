package exec

import (
	"slices"
	"sync"

	"gq/arrowgpu"
	"gq/errs"
)

// A pipeline's chunks run its steps (the scan's filter, then each join)
// each on its own, up to a stop: a chunk whose rows have become few
// (fewer than stashSmall, with steps left) stops there, and the chunks
// before a join deferred to run from its build side (gpu_from_build.go)
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
	rows   int64
	// limit, with a join deferred, is the most rows it collects before
	// that join is better built (over: more came); 0: none.
	limit int64
	over  bool
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
	s.rows += int64(b.Len)
	s.over = s.over || s.limit > 0 && s.rows > s.limit
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
// no row does); the batches stay the stash's. Before deferred's joins
// run (from step r+1), those whose build side has fewer than
// fromBuildRatio times the rows reaching them are built.
func (s *joinStash) run(c *Context, q *arrowgpu.Queue, a *GPUAggregate, p *gpuPipeline, deferred []bool, end int, each func(*arrowgpu.Batch) error) error {
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
		var at []*arrowgpu.Batch
		if carry != nil {
			at = append(at, carry)
		}
		for _, pc := range s.pieces {
			if pc.step == step {
				at = append(at, pc.b)
			}
		}
		cur, err := concatBatches(q, at, p.needAfter[step-1])
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
		if slices.Contains(deferred, true) {
			build := func(k int) bool {
				return deferred[k] && p.builds[k] == nil && k+1 >= step && k+1 < next &&
					int64(cur.Len)*fromBuildRatio > a.buildRows(k)
			}
			if err := a.runBuilds(c, p.builds, build); err != nil {
				cur.Free()
				return err
			}
		}
		v, rel, _, err := a.pipelineRange(c, q, p, cur, step, next, 0)
		if err != nil || v == nil {
			cur.Free()
			if err != nil {
				return err
			}
			continue
		}
		carry, release = v, func() { rel(); cur.Free() } // v may borrow cur's columns
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
