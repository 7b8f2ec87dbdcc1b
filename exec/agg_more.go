package exec

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// The states of the aggregates beyond count, sum, avg, min and max
// (planner/bind_aggfn.go binds them): variances and standard deviations
// (Welford's running mean and sum of squared deviations, merged by Chan's
// formula), bitwise and/or/xor, first and last (pickState), and the holistic ones — median, the
// quantiles, mode, entropy, string_agg, any_value, mad, list — which keep each group's
// non-NULL values. The same states answer window frames (window_agg.go).

// moreAggState is newAggState for these aggregates; ok false for others.
func moreAggState(f AggFunc, at arrow.DataType) (aggState, bool, error) {
	if isPairAgg(f.Fn) {
		s, err := pairAggState(f, at)
		return s, true, err
	}
	switch f.Fn {
	case "stddev_pop", "stddev_samp", "var_pop", "var_samp":
		return &varState{samp: strings.HasSuffix(f.Fn, "_samp"), sqrt: strings.HasPrefix(f.Fn, "stddev")}, true, nil
	case "bit_and", "bit_or", "bit_xor":
		return &bitState{op: f.Fn}, true, nil
	case "first", "last":
		if at == nil {
			return nil, true, errs.New(errs.Internal, "aggregate %s without argument", f.Fn)
		}
		s, err := newPickState(f.Fn == "last", at, f.Type)
		return s, true, err
	case "median", "quantile_cont", "quantile_disc", "mode", "string_agg", "any_value", "mad", "list", "entropy":
	default:
		return nil, false, nil
	}
	if at == nil {
		return nil, true, errs.New(errs.Internal, "aggregate %s without argument", f.Fn)
	}
	h := holistic{fn: f.Fn, in: at, out: f.Type}
	switch p := f.Param.(type) {
	case float64:
		h.q = p
	case []float64:
		h.qs = p
	case string:
		h.sep = p
	}
	if f.Fn == "median" {
		h.fn, h.q = "quantile_cont", 0.5
	}
	if h.fn == "list" && expr.IsNested(at) {
		s, err := newNestedListState(f.Type)
		return s, true, err
	}
	var s aggState
	switch at.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.BOOL:
		s = &collectState[int64]{h: h, cmp: cmp.Compare[int64]}
	case arrow.FLOAT64:
		s = &collectState[float64]{h: h, cmp: expr.CompareFloat}
	case arrow.DECIMAL128:
		s = &collectState[decimal128.Num]{h: h, cmp: func(a, b decimal128.Num) int { return a.Cmp(b) }}
	case arrow.STRING:
		s = &collectState[string]{h: h, cmp: strings.Compare}
	default:
		return nil, true, errs.New(errs.Unsupported, "aggregate %s of %s", f.Fn, at)
	}
	if h.fn == "string_agg" && at.ID() != arrow.STRING || (h.fn == "quantile_cont" || h.fn == "mad") && !numericID(at.ID()) {
		return nil, true, errs.New(errs.Internal, "aggregate %s of %s", f.Fn, at)
	}
	return s, true, nil
}

// isMoreAgg reports whether fn is one of these aggregates.
func isMoreAgg(fn string) bool {
	switch fn {
	case "stddev_pop", "stddev_samp", "var_pop", "var_samp", "bit_and", "bit_or", "bit_xor",
		"median", "quantile_cont", "quantile_disc", "mode", "string_agg", "any_value", "mad", "list",
		"first", "last", "entropy":
		return true
	}
	return isPairAgg(fn)
}

func numericID(id arrow.Type) bool {
	switch id {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.FLOAT64:
		return true
	}
	return false
}

// varState: var_pop, var_samp, stddev_pop, stddev_samp of any number.
type varState struct {
	samp, sqrt bool
	n          []int64
	mean, m2   []float64
}

func (s *varState) resize(n int) {
	s.n, s.mean, s.m2 = growZero(s.n, n), growZero(s.mean, n), growZero(s.m2, n)
}

func (s *varState) update(gids []int32, arg arrow.Array) error {
	vals, err := floatValues(arg)
	if err != nil {
		return err
	}
	nulls := arg.NullN() > 0
	for i, g := range gids {
		if nulls && arg.IsNull(i) {
			continue
		}
		s.n[g]++
		d := vals[i] - s.mean[g]
		s.mean[g] += d / float64(s.n[g])
		s.m2[g] += d * (vals[i] - s.mean[g])
	}
	return nil
}

