package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// minMaxState: min/max of any value type. Integer-like values (Int64,
// Decimal64, Date32, Boolean as 0/1) live in ints, Float64 in floats,
// Decimal128 in wides, strings in strs; has[g] is false while group g has
// seen no value.
type minMaxState struct {
	isMax  bool
	typ    arrow.DataType
	has    []bool
	ints   []int64
	floats []float64
	wides  []decimal128.Num
	strs   []string
}

func (s *minMaxState) resize(n int) {
	s.has = growZero(s.has, n)
	switch s.typ.ID() {
	case arrow.FLOAT64:
		s.floats = growZero(s.floats, n)
	case arrow.STRING:
		s.strs = growZero(s.strs, n)
	case arrow.DECIMAL128:
		s.wides = growZero(s.wides, n)
	default:
		s.ints = growZero(s.ints, n)
	}
}

// better reports whether v should replace the current extreme cur.
func better[T int64 | string](isMax bool, v, cur T) bool {
	if isMax {
		return v > cur
	}
	return v < cur
}

func minMaxUpdate[T int64 | string](isMax bool, has []bool, cur []T, gids []int32, val func(int) T, valid func(int) bool) {
	for i, g := range gids {
		if valid != nil && !valid(i) {
			continue
		}
		v := val(i)
		if !has[g] || better(isMax, v, cur[g]) {
			cur[g] = v
			has[g] = true
		}
	}
}

func (s *minMaxState) update(gids []int32, arg arrow.Array) error {
	var valid func(int) bool
	if arg.NullN() > 0 {
		valid = arg.IsValid
	}
	switch a := arg.(type) {
	case *array.Int64:
		minMaxTyped(s.isMax, s.has, s.ints, gids, a.Int64Values(), valid)
	case *array.Decimal64:
		minMaxTyped(s.isMax, s.has, s.ints, gids, asInt64s(a.Values()), valid)
	case *array.Timestamp, *array.Time64:
		minMaxTyped(s.isMax, s.has, s.ints, gids, temporalInts(a), valid)
	case *array.Float64:
		minMaxFloat(s.isMax, s.has, s.floats, gids, a.Float64Values(), valid)
	case *array.Decimal128:
		vals := a.Values()
		for i, g := range gids {
			if valid != nil && !valid(i) {
				continue
			}
			if v := vals[i]; !s.has[g] || betterWide(s.isMax, v, s.wides[g]) {
				s.wides[g] = v
				s.has[g] = true
			}
		}
	case *array.Date32:
		minMaxTyped(s.isMax, s.has, s.ints, gids, a.Date32Values(), valid)
	case *array.Boolean:
		minMaxUpdate(s.isMax, s.has, s.ints, gids, func(i int) int64 {
			if a.Value(i) {
				return 1
			}
			return 0
		}, valid)
	case *array.String:
		// Compare without copying; copy only a value that becomes the extreme.
		for i, g := range gids {
			if valid != nil && !valid(i) {
				continue
			}
			v := a.Value(i)
			if !s.has[g] || better(s.isMax, v, s.strs[g]) {
				s.strs[g] = string([]byte(v))
				s.has[g] = true
			}
		}
	default:
		return errs.New(errs.Internal, "min/max of %s", arg.DataType())
	}
	return nil
}

// betterWide is better for 128-bit decimals.
func betterWide(isMax bool, v, cur decimal128.Num) bool {
	if isMax {
		return cur.Less(v)
	}
	return v.Less(cur)
}

// betterFloat is better for doubles in expr.CompareFloat's order: NaN is
// above every number, so max takes a NaN and min leaves one for any number
// (a NaN replacing a NaN changes nothing).
func betterFloat(isMax bool, v, cur float64) bool {
	if isMax {
		return v > cur || v != v
	}
	return v < cur || cur != cur
}

// minMaxFloat is minMaxTyped for doubles, in betterFloat's order
// (inlined: no call per value).
func minMaxFloat(isMax bool, has []bool, cur []float64, gids []int32, vals []float64, valid func(int) bool) {
	for i, g := range gids {
		if valid != nil && !valid(i) {
			continue
		}
		if v := vals[i]; !has[g] || betterFloat(isMax, v, cur[g]) {
			cur[g] = v
			has[g] = true
		}
	}
}

// minMaxTyped is the hot loop for plain slices (no closure per value);
// values of type V are kept as T (dates as int64).
func minMaxTyped[V ~int32 | ~int64, T int64](isMax bool, has []bool, cur []T, gids []int32, vals []V, valid func(int) bool) {
	for i, g := range gids {
		if valid != nil && !valid(i) {
			continue
		}
		v := T(vals[i])
		if !has[g] || (isMax && v > cur[g]) || (!isMax && v < cur[g]) {
			cur[g] = v
			has[g] = true
		}
	}
}

func (s *minMaxState) merge(from aggState, src, dst []int32) error {
	f := from.(*minMaxState)
	for i, g := range src {
		if !f.has[g] {
			continue
		}
		d := dst[i]
		switch s.typ.ID() {
		case arrow.FLOAT64:
			if !s.has[d] || betterFloat(s.isMax, f.floats[g], s.floats[d]) {
				s.floats[d] = f.floats[g]
			}
		case arrow.STRING:
			if !s.has[d] || better(s.isMax, f.strs[g], s.strs[d]) {
				s.strs[d] = f.strs[g]
			}
		case arrow.DECIMAL128:
			if !s.has[d] || betterWide(s.isMax, f.wides[g], s.wides[d]) {
				s.wides[d] = f.wides[g]
			}
		default:
			if !s.has[d] || better(s.isMax, f.ints[g], s.ints[d]) {
				s.ints[d] = f.ints[g]
			}
		}
		s.has[d] = true
	}
	return nil
}

func (s *minMaxState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	switch s.typ.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		return aggArray(mem, s.typ, s.ints[:n], s.has[:n]), nil
	case arrow.FLOAT64:
		return aggArray(mem, s.typ, s.floats[:n], s.has[:n]), nil
	}
	bld := array.NewBuilder(mem, s.typ)
	defer bld.Release()
	bld.Reserve(n)
	for g := range n {
		if !s.has[g] {
			bld.AppendNull()
			continue
		}
		switch b := bld.(type) {
		case *array.Date32Builder:
			b.Append(arrow.Date32(s.ints[g]))
		case *array.BooleanBuilder:
			b.Append(s.ints[g] == 1)
		case *array.StringBuilder:
			b.Append(s.strs[g])
		case *array.Decimal128Builder:
			b.Append(s.wides[g])
		}
	}
	return bld.NewArray(), nil
}
