package exec

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// eachGroup calls fn for every peer group [start, end) in sorted order;
// newPart says the group opens a partition (running state resets).
func (fr frames) eachGroup(fn func(start, end int, newPart bool) error) error {
	n := len(fr.peerStart)
	for start := 0; start < n; {
		end := start + 1
		for end < n && !fr.peerStart[end] {
			end++
		}
		if err := fn(start, end, fr.partStart[start]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// computeWindowFunc returns f's column over b (rows in sorted order).
func computeWindowFunc(c *Context, f WindowFunc, arg compiledExpr, b arrow.RecordBatch, fr frames) (arrow.Array, error) {
	n := int(b.NumRows())
	switch f.Fn {
	case "row_number", "rank", "dense_rank":
		vals := make([]int64, n)
		var rn, rank, dense int64
		for i := range n {
			if fr.partStart[i] {
				rn, dense = 0, 0
			}
			rn++
			if fr.peerStart[i] {
				rank = rn
				dense++
			}
			switch f.Fn {
			case "row_number":
				vals[i] = rn
			case "rank":
				vals[i] = rank
			default:
				vals[i] = dense
			}
		}
		return fixedArray(c.Alloc, f.Type, vals, nil), nil
	case "count_star":
		vals := make([]int64, n)
		var cnt int64
		_ = fr.eachGroup(func(s, e int, newPart bool) error {
			if newPart {
				cnt = 0
			}
			cnt += int64(e - s)
			fill(vals[s:e], cnt)
			return nil
		})
		return fixedArray(c.Alloc, f.Type, vals, nil), nil
	}
	a, err := arg.eval(c.Alloc, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	switch f.Fn {
	case "count":
		vals := make([]int64, n)
		var cnt int64
		_ = fr.eachGroup(func(s, e int, newPart bool) error {
			if newPart {
				cnt = 0
			}
			cnt += int64(e-s) - int64(nullsIn(a, s, e))
			fill(vals[s:e], cnt)
			return nil
		})
		return fixedArray(c.Alloc, f.Type, vals, nil), nil
	case "min", "max":
		return windowMinMax(c, a, f.Fn == "max", fr)
	default: // sum, avg
		return windowSumAvg(c, f, a, fr)
	}
}

func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

func nullsIn(a arrow.Array, s, e int) int {
	if a.NullN() == 0 {
		return 0
	}
	k := 0
	for i := s; i < e; i++ {
		if a.IsNull(i) {
			k++
		}
	}
	return k
}

// windowMinMax tracks the row holding the running extreme and gathers the
// values at the end, which works alike for every value type.
func windowMinMax(c *Context, a arrow.Array, isMax bool, fr frames) (arrow.Array, error) {
	sc, err := newSortCol(a, isMax, false)
	if err != nil {
		return nil, err
	}
	keys := sortKeys{sc}
	pick := make([]int32, a.Len())
	best := int32(-1)
	_ = fr.eachGroup(func(s, e int, newPart bool) error {
		if newPart {
			best = -1
		}
		for r := int32(s); r < int32(e); r++ {
			if a.IsValid(int(r)) && (best < 0 || compareRows(keys, r, keys, best) < 0) {
				best = r
			}
		}
		fill(pick[s:e], best)
		return nil
	})
	return TakeArray(c.Alloc, a, pick), nil
}

// windowSumAvg computes running sums and averages. Integer and decimal
// arguments are summed exactly as int64 (overflow is an Execution error);
// the result is rescaled to the type's scale, averages rounding half away
// from zero.
func windowSumAvg(c *Context, f WindowFunc, a arrow.Array, fr frames) (arrow.Array, error) {
	n := a.Len()
	isAvg := f.Fn == "avg"
	valid := make([]bool, n)
	if f.Type.ID() == arrow.FLOAT64 {
		fv, err := floatValues(a)
		if err != nil {
			return nil, err
		}
		out := make([]float64, n)
		var sum float64
		var cnt int64
		_ = fr.eachGroup(func(s, e int, newPart bool) error {
			if newPart {
				sum, cnt = 0, 0
			}
			for i := s; i < e; i++ {
				if a.IsValid(i) {
					sum += fv[i]
					cnt++
				}
			}
			v := sum
			if isAvg && cnt > 0 {
				v = sum / float64(cnt)
			}
			fill(out[s:e], v)
			fill(valid[s:e], cnt > 0)
			return nil
		})
		return fixedArray(c.Alloc, f.Type, out, valid), nil
	}
	iv, inScale, err := intValues(a)
	if err != nil {
		return nil, err
	}
	outScale := int32(0)
	if d, ok := f.Type.(*arrow.Decimal64Type); ok {
		outScale = d.Scale
	}
	mul, div := int64(1), int64(1)
	if outScale >= inScale {
		mul = pow10(outScale - inScale)
	} else {
		div = pow10(inScale - outScale)
	}
	out := make([]int64, n)
	var sum, cnt int64
	err = fr.eachGroup(func(s, e int, newPart bool) error {
		if newPart {
			sum, cnt = 0, 0
		}
		for i := s; i < e; i++ {
			if a.IsValid(i) {
				ns := sum + iv[i]
				if (iv[i] > 0 && ns < sum) || (iv[i] < 0 && ns > sum) {
					return errs.New(errs.Execution, "%s overflows in window function %s", f.Type, f.Fn)
				}
				sum = ns
				cnt++
			}
		}
		if cnt == 0 {
			return nil
		}
		d := div
		if isAvg {
			d *= cnt
		}
		v, ok := mulDivRound(sum, mul, d)
		if !ok {
			return errs.New(errs.Execution, "%s overflows in window function %s", f.Type, f.Fn)
		}
		fill(out[s:e], v)
		fill(valid[s:e], true)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return fixedArray(c.Alloc, f.Type, out, valid), nil
}

func intValues(a arrow.Array) ([]int64, int32, error) {
	switch x := a.(type) {
	case *array.Int64:
		return x.Int64Values(), 0, nil
	case *array.Decimal64:
		return int64View(x.Values()), x.DataType().(*arrow.Decimal64Type).Scale, nil
	}
	return nil, 0, errs.New(errs.Internal, "window sum/avg of %s", a.DataType())
}

func floatValues(a arrow.Array) ([]float64, error) {
	switch x := a.(type) {
	case *array.Float64:
		return x.Float64Values(), nil
	case *array.Int64, *array.Decimal64:
		iv, scale, _ := intValues(a)
		f := make([]float64, len(iv))
		p := float64(pow10(scale))
		for i, v := range iv {
			f[i] = float64(v) / p
		}
		return f, nil
	}
	return nil, errs.New(errs.Internal, "window sum/avg of %s", a.DataType())
}

func pow10(k int32) int64 {
	p := int64(1)
	for range k {
		p *= 10
	}
	return p
}

// mulDivRound returns v*mul/div rounded half away from zero (mul, div > 0),
// with a 128-bit intermediate; ok is false when the result overflows.
func mulDivRound(v, mul, div int64) (int64, bool) {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	hi, lo := bits.Mul64(u, uint64(mul))
	if hi >= uint64(div) {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, uint64(div))
	if r >= uint64(div)-r {
		q++
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(q), true
	}
	return int64(q), true
}

// fixedArray wraps vals as an array of type dt (Int64, Decimal64 or
// Float64); valid nil means no NULLs.
func fixedArray[T int64 | float64](mem memory.Allocator, dt arrow.DataType, vals []T, valid []bool) arrow.Array {
	n := len(vals)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	if n > 0 {
		copy(buf.Bytes(), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vals))), n*8))
	}
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		for _, v := range valid {
			if !v {
				nulls++
			}
		}
		if nulls > 0 {
			bitmap = memory.NewResizableBuffer(mem)
			bitmap.Resize(int(bitutil.BytesForBits(int64(n))))
			bm := bitmap.Bytes()
			for i, v := range valid {
				bitutil.SetBitTo(bm, i, v)
			}
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, buf}, nil, nulls, 0)
	buf.Release()
	if bitmap != nil {
		bitmap.Release()
	}
	out := array.MakeFromData(data)
	data.Release()
	return out
}
