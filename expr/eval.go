package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// Evaluator is a compiled expression. It holds no per-call state, so one
// Evaluator serves many workers at once.
type Evaluator struct {
	root node
	typ  arrow.DataType
}

// Compile checks e (known functions, argument types as the operators and
// the registered functions require) and prepares it for evaluation (e.g.
// compiles LIKE patterns, builds IN hash sets). The Evaluator is safe for
// concurrent use.
func Compile(e Expr) (*Evaluator, error) {
	n, err := compile(e)
	if err != nil {
		return nil, err
	}
	return &Evaluator{root: n, typ: e.DataType()}, nil
}

// Eval computes the expression over every row of batch and returns an
// array of length batch.NumRows() and type e.DataType(), allocated from
// mem. The caller releases it. Literals yield a full-length array.
func (ev *Evaluator) Eval(mem memory.Allocator, batch arrow.RecordBatch) (arrow.Array, error) {
	c := &ctx{mem: mem, n: int(batch.NumRows())}
	if l, ok := ev.root.(*litNode); ok {
		return makeConst(c, l.t, l.v), nil
	}
	return ev.root.eval(c, batch)
}

// EvalNarrow is Eval, except that where the expression's type is a
// decimal128 and every value of this batch fits an int64 at its scale, the
// result may be an array of type Decimal64(18, that scale) holding them
// (the int64 fast path of wide arithmetic, which then skips widening the
// batch). Consumers that take either width (sums, min/max) call it.
func (ev *Evaluator) EvalNarrow(mem memory.Allocator, batch arrow.RecordBatch) (arrow.Array, error) {
	if nr, ok := ev.root.(narrower); ok {
		c := &ctx{mem: mem, n: int(batch.NumRows())}
		return nr.evalNarrow(c, batch)
	}
	return ev.Eval(mem, batch)
}

// EvalFilter evaluates a Boolean expression and returns the indices of the
// rows where it is true (NULL counts as false), as a selection vector. The
// result reuses sel's storage.
func (ev *Evaluator) EvalFilter(mem memory.Allocator, batch arrow.RecordBatch, sel []int32) ([]int32, error) {
	if ev.typ.ID() != arrow.BOOL && ev.typ.ID() != arrow.NULL {
		return nil, errs.New(errs.Internal, "filter on non-boolean expression %s", ev.typ)
	}
	c := &ctx{mem: mem, n: int(batch.NumRows())}
	return filterRows(c, batch, ev.root, nil, sel[:0])
}

// EvalFilterFrom is EvalFilter over the rows of cand only (ascending);
// the result reuses cand's storage.
func (ev *Evaluator) EvalFilterFrom(mem memory.Allocator, batch arrow.RecordBatch, cand []int32) ([]int32, error) {
	if ev.typ.ID() != arrow.BOOL && ev.typ.ID() != arrow.NULL {
		return nil, errs.New(errs.Internal, "filter on non-boolean expression %s", ev.typ)
	}
	c := &ctx{mem: mem, n: int(batch.NumRows())}
	return filterRows(c, batch, ev.root, cand, cand[:0])
}

// ctx is the per-call state of one evaluation.
type ctx struct {
	mem  memory.Allocator
	n    int
	memo *Memo // the shared calls' values (memo.go); nil: none kept
}

// node is a compiled expression.
type node interface {
	typ() arrow.DataType
	// eval returns a full-length array that the caller releases.
	eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error)
}

// filterer is implemented by Boolean nodes that can select rows without
// building a Boolean array.
type filterer interface {
	// filter appends to dst the rows of cand (nil: all rows, else
	// ascending) where the node is true. dst is always empty on entry and
	// may share storage with cand (dst = cand[:0]): writes never overtake
	// reads.
	filter(c *ctx, b arrow.RecordBatch, cand []int32, dst []int32) ([]int32, error)
}

// filterRows selects the rows of cand where n is true.
func filterRows(c *ctx, b arrow.RecordBatch, n node, cand, dst []int32) ([]int32, error) {
	if f, ok := n.(filterer); ok {
		return f.filter(c, b, cand, dst)
	}
	if l, ok := n.(*litNode); ok {
		if l.v.null || l.v.i == 0 {
			return dst, nil
		}
		return appendCand(c, cand, dst), nil
	}
	a, err := n.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return selectTrue(a, cand, dst), nil
}

// appendCand appends all candidates (nil: every row).
func appendCand(c *ctx, cand, dst []int32) []int32 {
	if cand == nil {
		for i := 0; i < c.n; i++ {
			dst = append(dst, int32(i))
		}
		return dst
	}
	return append(dst, cand...)
}