func (s *varState) merge(from aggState, src, dst []int32) error {
	f := from.(*varState)
	for i, g := range src {
		d := dst[i]
		nb := f.n[g]
		if nb == 0 {
			continue
		}
		na := s.n[d]
		if na == 0 {
			s.n[d], s.mean[d], s.m2[d] = nb, f.mean[g], f.m2[g]
			continue
		}
		n := na + nb
		delta := f.mean[g] - s.mean[d]
		s.mean[d] += delta * float64(nb) / float64(n)
		s.m2[d] += f.m2[g] + delta*delta*float64(na)*float64(nb)/float64(n)
		s.n[d] = n
	}
	return nil
}

func (s *varState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	vals := make([]float64, n)
	valid := make([]bool, n)
	for g := range n {
		k := s.n[g]
		if s.samp {
			k--
		}
		if k <= 0 {
			continue
		}
		v := s.m2[g] / float64(k)
		if s.sqrt {
			v = math.Sqrt(v)
		}
		vals[g], valid[g] = v, true
	}
	return aggArray(mem, arrow.PrimitiveTypes.Float64, vals, valid), nil
}

// bitState: bit_and, bit_or, bit_xor of integers (NULL for no values).
type bitState struct {
	op  string
	has []bool
	acc []int64
}

func (s *bitState) resize(n int) { s.has, s.acc = growZero(s.has, n), growZero(s.acc, n) }

func (s *bitState) fold(g int32, v int64) {
	if !s.has[g] {
		s.acc[g], s.has[g] = v, true
		return
	}
	switch s.op {
	case "bit_and":
		s.acc[g] &= v
	case "bit_or":
		s.acc[g] |= v
	default:
		s.acc[g] ^= v
	}
}

func (s *bitState) update(gids []int32, arg arrow.Array) error {
	a, ok := arg.(*array.Int64)
	if !ok {
		return errs.New(errs.Internal, "%s of %s", s.op, arg.DataType())
	}
	vals := a.Int64Values()
	for i, g := range gids {
		if a.IsValid(i) {
			s.fold(g, vals[i])
		}
	}
	return nil
}

func (s *bitState) merge(from aggState, src, dst []int32) error {
	f := from.(*bitState)
	for i, g := range src {
		if f.has[g] {
			s.fold(dst[i], f.acc[g])
		}
	}
	return nil
}

func (s *bitState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	return aggArray(mem, arrow.PrimitiveTypes.Int64, s.acc[:n], s.has[:n]), nil
}

// pickState is DuckDB's first (and its alias arbitrary) and last: the
// value of a group's first or last row in arrival order, NULL included,
// where any_value takes the first value that is not NULL. Merged partial
// states keep the first (or last) state's row, so under parallel or
// several-rank aggregation "first" is some row's value, as in DuckDB
// without ORDER BY; the ordered form (first(x ORDER BY y)) is a window
// (planner's orderedAggCall).
type pickState[T int64 | float64 | decimal128.Num | string] struct {
	last       bool
	out        arrow.DataType
	has, valid []bool
	val        []T
}

func newPickState(last bool, at, out arrow.DataType) (aggState, error) {
	switch at.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.BOOL:
		return &pickState[int64]{last: last, out: out}, nil
	case arrow.FLOAT64:
		return &pickState[float64]{last: last, out: out}, nil
	case arrow.DECIMAL128:
		return &pickState[decimal128.Num]{last: last, out: out}, nil
	case arrow.STRING:
		return &pickState[string]{last: last, out: out}, nil
	}
	return nil, errs.New(errs.Unsupported, "aggregate first/last of %s", at)
}

func (s *pickState[T]) resize(n int) {
	s.has, s.valid, s.val = growZero(s.has, n), growZero(s.valid, n), growZero(s.val, n)
}

func (s *pickState[T]) update(gids []int32, arg arrow.Array) error {
	get, err := valueGetter[T](arg)
	if err != nil {
		return err
	}
	for i, g := range gids {
		if s.has[g] && !s.last {
			continue
		}
		s.has[g], s.valid[g] = true, arg.IsValid(i)
		if s.valid[g] {
			s.val[g] = get(i)
		}
	}
	return nil
}

func (s *pickState[T]) merge(from aggState, src, dst []int32) error {
	f := from.(*pickState[T])
	for i, g := range src {
		d := dst[i]
		if !f.has[g] || s.has[d] && !s.last {
			continue
		}
		s.has[d], s.valid[d], s.val[d] = true, f.valid[g], f.val[g]
	}
	return nil
}

