package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestTakeArrayAllTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{10, 20, 30}, []bool{true, false, true})
	ints := ib.NewArray()
	defer ints.Release()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "", "ccc"}, []bool{true, true, false})
	strs := sb.NewArray()
	defer strs.Release()
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true}, nil)
	bools := bb.NewArray()
	defer bools.Release()
	db := array.NewDecimal64Builder(mem, &arrow.Decimal64Type{Precision: 15, Scale: 2})
	db.Append(123)
	db.Append(-5)
	db.AppendNull()
	decs := db.NewArray()
	defer decs.Release()

	idx := []int32{2, -1, 0, 1, 0}
	cases := []struct {
		arr  arrow.Array
		want string
	}{
		{ints, "[30 (null) 10 (null) 10]"},
		{strs, `[(null) (null) "a" "" "a"]`},
		{bools, "[true (null) true false true]"},
		{decs, "[(null) (null) 1.23 -0.05 1.23]"},
	}
	for _, c := range cases {
		got := TakeArray(mem, c.arr, idx)
		if got.String() != c.want {
			t.Errorf("%s: got %s want %s", c.arr.DataType(), got, c.want)
		}
		got.Release()
	}
	// No nulls at all: no validity bitmap is produced.
	got := TakeArray(mem, bools, []int32{0, 2})
	if got.NullN() != 0 || got.Data().Buffers()[0] != nil {
		t.Errorf("expected no validity bitmap")
	}
	got.Release()
}
