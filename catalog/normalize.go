package catalog

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// normalizeType maps a file's Arrow type to the gq value type it is read as,
// or an Unsupported error naming the column (where names the file).
func normalizeType(where string, f arrow.Field) (arrow.DataType, error) {
	if t, ok := normalizeTimeType(f.Type); ok {
		return t, nil
	}
	if t, ok := fixedBinaryType(f.Type); ok {
		return t, nil
	}
	switch t := f.Type.(type) {
	case *arrow.BooleanType:
		return expr.Boolean, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return expr.Int64, nil
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		return expr.Float64, nil
	case *arrow.Date32Type, *arrow.Date64Type:
		return expr.Date, nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType,
		*arrow.BinaryType, *arrow.LargeBinaryType:
		return expr.String, nil
	case *arrow.DictionaryType:
		switch t.ValueType.(type) {
		case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType:
			return expr.String, nil
		}
	case arrow.DecimalType:
		if t.GetPrecision() > expr.MaxWidePrecision || t.GetScale() < 0 {
			return nil, errs.New(errs.Unsupported, "%s: column %s has type %s: decimals wider than %d digits are not supported",
				where, f.Name, f.Type, expr.MaxWidePrecision)
		}
		return expr.Decimal(t.GetPrecision(), t.GetScale()), nil
	}
	return nil, errs.New(errs.Unsupported, "%s: column %s has unsupported type %s", where, f.Name, f.Type)
}

// normalizeSchema maps every field of s with normalizeType.
func normalizeSchema(where string, s *arrow.Schema) (*arrow.Schema, error) {
	fields := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		t, err := normalizeType(where, f)
		if err != nil {
			return nil, err
		}
		fields[i] = arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable}
	}
	return arrow.NewSchema(fields, nil), nil
}

// normalizeArray converts arr to the gq type want (from normalizeType). The
// result is a new reference; arr is not released. Conversions are typed loops
// over the value buffers; validity bitmaps are shared, not copied.
func normalizeArray(arr arrow.Array, want arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	if arrow.TypeEqual(arr.DataType(), want) {
		arr.Retain()
		return arr, nil
	}
	if out, handled, err := normalizeTimeArray(arr, want, mem); handled {
		return out, err
	}
	if out, handled := fixedBinaryStrings(arr, mem); handled {
		return out, nil
	}
	switch a := arr.(type) {
	case *array.Int8:
		return intsToInt64(a, a.Int8Values(), mem), nil
	case *array.Int16:
		return intsToInt64(a, a.Int16Values(), mem), nil
	case *array.Int32:
		return intsToInt64(a, a.Int32Values(), mem), nil
	case *array.Uint8:
		return intsToInt64(a, a.Uint8Values(), mem), nil
	case *array.Uint16:
		return intsToInt64(a, a.Uint16Values(), mem), nil
	case *array.Uint32:
		return intsToInt64(a, a.Uint32Values(), mem), nil
	case *array.Uint64:
		vals := a.Uint64Values()
		for i, v := range vals {
			if v > math.MaxInt64 && a.IsValid(i) {
				return nil, errs.New(errs.Execution, "value %d of an unsigned 64-bit column does not fit in BIGINT", v)
			}
		}
		return intsToInt64(a, vals, mem), nil
	case *array.Float32:
		return floatsToFloat64(a, a.Float32Values(), mem), nil
	case *array.Float16:
		out := make([]float64, a.Len())
		for i, v := range a.Values() {
			out[i] = float64(v.Float32())
		}
		return withValues(a, expr.Float64, arrow.Float64Traits.CastToBytes(out), mem), nil
	case *array.Date64:
		out := make([]int32, a.Len())
		for i, v := range a.Date64Values() {
			out[i] = int32(v / 86400000)
			if v < 0 && v%86400000 != 0 { // floor towards earlier day
				out[i]--
			}
		}
		return withValues(a, expr.Date, arrow.Int32Traits.CastToBytes(out), mem), nil
	case *array.Decimal128:
		if want.ID() == arrow.DECIMAL128 { // the same values, another precision
			return withValues(a, want, arrow.Decimal128Traits.CastToBytes(a.Values()), mem), nil
		}
		vals := a.Values()
		out := make([]int64, len(vals))
		for i, v := range vals {
			out[i] = int64(v.LowBits()) // precision <= 18 fits the low word
		}
		return withValues(a, want, arrow.Int64Traits.CastToBytes(out), mem), nil
	case *array.Decimal256:
		vals := a.Values()
		if want.ID() == arrow.DECIMAL128 { // precision <= 38 fits the low two words
			out := make([]decimal128.Num, len(vals))
			for i, v := range vals {
				w := v.Array()
				out[i] = decimal128.New(int64(w[1]), w[0])
			}
			return withValues(a, want, arrow.Decimal128Traits.CastToBytes(out), mem), nil
		}
		out := make([]int64, len(vals))
		for i, v := range vals {
			out[i] = int64(v.Array()[0])
		}
		return withValues(a, want, arrow.Int64Traits.CastToBytes(out), mem), nil
	case *array.Decimal32:
		out := make([]int64, a.Len())
		for i, v := range a.Values() {
			out[i] = int64(v)
		}
		return withValues(a, want, arrow.Int64Traits.CastToBytes(out), mem), nil
	case *array.Binary:
		// Same layout as a string: reinterpret the buffers.
		d := array.NewData(expr.String, a.Len(), a.Data().Buffers(), nil, a.NullN(), a.Data().Offset())
		defer d.Release()
		return array.MakeFromData(d), nil
	default:
		// Rare string layouts (large, view, dictionary): copy value by value.
		if arrow.TypeEqual(want, expr.String) {
			return copyStrings(arr, mem), nil
		}
	}
	return nil, errs.New(errs.Internal, "no conversion from %s to %s", arr.DataType(), want)
}

