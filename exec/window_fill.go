package exec

import (
	"cmp"
	"math"
	"math/big"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
)

// DuckDB's fill(v ORDER BY k) OVER (PARTITION BY …): each NULL v becomes
// the value at its k on the line through two neighbouring values of its
// partition, read in k's order (ties by the window's order). The
// neighbours are the nearest values before and after it; at either end of
// the partition, the two nearest on one side (extrapolation); with one
// value only, that value. Rows whose k is NULL (or, for a DOUBLE k, not
// finite) neither take part nor are filled, and a search for neighbours
// stops at them; a DOUBLE v that is not finite is never a neighbour.
// Values that are not NULL stay as they are; the frame plays no part.
//
// A DOUBLE v is interpolated as DuckDB does, lo*(1-d) + hi*d with d the
// position of k between the neighbours' keys in DOUBLE. A v of an integer
// kind (BIGINT, DECIMAL at its scale, DATE in days, TIMESTAMP and TIME in
// microseconds) is the exact value on the line truncated toward zero;
// one that falls outside the type's range (extrapolation) is NULL.

// fillCol is a fill argument's values in the one form arithmetic needs.
type fillCol struct {
	a      arrow.Array
	floats []float64        // FLOAT64
	ints   []int64          // INT64, DECIMAL64, TIMESTAMP, TIME64, DATE32 (widened)
	wide   []decimal128.Num // DECIMAL128
}

func newFillCol(a arrow.Array) (fillCol, error) {
	f := fillCol{a: a}
	switch x := a.(type) {
	case *array.Float64:
		f.floats = x.Float64Values()
	case *array.Int64:
		f.ints = x.Int64Values()
	case *array.Decimal64:
		f.ints = int64View(x.Values())
	case *array.Timestamp:
		f.ints = int64View(x.TimestampValues())
	case *array.Time64:
		f.ints = int64View(x.Time64Values())
	case *array.Date32:
		f.ints = make([]int64, a.Len())
		for i, v := range x.Date32Values() {
			f.ints[i] = int64(v)
		}
	case *array.Decimal128:
		f.wide = x.Values()
	default:
		return f, errs.New(errs.Internal, "fill of %s", a.DataType())
	}
	return f, nil
}

