package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TakeNested moves rows of nested columns whose leaves arrow-go's take
// has no kernel for (decimal64, month_day_nano intervals): a sort, join
// or window over a list of DECIMAL(≤18) failed with an internal error.
func TestTakeNestedDecimal64AndInterval(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d64 := &arrow.Decimal64Type{Precision: 10, Scale: 2}
	sb := array.NewStructBuilder(mem, arrow.StructOf(
		arrow.Field{Name: "d", Type: d64, Nullable: true},
		arrow.Field{Name: "l", Type: arrow.ListOf(d64), Nullable: true},
		arrow.Field{Name: "i", Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Nullable: true},
		arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, d64), Nullable: true}))
	defer sb.Release()
	for r := range 3 {
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Decimal64Builder).Append(decimal.Decimal64(1234 + r))
		lb := sb.FieldBuilder(1).(*array.ListBuilder)
		lb.Append(true)
		for k := range r + 1 {
			lb.ValueBuilder().(*array.Decimal64Builder).Append(decimal.Decimal64(100*r + k))
		}
		lb.ValueBuilder().AppendNull()
		sb.FieldBuilder(2).(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Months: int32(r), Days: -1, Nanoseconds: 5})
		mb := sb.FieldBuilder(3).(*array.MapBuilder)
		mb.Append(true)
		mb.KeyBuilder().(*array.StringBuilder).Append("k")
		mb.ItemBuilder().(*array.Decimal64Builder).Append(decimal.Decimal64(-r))
	}
	sb.AppendNull()
	arr := sb.NewArray()
	defer arr.Release()
	idx := []int32{2, -1, 0, 3, 1}
	out := TakeNested(mem, arr, idx)
	defer out.Release()
	if !arrow.TypeEqual(out.DataType(), arr.DataType()) {
		t.Fatalf("type %s, want %s", out.DataType(), arr.DataType())
	}
	for i, j := range idx {
		want := "(null)"
		if j >= 0 {
			want = arr.ValueStr(int(j))
		}
		if got := out.ValueStr(i); got != want {
			t.Errorf("row %d: %s, want row %d's %s", i, got, j, want)
		}
	}
}
