package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
	"gq/expr"
)

// WindowFunc is one window function: Fn is row_number, rank, dense_rank,
// percent_rank, cume_dist, ntile, lag, lead, first_value, last_value,
// nth_value, fill (window_fill.go), or an aggregate (sum, count,
// count_star, avg, min, max, or one of agg_more.go's) over Frame. Args:
// the value or aggregate argument; lag and lead also take their default,
// of Type, fill its key (also its one Order key); lag and lead may take a
// third, nth_value a second: the offset or n read at each row (an Int64;
// NULL gives NULL, nth_value's n below 1 too, a negative offset reads the
// other way), in place of N. N: lag's and lead's offset, nth_value's n,
// ntile's bucket count. Type is the result type.
type WindowFunc struct {
	Fn    string
	Args  []expr.Expr
	Type  arrow.DataType
	N     int64
	Frame WindowFrame
	// IgnoreNulls (lag, lead, first_value, last_value, nth_value): rows
	// whose value is NULL are skipped when counting and picking.
	IgnoreNulls bool
	// Param: AggFunc.Param of agg_more.go's aggregates.
	Param any
	// Distinct (aggregates): each frame's distinct non-NULL values only.
	Distinct bool
	// Order: the ORDER BY inside the call. agg_more.go's aggregates: the
	// order each frame's values are fed in (none: row order); ranking,
	// lag/lead and value functions: the order they read their frame in
	// (window_argorder.go).
	Order []SortKey
	// FrameOffs: the per-row offsets of Frame's PerRow bounds (start,
	// end), Int64 expressions over the input.
	FrameOffs [2]expr.Expr
}

// Window partitions its input by PartitionBy, orders each partition by
// OrderBy and appends one column per Func (Out = input columns then those).
// Aggregates and value functions read each row's Frame; the others the
// row's partition. Output order: by partition, then OrderBy.
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
	partCols := 0 // the sort columns of the partition keys
	for _, p := range w.PartitionBy {
		keys = append(keys, SortKey{Expr: p, NullsFirst: true})
		partCols += sortColCount(p.DataType())
	}
	keys = append(keys, w.OrderBy...)
	ck, err := compileSortKeys(keys)
	if err != nil {
		return failedDrain(c, in, err)
	}
	args := make([][]compiledExpr, len(w.Funcs))
	inner := make([]*compiledKeys, len(w.Funcs))
	offs := make([][]*compiledExpr, len(w.Funcs))
	for i, f := range w.Funcs {
		if err := checkWindowFunc(f); err != nil {
			return failedDrain(c, in, err)
		}
		if len(f.Order) > 0 {
			ik, err := compileSortKeys(f.Order)
			if err != nil {
				return failedDrain(c, in, err)
			}
			inner[i] = &ik
		}
		for _, a := range f.Args {
			ce, err := compileExpr(a)
			if err != nil {
				return failedDrain(c, in, err)
			}
			args[i] = append(args[i], ce)
		}
		offs[i] = make([]*compiledExpr, 2)
		for k, a := range f.FrameOffs {
			if a == nil {
				continue
			}
			ce, err := compileExpr(a)
			if err != nil {
				return failedDrain(c, in, err)
			}
			offs[i][k] = &ce
		}
	}
	var key *compiledExpr
	desc := false
	if len(w.OrderBy) > 0 {
		k, err := compileExpr(w.OrderBy[0].Expr)
		if err != nil {
			return failedDrain(c, in, err)
		}
		key, desc = &k, w.OrderBy[0].Desc
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		var fr frames
		all, idx, err := sortAllWithKeys(c, in, ck, w.Input.Schema(), func(keys sortKeys, idx []int32) {
			fr = markFrames(keys, partCols, idx)
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
		env := &windowEnv{c: c, b: sorted, fr: fr, l: fr.layout(), key: key, desc: desc, cache: map[WindowFrame]bounds{}}
		defer env.release()
		for i, f := range w.Funcs {
			env.inner = inner[i]
			if err := env.setOffs(offs[i]); err != nil {
				return err
			}
			a, err := computeWindowFunc(env, f, args[i])
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
	perRow := PerRowN(f) >= 0
	switch f.Fn {
	case "row_number", "rank", "dense_rank", "count_star", "percent_rank", "cume_dist", "ntile":
		want = 0
	case "lag", "lead", "fill":
		want = 2
	case "sum", "count", "count_distinct", "avg", "min", "max", "first_value", "last_value", "nth_value":
	default:
		if isMoreAgg(f.Fn) {
			break
		}
		return errs.New(errs.Unsupported, "window function %s", f.Fn)
	}
	if perRow {
		want++
	}
	if len(f.Args) != want {
		return errs.New(errs.Internal, "window function %s takes %d arguments, got %d", f.Fn, want, len(f.Args))
	}
	if perRow && (len(f.Order) > 0 || f.Args[want-1].DataType().ID() != arrow.INT64) {
		return errs.New(errs.Internal, "window function %s: a per-row count of %s or with an ORDER BY of its own", f.Fn, f.Args[want-1].DataType())
	}
	if f.Fn == "fill" && len(f.Order) != 1 {
		return errs.New(errs.Internal, "fill with %d keys", len(f.Order))
	}
	if len(f.Order) > 0 && !isMoreAgg(f.Fn) && !argOrderFunc(f.Fn) && f.Fn != "fill" {
		return errs.New(errs.Internal, "window function %s with an ORDER BY of its own", f.Fn)
	}
	if f.Frame.Start.PerRow != (f.FrameOffs[0] != nil) || f.Frame.End.PerRow != (f.FrameOffs[1] != nil) || f.Frame.Start.PerRow && !f.Frame.Rows {
		return errs.New(errs.Internal, "window function %s: per-row frame offsets do not match its frame", f.Fn)
	}
	if !perRow && ((f.Fn == "ntile" || f.Fn == "nth_value") && f.N < 1 || (f.Fn == "lag" || f.Fn == "lead") && f.N < 0) {
		return errs.New(errs.Internal, "window function %s with n=%d", f.Fn, f.N)
	}
	return nil
}

// PerRowN is the index in f.Args of lag's or lead's per-row offset or
// nth_value's per-row n, or -1 where the count is N.
func PerRowN(f WindowFunc) int {
	switch {
	case (f.Fn == "lag" || f.Fn == "lead") && len(f.Args) == 3, f.Fn == "nth_value" && len(f.Args) == 2:
		return len(f.Args) - 1
	}
	return -1
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