// selectTrue appends the rows of cand where the Boolean array a is true.
func selectTrue(a arrow.Array, cand, dst []int32) []int32 {
	if a.DataType().ID() == arrow.NULL {
		return dst
	}
	d := a.Data()
	off := d.Offset()
	vals := d.Buffers()[1].Bytes()
	valid := validBits(a)
	if cand == nil {
		n := a.Len()
		if off%8 == 0 {
			vals = vals[off/8:]
			var vb []byte
			if valid != nil {
				vb = valid[off/8:]
			}
			for bi := 0; bi*8 < n; bi++ {
				w := vals[bi]
				if vb != nil {
					w &= vb[bi]
				}
				for w != 0 {
					j := bi*8 + ctz8(w)
					if j >= n {
						break
					}
					dst = append(dst, int32(j))
					w &= w - 1
				}
			}
			return dst
		}
		for i := 0; i < n; i++ {
			if bitSet(vals, off+i) && (valid == nil || bitSet(valid, off+i)) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for _, r := range cand {
		i := off + int(r)
		if bitSet(vals, i) && (valid == nil || bitSet(valid, i)) {
			dst = append(dst, r)
		}
	}
	return dst
}

// colNode reads a column of the input batch.
type colNode struct {
	idx int
	t   arrow.DataType
}

func (n *colNode) typ() arrow.DataType { return n.t }

func (n *colNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.column(b)
	if err != nil {
		return nil, err
	}
	a.Retain()
	return a, nil
}

func (n *colNode) column(b arrow.RecordBatch) (arrow.Array, error) {
	if n.idx < 0 || n.idx >= int(b.NumCols()) {
		return nil, errs.New(errs.Internal, "column #%d out of range (batch has %d)", n.idx, b.NumCols())
	}
	a := b.Column(n.idx)
	if !arrow.TypeEqual(a.DataType(), n.t) && !sameFamily(a.DataType(), n.t) {
		return nil, errs.New(errs.Internal, "column #%d has type %s, expected %s", n.idx, a.DataType(), n.t)
	}
	return a, nil
}

// sameFamily accepts decimals of one width that differ only in precision.
func sameFamily(a, b arrow.DataType) bool {
	if a.ID() != b.ID() || !IsDecimal(a) {
		return false
	}
	return ScaleOf(a) == ScaleOf(b)
}

// scalar is a literal's value in the evaluator's representation: i holds
// Int64, Decimal64 (unscaled), Date and Boolean (0/1) values, w Decimal128.
type scalar struct {
	null bool
	i    int64
	f    float64
	s    string
	iv   arrow.MonthDayNanoInterval // Interval
	w    decimal128.Num
}

// litNode is a constant.
type litNode struct {
	t arrow.DataType
	v scalar
}

func (n *litNode) typ() arrow.DataType { return n.t }

func (n *litNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	return makeConst(c, n.t, n.v), nil
}

// operand is an evaluated argument: an array, or a scalar never
// materialised (the column-op-literal fast paths).
type operand struct {
	arr arrow.Array
	sc  *scalar
	// wideSc: the scalar's value is sc.w (a Decimal128), not sc.i.
	wideSc bool
}

// narrow reports whether the operand's values are int64s (Int64, Decimal64
// or a wide node's narrow result).
func (o operand) narrow() bool {
	if o.arr != nil {
		return !isWide(o.arr.DataType())
	}
	return !o.wideSc
}

func (o operand) release() {
	if o.arr != nil {
		o.arr.Release()
	}
}

func (o operand) nullScalar() bool { return o.sc != nil && o.sc.null }

// evalOperand evaluates n, keeping literals as scalars.
func evalOperand(c *ctx, b arrow.RecordBatch, n node) (operand, error) {
	if l, ok := n.(*litNode); ok {
		return operand{sc: &l.v, wideSc: isWide(l.t)}, nil
	}
	a, err := n.eval(c, b)
	return operand{arr: a}, err
}

// narrower is a node of a decimal128 type that can hand back a batch's
// values as int64s at its scale where they all fit (an array of a
// Decimal64 type of that scale), the fast path of wide arithmetic.
type narrower interface {
	evalNarrow(c *ctx, b arrow.RecordBatch) (arrow.Array, error)
}

// evalNarrowOperand is evalOperand taking a narrow result where n can
// give one.
func evalNarrowOperand(c *ctx, b arrow.RecordBatch, n node) (operand, error) {
	switch x := n.(type) {
	case *litNode:
		if v := x.v.w; isWide(x.t) && !x.v.null && v.HighBits() == int64(v.LowBits())>>63 {
			return operand{sc: &scalar{i: int64(v.LowBits())}}, nil
		}
	case narrower:
		a, err := x.evalNarrow(c, b)
		return operand{arr: a}, err
	}
	return evalOperand(c, b, n)
}

// evalOperands evaluates every node; on error it releases what it made.
func evalOperands(c *ctx, b arrow.RecordBatch, ns []node) ([]operand, error) {
	ops := make([]operand, len(ns))
	for i, n := range ns {
		o, err := evalOperand(c, b, n)
		if err != nil {
			releaseAll(ops[:i])
			return nil, err
		}
		ops[i] = o
	}
	return ops, nil
}

func releaseAll(ops []operand) {
	for _, o := range ops {
		o.release()
	}
}

// scalarAt reads row i of a as a scalar (used by constant folding and rare
// per-row paths).
func scalarAt(a arrow.Array, i int) scalar {
	if a.IsNull(i) {
		return scalar{null: true}
	}
	switch v := a.(type) {
	case *array.Int64:
		return scalar{i: v.Value(i)}
	case *array.Float64:
		return scalar{f: v.Value(i)}
	case *array.Decimal64:
		return scalar{i: int64(v.Value(i))}
	case *array.Decimal128:
		return scalar{w: v.Value(i)}
	case *array.Date32:
		return scalar{i: int64(v.Value(i))}
	case *array.Timestamp:
		return scalar{i: int64(v.Value(i))}
	case *array.Time64:
		return scalar{i: int64(v.Value(i))}
	case *array.MonthDayNanoInterval:
		return scalar{iv: v.Value(i)}
	case *array.Boolean:
		if v.Value(i) {
			return scalar{i: 1}
		}
		return scalar{}
	case *array.String:
		return scalar{s: v.Value(i)}
	}
	return scalar{null: true}
}
