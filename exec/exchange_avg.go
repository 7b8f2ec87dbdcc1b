package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
	"gq/expr"
)

// CombineCol is one output column of AvgCombine: input column From as is,
// or (Count >= 0) the average of sum column From over count column Count.
type CombineCol struct {
	From  int
	Count int
}

// AvgCombine finishes averages split for distributed aggregation: each
// rank sums and counts, the sums and counts are summed after the
// exchange, and this node divides, rounding exactly as the one-rank avg
// does (so results match to the last digit).
type AvgCombine struct {
	Input Node
	Cols  []CombineCol
	Out   *arrow.Schema
}

func (a *AvgCombine) Schema() *arrow.Schema { return a.Out }
func (a *AvgCombine) Children() []Node      { return []Node{a.Input} }
func (a *AvgCombine) Explain() string       { return "AvgCombine" }

func (a *AvgCombine) Open(c *Context) <-chan arrow.RecordBatch {
	in := a.Input.Open(c)
	if len(a.Cols) != a.Out.NumFields() {
		return failedDrain(c, in, errs.New(errs.Internal, "avg combine: %d columns for %d fields", len(a.Cols), a.Out.NumFields()))
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		for b := range in {
			cols := make([]arrow.Array, len(a.Cols))
			var err error
			for i, cc := range a.Cols {
				if cc.Count < 0 {
					cols[i] = b.Column(cc.From)
					cols[i].Retain()
					continue
				}
				if cols[i], err = a.average(c, b.Column(cc.From), b.Column(cc.Count), a.Out.Field(i).Type); err != nil {
					break
				}
			}
			if err != nil {
				releaseArrays(cols)
				b.Release()
				return err
			}
			ob := array.NewRecordBatch(a.Out, cols, b.NumRows())
			releaseArrays(cols)
			b.Release()
			if !Send(c, out, ob) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

func (a *AvgCombine) average(c *Context, sum, count arrow.Array, t arrow.DataType) (arrow.Array, error) {
	cnt, ok := count.(*array.Int64)
	if !ok {
		return nil, errs.New(errs.Internal, "avg combine: count is %s", count.DataType())
	}
	n := sum.Len()
	valid := make([]bool, n)
	for i := range n {
		valid[i] = sum.IsValid(i) && cnt.IsValid(i) && cnt.Value(i) > 0
	}
	if f, isF := sum.(*array.Float64); isF {
		out := make([]float64, n)
		for i := range n {
			if valid[i] {
				out[i] = f.Value(i) / float64(cnt.Value(i))
			}
		}
		return aggArray(c.Alloc, t, out, valid), nil
	}
	if w, isWide := sum.(*array.Decimal128); isWide {
		return a.averageWide(c, w, cnt, valid, t)
	}
	var vals []int64
	switch s := sum.(type) {
	case *array.Int64:
		vals = s.Int64Values()
	case *array.Decimal64:
		vals = asInt64s(s.Values())
	default:
		return nil, errs.New(errs.Internal, "avg combine: sum is %s", sum.DataType())
	}
	inScale := decScale(sum.DataType())
	if t.ID() == arrow.FLOAT64 {
		out := make([]float64, n)
		for i := range n {
			if valid[i] {
				out[i] = expr.DecimalToFloat64(vals[i], inScale) / float64(cnt.Value(i))
			}
		}
		return aggArray(c.Alloc, t, out, valid), nil
	}
	outScale := decScale(t)
	if outScale < inScale {
		return nil, errs.New(errs.Internal, "avg combine: result scale %d below input scale %d", outScale, inScale)
	}
	mul := pow10i(outScale - inScale)
	out := make([]int64, n)
	for i := range n {
		if !valid[i] {
			continue
		}
		v, ok := expr.MulDivRound(vals[i], mul, cnt.Value(i))
		if !ok {
			return nil, errSumOverflow
		}
		out[i] = v
	}
	return aggArray(c.Alloc, t, out, valid), nil
}

// averageWide is average for 128-bit partial sums (DECIMAL(38)), rounding
// as the one-rank avg does (avgRound128).
func (a *AvgCombine) averageWide(c *Context, sum *array.Decimal128, cnt *array.Int64, valid []bool, t arrow.DataType) (arrow.Array, error) {
	n := sum.Len()
	inScale := decScale(sum.DataType())
	vals := sum.Values()
	if t.ID() == arrow.FLOAT64 {
		out := make([]float64, n)
		for i := range n {
			if valid[i] {
				out[i] = expr.Decimal128ToFloat64(vals[i], inScale) / float64(cnt.Value(i))
			}
		}
		return aggArray(c.Alloc, t, out, valid), nil
	}
	k := decScale(t) - inScale
	if k < 0 || k > 18 {
		return nil, errs.New(errs.Internal, "avg combine: result scale %d from input scale %d", decScale(t), inScale)
	}
	mul := pow10i(k)
	nums := make([]decimal128.Num, n)
	for i := range n {
		if !valid[i] {
			continue
		}
		v, ok := avgRound128(vals[i], mul, cnt.Value(i))
		if !ok || !fitsDigits(v, maxDecimalDigits) {
			return nil, errWideSumOverflow
		}
		nums[i] = v
	}
	return wideArray(c.Alloc, t, nums, valid)
}