// usable: a value that can be a neighbour (or, for the key, be placed).
func (f *fillCol) usable(i int32) bool {
	if !f.a.IsValid(int(i)) {
		return false
	}
	if f.floats != nil {
		v := f.floats[i]
		return !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	return true
}

func (f *fillCol) float(i int32) float64 {
	switch {
	case f.floats != nil:
		return f.floats[i]
	case f.ints != nil:
		return float64(f.ints[i])
	}
	v, _ := new(big.Float).SetInt(f.wide[i].BigInt()).Float64()
	return v
}

// small reports whether value i is an integer of at most 30 bits, which
// fillExact's int64 path handles without overflow.
func (f *fillCol) small(i int32) bool {
	if f.ints == nil {
		return false
	}
	v := f.ints[i]
	return v >= -1<<30 && v <= 1<<30
}

func (f *fillCol) rat(i int32) *big.Rat {
	switch {
	case f.floats != nil:
		return new(big.Rat).SetFloat64(f.floats[i])
	case f.ints != nil:
		return new(big.Rat).SetInt64(f.ints[i])
	}
	return new(big.Rat).SetInt(f.wide[i].BigInt())
}

func (f *fillCol) bigInt(i int32) *big.Int {
	if f.ints != nil {
		return big.NewInt(f.ints[i])
	}
	return f.wide[i].BigInt()
}

// fillSlope is where x lies between x0 (0) and x1 (1), DuckDB's way: 0
// for equal keys, scaled down where the keys' span overflows a DOUBLE.
func fillSlope(x, x0, x1 float64) float64 {
	den := x1 - x0
	if den == 0 {
		return 0
	}
	num := x - x0
	if math.IsInf(den, 0) {
		s := max(math.Abs(x0), math.Abs(x1))
		num, den = x/s-x0/s, x1/s-x0/s
	}
	return num / den
}

// fillExact is trunc(y0 + (y1-y0)*(x-x0)/(x1-x0)) (y0 for x1 = x0) for
// integer values y, exactly; ok false when it is outside [lo, hi].
func fillExact(xs, ys *fillCol, r, r0, r1 int32, lo, hi *big.Int) (*big.Int, bool) {
	if xs.small(r) && xs.small(r0) && xs.small(r1) && ys.small(r0) && ys.small(r1) {
		x, x0, x1, y0, y1 := xs.ints[r], xs.ints[r0], xs.ints[r1], ys.ints[r0], ys.ints[r1]
		if x1 == x0 {
			return big.NewInt(y0), true
		}
		num, den := (y1-y0)*(x-x0)+y0*(x1-x0), x1-x0
		v := big.NewInt(num / den) // Go's division truncates toward zero
		return v, v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0
	}
	x, x0, x1 := xs.rat(r), xs.rat(r0), xs.rat(r1)
	y0, y1 := ys.bigInt(r0), ys.bigInt(r1)
	den := new(big.Rat).Sub(x1, x0)
	if den.Sign() == 0 {
		return y0, y0.Cmp(lo) >= 0 && y0.Cmp(hi) <= 0
	}
	v := new(big.Rat).Sub(x, x0)
	v.Quo(v, den)
	v.Mul(v, new(big.Rat).SetInt(new(big.Int).Sub(y1, y0)))
	v.Add(v, new(big.Rat).SetInt(y0))
	t := new(big.Int).Quo(v.Num(), v.Denom())
	return t, t.Cmp(lo) >= 0 && t.Cmp(hi) <= 0
}

// fillRange is the smallest and largest raw value of an integer kind.
func fillRange(t arrow.DataType) (lo, hi *big.Int) {
	switch d := t.(type) {
	case *arrow.Decimal64Type, *arrow.Decimal128Type:
		p := d.(arrow.DecimalType).GetPrecision()
		hi = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		hi.Sub(hi, big.NewInt(1))
		return new(big.Int).Neg(hi), hi
	}
	if t.ID() == arrow.DATE32 {
		return big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	}
	return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
}

// fillNearest sets near[p], for p from from toward to (exclusive) by
// step, to the nearest position already passed whose value is usable,
// with no unusable key between; -1 for none.
func fillNearest(seq []int32, xs, ys *fillCol, near []int32, from, to, step int) {
	last := int32(-1)
	for p := from; p != to; p += step {
		r := seq[p]
		if !xs.usable(r) {
			last, near[p] = -1, -1
			continue
		}
		near[p] = last
		if ys.usable(r) {
			last = int32(p)
		}
	}
}

// windowFill computes fill over the env's batch: args are the value and
// the key, f.Order (w.inner) the key's sort.
func windowFill(w *windowEnv, f WindowFunc, args []compiledExpr) (arrow.Array, error) {
	c, l := w.c, w.l
	n := int(w.b.NumRows())
	if w.inner == nil || len(args) != 2 {
		return nil, errs.New(errs.Internal, "fill without its key")
	}
	keys, arrs, err := w.inner.build(c, w.b)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(arrs)
	ya, err := args[0].eval(c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	defer ya.Release()
	xa, err := args[1].eval(c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	ys, err := newFillCol(ya)
	if err != nil {
		return nil, err
	}
	xs, err := newFillCol(xa)
	if err != nil {
		return nil, err
	}
	// The result: the values as they are, NULLs filled where they can be.
	valid := make([]bool, n)
	floats := slices.Clone(ys.floats)
	ints := slices.Clone(ys.ints)
	wide := slices.Clone(ys.wide)
	for i := range n {
		valid[i] = ya.IsValid(i)
	}
	lo, hi := fillRange(ya.DataType())
	var seq []int32
	var prev, next []int32
	for s := 0; s < n; s = int(l.pe[s]) {
		e := int(l.pe[s])
		seq = seq[:0]
		for r := s; r < e; r++ {
			seq = append(seq, int32(r))
		}
		slices.SortFunc(seq, func(a, b int32) int {
			if c := compareRows(keys, a, keys, b); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		m := len(seq)
		// prev[p], next[p]: the nearest position before (after) p with a
		// usable value and no unusable key between; -1 for none.
		prev, next = slices.Grow(prev[:0], m)[:m], slices.Grow(next[:0], m)[:m]
		fillNearest(seq, &xs, &ys, prev, 0, m, 1)
		fillNearest(seq, &xs, &ys, next, m-1, -1, -1)
		for p, r := range seq {
			if valid[r] || !xs.usable(r) {
				continue
			}
			p0 := prev[p]
			if p0 < 0 {
				p0 = next[p]
			}
			if p0 < 0 {
				continue
			}
			p1 := next[p0]
			if p1 < 0 && prev[p0] >= 0 {
				p0, p1 = prev[p0], p0
			}
			r0 := seq[p0]
			if p1 < 0 { // one value: it
				valid[r] = true
				switch {
				case floats != nil:
					floats[r] = floats[r0]
				case ints != nil:
					ints[r] = ints[r0]
				default:
					wide[r] = wide[r0]
				}
				continue
			}
			r1 := seq[p1]
			if floats != nil {
				d := fillSlope(xs.float(r), xs.float(r0), xs.float(r1))
				floats[r], valid[r] = ys.floats[r0]*(1-d)+ys.floats[r1]*d, true
				continue
			}
			v, ok := fillExact(&xs, &ys, r, r0, r1, lo, hi)
			if !ok {
				continue
			}
			valid[r] = true
			if ints != nil {
				ints[r] = v.Int64()
			} else {
				wide[r] = decimal128.FromBigInt(v)
			}
		}
		if err := c.Err(); err != nil {
			return nil, err
		}
	}
	switch ya.DataType().ID() {
	case arrow.FLOAT64:
		return aggArray(c.Alloc, f.Type, floats, valid), nil
	case arrow.DECIMAL128:
		return aggArray(c.Alloc, f.Type, wide, valid), nil
	case arrow.DATE32:
		days := make([]int32, n)
		for i, v := range ints {
			days[i] = int32(v)
		}
		return aggArray(c.Alloc, f.Type, days, valid), nil
	}
	return aggArray(c.Alloc, f.Type, ints, valid), nil
}
