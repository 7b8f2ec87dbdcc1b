package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
	gqmem "gq/memory"
)

// SortKey orders rows by Expr.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its whole input by Keys (stable: ties keep input order) and
// emits it in order. Limit >= 0 makes it a top-N: only rows
// [Offset, Offset+Limit) of the sorted order are emitted, keeping only
// Offset+Limit rows in memory. Limit < 0: all rows, Offset ignored.
type Sort struct {
	Input  Node
	Keys   []SortKey
	Limit  int64
	Offset int64
}

func (s *Sort) Schema() *arrow.Schema { return s.Input.Schema() }
func (s *Sort) Children() []Node      { return []Node{s.Input} }
func (s *Sort) Explain() string       { return "Sort" }

func (s *Sort) Open(c *Context) <-chan arrow.RecordBatch {
	in := s.Input.Open(c)
	sk, err := compileSortKeys(s.Keys)
	if err != nil {
		return failedDrain(c, in, err)
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		if s.spills(c) {
			return spillSort(c, in, out, sk, s.Schema(), s.Limit, s.Offset)
		}
		var all arrow.RecordBatch
		var idx []int32
		var err error
		if s.Limit >= 0 {
			all, idx, err = topN(c, in, sk, s.Schema(), s.Limit, s.Offset)
		} else {
			all, idx, err = sortAll(c, in, sk, s.Schema())
		}
		if err != nil {
			return err
		}
		defer all.Release()
		return emitRows(c, out, all, idx)
	})
	return out
}

// spills reports whether the sort runs out of core (spill_sort.go): every
// full sort, and a top-N whose rows may not fit in memory (a large N
// under a memory limit) or when every query spills (GQ_SPILL_ALWAYS). A
// small top-N keeps only N rows and needs no spilling.
func (s *Sort) spills(c *Context) bool {
	if s.Limit < 0 {
		return true
	}
	if c.Mem.SpillAlways() {
		return true
	}
	return c.Mem.Limited(gqmem.Host) && s.Limit+s.Offset > 4*int64(c.BatchSize)
}

// compiledKeys are sort keys ready to evaluate.
type compiledKeys struct {
	exprs      []compiledExpr
	desc       []bool
	nullsFirst []bool
}

func compileSortKeys(keys []SortKey) (compiledKeys, error) {
	ck := compiledKeys{desc: make([]bool, len(keys)), nullsFirst: make([]bool, len(keys))}
	es := make([]expr.Expr, len(keys))
	for i, k := range keys {
		es[i], ck.desc[i], ck.nullsFirst[i] = k.Expr, k.Desc, k.NullsFirst
	}
	var err error
	ck.exprs, err = compileExprs(es)
	return ck, err
}

func (ck compiledKeys) build(c *Context, b arrow.RecordBatch) (sortKeys, []arrow.Array, error) {
	return buildSortKeys(c, ck.exprs, ck.desc, ck.nullsFirst, b)
}

// collect reads in to its end, returning its non-empty batches.
func collect(c *Context, in <-chan arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	var bs []arrow.RecordBatch
	for b := range in {
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		bs = append(bs, b)
	}
	if err := c.Err(); err != nil {
		releaseBatches(bs)
		return nil, err
	}
	return bs, nil
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// sortAll concatenates the whole input and returns it with its rows' order.
func sortAll(c *Context, in <-chan arrow.RecordBatch, ck compiledKeys, schema *arrow.Schema) (arrow.RecordBatch, []int32, error) {
	return sortAllWithKeys(c, in, ck, schema, nil)
}

// sortAllWithKeys is sortAll that also shows the keys and order to use
// (when not nil) before the keys are released.
func sortAllWithKeys(c *Context, in <-chan arrow.RecordBatch, ck compiledKeys, schema *arrow.Schema, use func(sortKeys, []int32)) (arrow.RecordBatch, []int32, error) {
	bs, err := collect(c, in)
	if err != nil {
		return nil, nil, err
	}
	all, err := ConcatBatches(c.Alloc, schema, bs)
	releaseBatches(bs)
	if err != nil {
		return nil, nil, err
	}
	keys, arrs, err := ck.build(c, all)
	if err != nil {
		all.Release()
		return nil, nil, err
	}
	idx := sortIndices(keys, int(all.NumRows()), c.Threads)
	if use != nil {
		use(keys, idx)
	}
	releaseArrays(arrs)
	return all, idx, nil
}

// emitRows sends rows idx of all, in that order, in batches of
// c.BatchSize. Up to c.Threads batches are gathered at once.
func emitRows(c *Context, out chan<- arrow.RecordBatch, all arrow.RecordBatch, idx []int32) error {
	var chunks [][]int32
	for start := 0; start < len(idx); start += c.BatchSize {
		chunks = append(chunks, idx[start:min(start+c.BatchSize, len(idx))])
	}
	group := make([]arrow.RecordBatch, max(1, c.Threads))
	for len(chunks) > 0 {
		k := min(len(group), len(chunks))
		if err := parallel(k, func(i int) { group[i] = TakeBatch(c.Alloc, all, chunks[i]) }); err != nil {
			for i := range k {
				if group[i] != nil {
					group[i].Release()
				}
			}
			return err
		}
		chunks = chunks[k:]
		for i := range k {
			if !Send(c, out, group[i]) {
				releaseBatches(group[i+1 : k])
				return c.Err()
			}
		}
	}
	return nil
}
