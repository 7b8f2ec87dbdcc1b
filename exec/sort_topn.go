package exec

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// topN keeps the offset+limit first rows of the sorted input and returns
// them (sorted, as all with the order idx) minus the first offset.
//
// c.Threads workers each keep their own leading rows (a topState) and the
// states are merged at the end. Every row carries a tag, its batch's
// arrival number and its row number, as a last sort key, so ties keep
// input order however batches were spread over workers.
func topN(c *Context, in <-chan arrow.RecordBatch, ck compiledKeys, schema *arrow.Schema, limit, offset int64) (arrow.RecordBatch, []int32, error) {
	n := int(min(limit+offset, 1<<31-1))
	workers := max(1, c.Threads)
	states := make([]*topState, workers)
	for w := range states {
		states[w] = &topState{c: c, ck: ck, schema: schema, n: n}
		defer states[w].release()
	}
	if n > 0 {
		var mu sync.Mutex
		var seq uint64
		// recv numbers batches in channel order (hence the lock).
		recv := func() (arrow.RecordBatch, uint64, bool) {
			mu.Lock()
			defer mu.Unlock()
			b, ok := <-in
			seq++
			return b, seq - 1, ok
		}
		var failed atomic.Bool
		errs := make([]error, workers)
		perr := parallel(len(states), func(w int) {
			st := states[w]
			for !failed.Load() {
				b, s, ok := recv()
				if !ok {
					return
				}
				if err := st.add(b, s); err != nil {
					errs[w] = err
					failed.Store(true)
				}
			}
		})
		if perr != nil {
			return nil, nil, perr
		}
		for _, err := range errs {
			if err != nil {
				return nil, nil, err
			}
		}
	}
	if err := c.Err(); err != nil {
		return nil, nil, err
	}
	t := states[0]
	for _, o := range states[1:] {
		t.takeBest(o)
	}
	if err := t.compact(c.Threads); err != nil {
		return nil, nil, err
	}
	all := t.best
	t.best = nil
	if all == nil {
		all, _ = ConcatBatches(c.Alloc, schema, nil)
	}
	var idx []int32
	for i := offset; i < all.NumRows(); i++ {
		idx = append(idx, int32(i))
	}
	return all, idx, nil
}

// topState holds best, the leading rows seen so far in order, and a list
// of candidate batches. Once best is full, a row of a new batch is a
// candidate only if it sorts before best's last row, which for small N
// rejects almost every row with one comparison. Candidates are merged
// into best by sorting best and them together.
type topState struct {
	c      *Context
	ck     compiledKeys
	schema *arrow.Schema
	n      int

	best     arrow.RecordBatch // nil or sorted rows, at most n
	bestTags []uint64
	bestKeys sortKeys      // with the tags as last key
	bestArrs []arrow.Array // keep bestKeys' strings alive

	pending     []arrow.RecordBatch
	pendingTags []uint64 // the tags of pending's rows, in order
	sel         []int32
}

// withTags adds the row tags as the last, tie-breaking, sort key.
func withTags(keys sortKeys, tags []uint64) sortKeys {
	return append(keys[:len(keys):len(keys)], sortCol{norm: tags})
}

func (t *topState) full() bool { return t.best != nil && t.best.NumRows() == int64(t.n) }

// add takes in b, the seq-th input batch.
func (t *topState) add(b arrow.RecordBatch, seq uint64) error {
	rows := int(b.NumRows())
	if rows == 0 {
		b.Release()
		return nil
	}
	keys, arrs, err := t.ck.build(t.c, b)
	if err != nil {
		b.Release()
		return err
	}
	defer releaseArrays(arrs)
	tags := make([]uint64, rows)
	for r := range tags {
		tags[r] = seq<<32 | uint64(r)
	}
	keys = withTags(keys, tags)
	sel := t.sel[:0]
	if t.full() {
		worst := int32(t.n - 1)
		for r := range int32(rows) {
			if compareRows(keys, r, t.bestKeys, worst) < 0 {
				sel = append(sel, r)
			}
		}
	} else {
		for r := range int32(rows) {
			sel = append(sel, r)
		}
	}
	t.sel = sel
	if len(sel) == 0 {
		b.Release()
		return nil
	}
	if len(sel) > t.n {
		slices.SortFunc(sel, func(x, y int32) int { return compareRows(keys, x, keys, y) })
		sel = sel[:t.n]
	}
	if len(sel) < rows {
		nb := TakeBatch(t.c.Alloc, b, sel)
		b.Release()
		b = nb
	}
	for _, r := range sel {
		t.pendingTags = append(t.pendingTags, tags[r])
	}
	t.pending = append(t.pending, b)
	if !t.full() || len(t.pendingTags) >= max(t.n, 4096) {
		return t.compact(1)
	}
	return nil
}

// takeBest moves o's leading rows and candidates into t's candidates.
func (t *topState) takeBest(o *topState) {
	if o.best != nil {
		t.pending = append(t.pending, o.best)
		t.pendingTags = append(t.pendingTags, o.bestTags...)
		o.best = nil
	}
	t.pending = append(t.pending, o.pending...)
	t.pendingTags = append(t.pendingTags, o.pendingTags...)
	o.pending, o.pendingTags = nil, nil
}

// compact merges the candidates into best.
func (t *topState) compact(threads int) error {
	if len(t.pending) == 0 {
		return nil
	}
	parts, tags := t.pending, t.pendingTags
	if t.best != nil {
		parts = append([]arrow.RecordBatch{t.best}, parts...)
		tags = append(slices.Clip(t.bestTags), tags...)
	}
	all, err := ConcatBatches(t.c.Alloc, t.schema, parts)
	releaseBatches(parts)
	t.best, t.bestTags, t.pending, t.pendingTags = nil, nil, nil, nil
	releaseArrays(t.bestArrs)
	t.bestArrs, t.bestKeys = nil, nil
	if err != nil {
		return err
	}
	keys, arrs, err := t.ck.build(t.c, all)
	if err != nil {
		all.Release()
		return err
	}
	idx := sortIndices(withTags(keys, tags), int(all.NumRows()), threads)
	releaseArrays(arrs)
	if len(idx) > t.n {
		idx = idx[:t.n]
	}
	t.best = TakeBatch(t.c.Alloc, all, idx)
	all.Release()
	t.bestTags = make([]uint64, len(idx))
	for i, r := range idx {
		t.bestTags[i] = tags[r]
	}
	keys, t.bestArrs, err = t.ck.build(t.c, t.best)
	t.bestKeys = withTags(keys, t.bestTags)
	return err
}

func (t *topState) release() {
	releaseBatches(t.pending)
	t.pending = nil
	releaseArrays(t.bestArrs)
	t.bestArrs = nil
	if t.best != nil {
		t.best.Release()
		t.best = nil
	}
}
