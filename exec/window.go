package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
	"gq/exec/expr"
)

// WindowFunc is one window function: Fn is row_number, rank, dense_rank,
// sum, count, count_star, avg, min or max; Args its arguments (none for
// row_number, rank, dense_rank, count_star); Type its result type.
type WindowFunc struct {
	Fn   string
	Args []expr.Expr
	Type arrow.DataType
}

// Window partitions its input by PartitionBy, orders each partition by
// OrderBy and appends one column per Func (Out = input columns then those).
// With OrderBy, aggregates are running totals over the frame "unbounded
// preceding to current row" including peers (SQL's default RANGE frame);
// without OrderBy, over the whole partition. Output order: by partition,
// then OrderBy.
type Window struct {
	Input       Node
	PartitionBy []expr.Expr
	OrderBy     []SortKey
	Funcs       []WindowFunc
	Out         *arrow.Schema
}

func (w *Window) Schema() *arrow.Schema { return w.Out }
func (w *Window) Children() []Node      { return []Node{w.Input} }
func (w *Window) Explain() string       { return "Window" }

// Open sorts the whole input by partition then order keys (partitions
// ascending, NULLs first — any fixed order groups them), marks where
// partitions and peer groups start, and computes each function in one pass
// over the sorted rows.
func (w *Window) Open(c *Context) <-chan arrow.RecordBatch {
	in := w.Input.Open(c)
	keys := make([]SortKey, 0, len(w.PartitionBy)+len(w.OrderBy))
	for _, p := range w.PartitionBy {
		keys = append(keys, SortKey{Expr: p, NullsFirst: true})
	}
	keys = append(keys, w.OrderBy...)
	ck, err := compileSortKeys(keys)
	if err != nil {
		return failedDrain(c, in, err)
	}
	args := make([]compiledExpr, len(w.Funcs))
	for i, f := range w.Funcs {
		if err := checkWindowFunc(f); err != nil {
			return failedDrain(c, in, err)
		}
		if len(f.Args) == 1 {
			if args[i], err = compileExpr(f.Args[0]); err != nil {
				return failedDrain(c, in, err)
			}
		}
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		var fr frames
		all, idx, err := sortAllWithKeys(c, in, ck, w.Input.Schema(), func(keys sortKeys, idx []int32) {
			fr = markFrames(keys, len(w.PartitionBy), idx)
		})
		if err != nil {
			return err
		}
		sorted := TakeBatch(c.Alloc, all, idx)
		all.Release()
		defer sorted.Release()
		cols := make([]arrow.Array, 0, len(w.Out.Fields()))
		defer func() { releaseArrays(cols) }()
		for _, a := range sorted.Columns() {
			a.Retain()
			cols = append(cols, a)
		}
		for i, f := range w.Funcs {
			a, err := computeWindowFunc(c, f, args[i], sorted, fr)
			if err != nil {
				return err
			}
			cols = append(cols, a)
		}
		if _, err := fitColumns(cols, w.Out, int(sorted.NumRows()), nil); err != nil {
			return err
		}
		res := array.NewRecordBatch(w.Out, cols, sorted.NumRows())
		defer res.Release()
		for start := int64(0); start < res.NumRows(); start += int64(c.BatchSize) {
			end := min(start+int64(c.BatchSize), res.NumRows())
			if !Send(c, out, res.NewSlice(start, end)) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

func checkWindowFunc(f WindowFunc) error {
	want := 1
	switch f.Fn {
	case "row_number", "rank", "dense_rank", "count_star":
		want = 0
	case "sum", "count", "avg", "min", "max":
	default:
		return errs.New(errs.Unsupported, "window function %s", f.Fn)
	}
	if len(f.Args) != want {
		return errs.New(errs.Internal, "window function %s takes %d arguments, got %d", f.Fn, want, len(f.Args))
	}
	return nil
}

// frames marks, for each row in sorted order, whether it starts a
// partition and whether it starts a peer group (rows equal on OrderBy);
// a partition start is also a peer start.
type frames struct {
	partStart []bool
	peerStart []bool
}

func markFrames(keys sortKeys, nPart int, idx []int32) frames {
	f := frames{partStart: make([]bool, len(idx)), peerStart: make([]bool, len(idx))}
	pk, ok := keys[:nPart], keys[nPart:]
	for i := range idx {
		if i == 0 || compareRows(pk, idx[i-1], pk, idx[i]) != 0 {
			f.partStart[i], f.peerStart[i] = true, true
		} else if compareRows(ok, idx[i-1], ok, idx[i]) != 0 {
			f.peerStart[i] = true
		}
	}
	return f
}
