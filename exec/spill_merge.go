package exec

import (
	"container/heap"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	gqmem "gq/memory"
)

// merger merges sorted runs (spill files) into one sorted stream.
type merger struct {
	c      *Context
	ck     compiledKeys
	schema *arrow.Schema
}

// errStopMerge ends a merge early (the sink needs no more rows).
var errStopMerge = errors.New("merge stopped")

// mergeAll merges runs, at most fanIn at a time: while there are more
// runs, neighbouring groups are merged into longer runs on disk (keeping
// input order between groups, so ties stay stable); the last pass goes to
// emit. Every run file is removed, whatever happens.
// hold is the memory the last pass holds (reserved, with overbooking:
// the merge cannot spill further).
func (m *merger) mergeAll(runs []*gqmem.SpillFile, fanIn int, hold int64, emit func(arrow.RecordBatch) error) error {
	defer func() {
		for _, f := range runs {
			f.Remove()
		}
	}()
	fanIn = max(2, fanIn)
	for len(runs) > fanIn {
		var next []*gqmem.SpillFile
		for start := 0; start < len(runs); start += fanIn {
			group := runs[start:min(start+fanIn, len(runs))]
			if len(group) == 1 {
				next = append(next, group[0])
				continue
			}
			f, err := m.mergeToFile(group)
			if err != nil {
				for _, g := range next {
					g.Remove()
				}
				return err
			}
			for _, g := range group {
				g.Remove()
			}
			next = append(next, f)
		}
		runs = next
	}
	res, _ := m.c.Mem.Reserve(gqmem.Host, hold*int64(len(runs)), true)
	defer res.Release()
	err := m.merge(runs, emit)
	if errors.Is(err, errStopMerge) {
		return nil
	}
	return err
}

// mergeToFile merges runs into a new run.
func (m *merger) mergeToFile(runs []*gqmem.SpillFile) (*gqmem.SpillFile, error) {
	w, err := m.c.Mem.SpillFiles().Create(m.schema, m.c.Stats)
	if err != nil {
		return nil, err
	}
	err = m.merge(runs, func(b arrow.RecordBatch) error {
		defer b.Release()
		return w.Write(b)
	})
	if err != nil {
		w.Abort()
		return nil, err
	}
	return w.Finish()
}

// cursor reads one run: its current batch, the batch's sort keys and the
// next row to merge.
type cursor struct {
	run   int // the run's index: ties go to the earlier run
	r     *gqmem.SpillReader
	b     arrow.RecordBatch
	keys  sortKeys
	arrs  []arrow.Array
	pos   int32 // next row
	start int32 // first row not yet gathered into output
	base  int32 // scratch: offset of b's gathered rows in the output
}

func (cu *cursor) dropBatch() {
	releaseArrays(cu.arrs)
	cu.arrs, cu.keys = nil, nil
	if cu.b != nil {
		cu.b.Release()
		cu.b = nil
	}
}

// load reads the run's next non-empty batch; it returns false at the end.
func (cu *cursor) load(m *merger) (bool, error) {
	cu.dropBatch()
	for {
		b, err := cu.r.Next()
		if err != nil || b == nil {
			return false, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		keys, arrs, err := m.ck.build(m.c, b)
		if err != nil {
			b.Release()
			return false, err
		}
		cu.b, cu.keys, cu.arrs, cu.pos, cu.start = b, keys, arrs, 0, 0
		return true, nil
	}
}

// cursorHeap orders cursors by their next row (then run order).
type cursorHeap []*cursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if r := compareRows(a.keys, a.pos, b.keys, b.pos); r != 0 {
		return r < 0
	}
	return a.run < b.run
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge merges runs into emit, which owns each batch it gets. Output
// batches hold up to c.BatchSize rows; one ends early whenever a run's
// batch is used up (its rows must be gathered before it is released).
func (m *merger) merge(runs []*gqmem.SpillFile, emit func(arrow.RecordBatch) error) error {
	curs := make([]*cursor, 0, len(runs))
	defer func() {
		for _, cu := range curs {
			cu.dropBatch()
			cu.r.Close()
		}
	}()
	h := make(cursorHeap, 0, len(runs))
	for i, f := range runs {
		r, err := f.Open(m.c.Alloc)
		if err != nil {
			return err
		}
		cu := &cursor{run: i, r: r}
		curs = append(curs, cu)
		ok, err := cu.load(m)
		if err != nil {
			return err
		}
		if ok {
			h = append(h, cu)
		}
	}
	heap.Init(&h)
	type pick struct {
		cu  *cursor
		row int32
	}
	var picks []pick
	flush := func() error {
		if len(picks) == 0 {
			return nil
		}
		defer func() { picks = picks[:0] }()
		var parts []arrow.RecordBatch
		var n int32
		for _, cu := range curs {
			if cu.b != nil && cu.pos > cu.start {
				parts = append(parts, cu.b.NewSlice(int64(cu.start), int64(cu.pos)))
				cu.base = n - cu.start
				n += cu.pos - cu.start
				cu.start = cu.pos
			}
		}
		if len(parts) == 1 { // one run's rows, already in order
			return emit(parts[0])
		}
		all, err := ConcatBatches(m.c.Alloc, m.schema, parts)
		releaseBatches(parts)
		if err != nil {
			return err
		}
		idx := make([]int32, len(picks))
		for i, p := range picks {
			idx[i] = p.cu.base + p.row
		}
		out := TakeBatch(m.c.Alloc, all, idx)
		all.Release()
		return emit(out)
	}
	for h.Len() > 0 {
		if err := m.c.Err(); err != nil {
			return err
		}
		cu := h[0]
		picks = append(picks, pick{cu, cu.pos})
		cu.pos++
		if int64(cu.pos) == cu.b.NumRows() {
			if err := flush(); err != nil {
				return err
			}
			ok, err := cu.load(m)
			if err != nil {
				return err
			}
			if !ok {
				heap.Pop(&h)
				continue
			}
		} else if len(picks) >= m.c.BatchSize {
			if err := flush(); err != nil {
				return err
			}
		}
		heap.Fix(&h, 0)
	}
	return flush()
}

// limitSink sends batches to out, passing only rows [offset,
// offset+limit) (limit < 0: all rows); it stops the merge once done.
func limitSink(c *Context, out chan<- arrow.RecordBatch, limit, offset int64) func(arrow.RecordBatch) error {
	skip, left := offset, limit
	if limit < 0 {
		skip = 0
	}
	return func(b arrow.RecordBatch) error {
		if left == 0 {
			b.Release()
			return errStopMerge
		}
		n := b.NumRows()
		if skip >= n {
			skip -= n
			b.Release()
			return nil
		}
		lo, hi := skip, n
		skip = 0
		if left >= 0 && hi-lo > left {
			hi = lo + left
		}
		if lo > 0 || hi < n {
			s := b.NewSlice(lo, hi)
			b.Release()
			b = s
		}
		if left >= 0 {
			left -= hi - lo
		}
		if !Send(c, out, b) {
			return c.Err()
		}
		return nil
	}
}
