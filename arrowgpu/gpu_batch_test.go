package arrowgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// testBatch builds n rows in the layout of exprs_test.go plus #8 name
// (String with NULLs), deterministic for a seed.
func testBatch(n int, seed uint64) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(seed, 7))
	mem := memory.NewGoAllocator()
	d152 := dec152.(*arrow.Decimal64Type)
	fields := []arrow.Field{
		{Name: "quantity", Type: d152}, {Name: "price", Type: d152}, {Name: "discount", Type: d152}, {Name: "tax", Type: d152},
		{Name: "shipdate", Type: arrow.FixedWidthTypes.Date32}, {Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ratio", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, {Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Decimal64Builder).Append(decimal.Decimal64(100 * (1 + r.Int64N(50))))
		b.Field(1).(*array.Decimal64Builder).Append(decimal.Decimal64(90000 + r.Int64N(10000000)))
		b.Field(2).(*array.Decimal64Builder).Append(decimal.Decimal64(r.Int64N(11)))
		b.Field(3).(*array.Decimal64Builder).Append(decimal.Decimal64(r.Int64N(9)))
		b.Field(4).(*array.Date32Builder).Append(arrow.Date32(8000 + r.IntN(2500)))
		if r.IntN(10) == 0 {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.Int64Builder).Append(r.Int64N(1100) - 100)
		}
		if r.IntN(7) == 0 {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.Float64Builder).Append(r.NormFloat64())
		}
		if r.IntN(5) == 0 {
			b.Field(7).AppendNull()
		} else {
			b.Field(7).(*array.BooleanBuilder).Append(r.IntN(2) == 0)
		}
		if r.IntN(9) == 0 {
			b.Field(8).AppendNull()
		} else {
			s := make([]byte, r.IntN(21))
			for k := range s {
				s[k] = byte('a' + r.IntN(26))
			}
			b.Field(8).(*array.StringBuilder).Append(string(s))
		}
	}
	return b.NewRecordBatch()
}

// sameRow reports whether a[i] and b[j] hold the same value (or both NULL).
func sameRow(a arrow.Array, i int, b arrow.Array, j int) bool {
	if a.IsNull(i) || b.IsNull(j) {
		return a.IsNull(i) && b.IsNull(j)
	}
	switch x := a.(type) {
	case *array.Int64:
		return x.Value(i) == b.(*array.Int64).Value(j)
	case *array.Decimal64:
		return x.Value(i) == b.(*array.Decimal64).Value(j)
	case *array.Decimal128:
		return x.Value(i) == b.(*array.Decimal128).Value(j)
	case *array.Date32:
		return x.Value(i) == b.(*array.Date32).Value(j)
	case *array.Float64:
		u, v := x.Value(i), b.(*array.Float64).Value(j)
		return u == v || math.IsNaN(u) && math.IsNaN(v)
	case *array.Boolean:
		return x.Value(i) == b.(*array.Boolean).Value(j)
	case *array.String:
		return x.Value(i) == b.(*array.String).Value(j)
	}
	panic(fmt.Sprintf("sameRow: %T", a))
}

// wantEqualArrays compares two arrays row by row, reporting the first
// differences with the row number.
func wantEqualArrays(t *testing.T, what string, want, got arrow.Array) {
	t.Helper()
	if want.Len() != got.Len() || !arrow.TypeEqual(want.DataType(), got.DataType()) {
		t.Errorf("%s: got %s[%d], want %s[%d]", what, got.DataType(), got.Len(), want.DataType(), want.Len())
		return
	}
	bad := 0
	for i := 0; i < want.Len(); i++ {
		if !sameRow(want, i, got, i) {
			if bad < 5 {
				t.Errorf("%s row %d: got %s, want %s", what, i, valueString(got, i), valueString(want, i))
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d rows differ", what, bad, want.Len())
	}
	if want.NullN() != got.NullN() {
		t.Errorf("%s: null count %d, want %d", what, got.NullN(), want.NullN())
	}
}

func valueString(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	return a.ValueStr(i)
}

// downloadInt32 reads m int32 from a device buffer.
func downloadInt32(t *testing.T, dv *Device, b Buffer, m int) []int32 {
	t.Helper()
	raw := make([]byte, 4*m)
	if err := dv.copyFromDevice(raw, b.Ptr); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, m)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// download fetches a device column as an Arrow array.
func download(t *testing.T, q *Queue, c *Column) arrow.Array {
	t.Helper()
	a, err := q.Download(c, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	return a
}