// copyStrings builds a String array from any string-like array.
func copyStrings(arr arrow.Array, mem memory.Allocator) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(arr.Len())
	var get func(i int) string
	switch a := arr.(type) {
	case *array.LargeString:
		get = a.Value
	case *array.StringView:
		get = a.Value
	case *array.LargeBinary:
		get = func(i int) string { return string(a.Value(i)) }
	case *array.Dictionary:
		dict := a.Dictionary()
		switch d := dict.(type) {
		case *array.String:
			get = func(i int) string { return d.Value(a.GetValueIndex(i)) }
		case *array.LargeString:
			get = func(i int) string { return d.Value(a.GetValueIndex(i)) }
		case *array.Binary:
			get = func(i int) string { return string(d.Value(a.GetValueIndex(i))) }
		}
	}
	if get == nil {
		get = arr.ValueStr
	}
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(get(i))
		}
	}
	return b.NewArray()
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func intsToInt64[T integer](a arrow.Array, vals []T, mem memory.Allocator) arrow.Array {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return withValues(a, expr.Int64, arrow.Int64Traits.CastToBytes(out), mem)
}

func floatsToFloat64(a arrow.Array, vals []float32, mem memory.Allocator) arrow.Array {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = float64(v)
	}
	return withValues(a, expr.Float64, arrow.Float64Traits.CastToBytes(out), mem)
}

// withValues makes an array of type t with a's validity (shared) and the
// given value bytes, which cover exactly a's logical range (offset 0).
func withValues(a arrow.Array, t arrow.DataType, values []byte, _ memory.Allocator) arrow.Array {
	var validity *memory.Buffer
	nulls := a.NullN()
	if nulls > 0 {
		validity = sliceBitmap(a)
	}
	d := array.NewData(t, a.Len(), []*memory.Buffer{validity, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer d.Release()
	if validity != nil {
		validity.Release()
	}
	return array.MakeFromData(d)
}

// sliceBitmap returns a's validity bitmap starting at bit 0 of a's range:
// the original buffer when a has no offset, else a shifted copy.
func sliceBitmap(a arrow.Array) *memory.Buffer {
	buf := a.Data().Buffers()[0]
	off := a.Data().Offset()
	if off == 0 {
		buf.Retain()
		return buf
	}
	n := a.Len()
	out := make([]byte, (n+7)/8)
	for i := 0; i < n; i++ {
		if a.IsValid(i) {
			out[i>>3] |= 1 << (i & 7)
		}
	}
	return memory.NewBufferBytes(out)
}