func (s *pickState[T]) result(mem memory.Allocator, n int) (arrow.Array, error) {
	bld := array.NewBuilder(mem, s.out)
	defer bld.Release()
	bld.Reserve(n)
	for g := range n {
		if !s.valid[g] {
			bld.AppendNull()
		} else if err := appendValue(bld, s.val[g]); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// holistic is what a collectState computes from a group's values.
type holistic struct {
	fn      string // quantile_cont (median too), quantile_disc, mode, string_agg, any_value, mad
	q       float64
	qs      []float64 // a list of quantiles (DuckDB's quantile_cont(x, [a, b])): out is their list
	sep     string
	in, out arrow.DataType
}

// collectState keeps every group's non-NULL values in arrival order (a
// window frame's: its row order); any_value keeps the first only, list
// its NULLs too.
// Integer-like values (dates, times, booleans as 0/1, DECIMAL(18)
// unscaled) are int64s.
type collectState[T int64 | float64 | decimal128.Num | string] struct {
	h     holistic
	cmp   func(a, b T) int
	vals  [][]T
	valid [][]bool // list only: which of vals are not NULL
}

func (s *collectState[T]) resize(n int) {
	s.vals = growZero(s.vals, n)
	if s.h.fn == "list" {
		s.valid = growZero(s.valid, n)
	}
}

func (s *collectState[T]) update(gids []int32, arg arrow.Array) error {
	get, err := valueGetter[T](arg)
	if err != nil {
		return err
	}
	if s.h.fn == "list" { // NULLs too, as DuckDB's list() keeps them
		for i, g := range gids {
			s.vals[g] = append(s.vals[g], get(i))
			s.valid[g] = append(s.valid[g], arg.IsValid(i))
		}
		return nil
	}
	first := s.h.fn == "any_value"
	for i, g := range gids {
		if arg.IsNull(i) || first && len(s.vals[g]) > 0 {
			continue
		}
		s.vals[g] = append(s.vals[g], get(i))
	}
	return nil
}

func (s *collectState[T]) merge(from aggState, src, dst []int32) error {
	f := from.(*collectState[T])
	for i, g := range src {
		d := dst[i]
		if s.h.fn == "any_value" && len(s.vals[d]) > 0 {
			continue
		}
		s.vals[d] = append(s.vals[d], f.vals[g]...)
		f.vals[g] = nil
		if s.h.fn == "list" {
			s.valid[d] = append(s.valid[d], f.valid[g]...)
			f.valid[g] = nil
		}
	}
	return nil
}

// valueGetter reads row i of a as T (see collectState).
func valueGetter[T int64 | float64 | decimal128.Num | string](a arrow.Array) (func(int) T, error) {
	var f any
	switch x := a.(type) {
	case *array.Int64:
		f = x.Value
	case *array.Decimal64:
		f = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Date32:
		f = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Timestamp, *array.Time64:
		v := temporalInts(a)
		f = func(i int) int64 { return v[i] }
	case *array.Boolean:
		f = func(i int) int64 {
			if x.Value(i) {
				return 1
			}
			return 0
		}
	case *array.Float64:
		f = x.Value
	case *array.Decimal128:
		f = x.Value
	case *array.String:
		f = func(i int) string { return strings.Clone(x.Value(i)) }
	}
	g, ok := f.(func(int) T)
	if !ok {
		return nil, errs.New(errs.Internal, "aggregate state of %s", a.DataType())
	}
	return g, nil
}

func (s *collectState[T]) result(mem memory.Allocator, n int) (arrow.Array, error) {
	bld := array.NewBuilder(mem, s.h.out)
	defer bld.Release()
	bld.Reserve(n)
	if lb, ok := bld.(*array.ListBuilder); ok && s.h.qs != nil {
		// A list of quantiles: each one as the single quantile would be.
		one := s.h
		one.qs, one.out = nil, lb.ValueBuilder().Type()
		for g := range n {
			if len(s.vals[g]) == 0 {
				lb.AppendNull()
				continue
			}
			lb.Append(true)
			for _, q := range s.h.qs {
				one.q = q
				if err := appendResult(&one, lb.ValueBuilder(), s.vals[g], s.cmp); err != nil {
					return nil, err
				}
			}
		}
		return bld.NewArray(), nil
	}
	if lb, ok := bld.(*array.ListBuilder); ok {
		// list: each group's values in arrival order; no rows: NULL.
		vb := lb.ValueBuilder()
		for g := range n {
			if len(s.vals[g]) == 0 {
				lb.AppendNull()
				continue
			}
			lb.Append(true)
			for k, v := range s.vals[g] {
				if !s.valid[g][k] {
					vb.AppendNull()
				} else if err := appendValue(vb, v); err != nil {
					return nil, err
				}
			}
		}
		return bld.NewArray(), nil
	}
	for g := range n {
		if err := appendResult(&s.h, bld, s.vals[g], s.cmp); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// appendResult appends the aggregate of vals (one group's or frame's
// values, which it may reorder) to bld: NULL when there are none.
func appendResult[T int64 | float64 | decimal128.Num | string](h *holistic, bld array.Builder, vals []T, cmpf func(a, b T) int) error {
	if h.fn == "entropy" {
		// No values: 0, DuckDB's (a distribution of one value has none).
		bld.(*array.Float64Builder).Append(entropyOf(vals, cmpf))
		return nil
	}
	if len(vals) == 0 {
		bld.AppendNull()
		return nil
	}
	switch h.fn {
	case "any_value":
		return appendValue(bld, vals[0])
	case "string_agg":
		var sb strings.Builder
		for i, v := range vals {
			if i > 0 {
				sb.WriteString(h.sep)
			}
			sb.WriteString(any(v).(string))
		}
		bld.(*array.StringBuilder).Append(sb.String())
		return nil
	case "mode":
		return appendValue(bld, modeOf(vals, cmpf))
	case "quantile_disc":
		slices.SortFunc(vals, cmpf)
		// The first value whose cumulative share reaches q (the SQL
		// standard's PERCENTILE_DISC, DuckDB's quantile_disc).
		k := int(math.Ceil(float64(len(vals))*h.q)) - 1
		return appendValue(bld, vals[max(k, 0)])
	case "mad":
		return appendMAD(h, bld, vals, cmpf)
	}
	// quantile_cont: linear interpolation between the values at the
	// floor and ceiling of (n-1)·q.
	slices.SortFunc(vals, cmpf)
	rn := float64(len(vals)-1) * h.q
	lo, hi := int(math.Floor(rn)), int(math.Ceil(rn))
	d := rn - float64(lo)
	switch v := any(vals).(type) {
	case []int64:
		if h.out.ID() == arrow.DECIMAL64 {
			r := v[lo]
			if hi != lo {
				r = decimalLerp(big.NewInt(v[lo]), big.NewInt(v[hi]), d).Int64()
			}
			return appendValue(bld, r)
		}
		r := float64(v[lo])
		if hi != lo { // in doubles: v[hi]-v[lo] may not fit an int64
			r += (float64(v[hi]) - float64(v[lo])) * d
		}
		bld.(*array.Float64Builder).Append(r)
	case []float64:
		r := v[lo]
		if hi != lo {
			r += (v[hi] - v[lo]) * d
		}
		bld.(*array.Float64Builder).Append(r)
	case []decimal128.Num:
		r := v[lo]
		if hi != lo {
			r = decimal128.FromBigInt(decimalLerp(v[lo].BigInt(), v[hi].BigInt(), d))
		}
		bld.(*array.Decimal128Builder).Append(r)
	default:
		return errs.New(errs.Internal, "quantile_cont of %s", h.in)
	}
	return nil
}

// appendMAD appends the median absolute deviation of vals (not empty):
// the median of |v - median|, in doubles for integers and doubles, in
// the decimal's own type for decimals (DuckDB's types).
func appendMAD[T int64 | float64 | decimal128.Num | string](h *holistic, bld array.Builder, vals []T, cmpf func(a, b T) int) error {
	med := &holistic{fn: "quantile_cont", q: 0.5, in: h.in, out: h.out}
	if h.out.ID() == arrow.FLOAT64 {
		fs := make([]float64, len(vals))
		for i, v := range vals {
			switch x := any(v).(type) {
			case int64:
				fs[i] = float64(x)
			case float64:
				fs[i] = x
			}
		}
		m := medianFloat(fs)
		for i, f := range fs {
			fs[i] = math.Abs(f - m)
		}
		bld.(*array.Float64Builder).Append(medianFloat(fs))
		return nil
	}
	// A decimal: its median at its scale, then the deviations' median.
	mb := array.NewBuilder(memory.DefaultAllocator, h.out)
	defer mb.Release()
	if err := appendResult(med, mb, vals, cmpf); err != nil {
		return err
	}
	ma := mb.NewArray()
	defer ma.Release()
	switch x := ma.(type) {
	case *array.Decimal64:
		m := int64(x.Value(0))
		devs := make([]int64, len(vals))
		for i, v := range vals {
			d, ok := absDiff(any(v).(int64), m)
			if !ok {
				return errs.New(errs.Execution, "mad: decimal overflow")
			}
			devs[i] = d
		}
		return appendResult(med, bld, devs, cmp.Compare[int64])
	case *array.Decimal128:
		m := x.Value(0)
		devs := make([]decimal128.Num, len(vals))
		for i, v := range vals {
			devs[i] = any(v).(decimal128.Num).Sub(m).Abs()
		}
		return appendResult(med, bld, devs, func(a, b decimal128.Num) int { return a.Cmp(b) })
	}
	return errs.New(errs.Internal, "mad of %s", h.in)
}

// medianFloat is the interpolated median of fs (not empty), NaN last; it
// sorts fs.
func medianFloat(fs []float64) float64 {
	slices.SortFunc(fs, expr.CompareFloat)
	lo, hi := (len(fs)-1)/2, len(fs)/2
	if lo == hi {
		return fs[lo]
	}
	return fs[lo] + (fs[hi]-fs[lo])*0.5
}

// absDiff is |a - b|, ok false where it does not fit an int64.
func absDiff(a, b int64) (int64, bool) {
	d := a - b
	if (a >= b) != (d >= 0) {
		return 0, false
	}
	if d < 0 {
		return -d, true
	}
	return d, true
}

// decimalLerp is lo + (hi-lo)·d for unscaled decimals as DuckDB computes
// a DECIMAL(38) quantile: lo·(1-d) + hi·d in doubles, truncated toward
// zero (equal values exactly).
func decimalLerp(lo, hi *big.Int, d float64) *big.Int {
	if lo.Cmp(hi) == 0 {
		return lo
	}
	l, _ := new(big.Float).SetInt(lo).Float64()
	h, _ := new(big.Float).SetInt(hi).Float64()
	r, _ := big.NewFloat(l*(1-d) + h*d).Int(nil)
	return r
}

// entropyOf is the Shannon entropy, in bits, of the distribution of vals'
// distinct values: -Σ p·log2(p) over each value's share p. It sorts vals.
func entropyOf[T int64 | float64 | decimal128.Num | string](vals []T, cmpf func(a, b T) int) float64 {
	slices.SortFunc(vals, cmpf)
	n := float64(len(vals))
	e := 0.0
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && cmpf(vals[i], vals[j]) == 0 {
			j++
		}
		p := float64(j-i) / n
		e -= p * math.Log2(p)
		i = j
	}
	return e
}

// modeOf is the most frequent of vals; among equally frequent ones the
// one that came first (DuckDB's rule). It reorders vals.
func modeOf[T int64 | float64 | decimal128.Num | string](vals []T, cmpf func(a, b T) int) T {
	pos := make([]int32, len(vals))
	for i := range pos {
		pos[i] = int32(i)
	}
	// Sort positions by value, then position: each run of equal values
	// starts at its first occurrence.
	slices.SortFunc(pos, func(a, b int32) int {
		if c := cmpf(vals[a], vals[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	best, bestN := pos[0], 0
	for i := 0; i < len(pos); {
		j := i + 1
		for j < len(pos) && cmpf(vals[pos[i]], vals[pos[j]]) == 0 {
			j++
		}
		if n := j - i; n > bestN || n == bestN && pos[i] < best {
			best, bestN = pos[i], n
		}
		i = j
	}
	return vals[best]
}

// appendValue appends v, a value as collectState keeps it, to bld.
func appendValue[T int64 | float64 | decimal128.Num | string](bld array.Builder, v T) error {
	switch b := bld.(type) {
	case *array.Int64Builder:
		b.Append(any(v).(int64))
	case *array.Decimal64Builder:
		b.Append(decimal.Decimal64(any(v).(int64)))
	case *array.Date32Builder:
		b.Append(arrow.Date32(any(v).(int64)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(any(v).(int64)))
	case *array.Time64Builder:
		b.Append(arrow.Time64(any(v).(int64)))
	case *array.BooleanBuilder:
		b.Append(any(v).(int64) != 0)
	case *array.Float64Builder:
		b.Append(any(v).(float64))
	case *array.Decimal128Builder:
		b.Append(any(v).(decimal128.Num))
	case *array.StringBuilder:
		b.Append(any(v).(string))
	default:
		return errs.New(errs.Internal, "aggregate result of %s", bld.Type())
	}
	return nil
}
