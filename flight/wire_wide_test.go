package flight

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A DECIMAL(38) column (decimal128) goes out as it is, its buffers
// shared, whichever wire decimal the session takes; a decimal64 column
// beside it is widened as before.
func TestWireDecimal128AsIs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	wt := &arrow.Decimal128Type{Precision: 38, Scale: 4}
	schema := arrow.NewSchema([]arrow.Field{{Name: "w", Type: wt, Nullable: true}, {Name: "n", Type: &arrow.Decimal64Type{Precision: 10, Scale: 2}}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	big := decimal128.New(-5421010862427522171, 687399551400673280) // both words in use
	b.Field(0).(*array.Decimal128Builder).AppendValues([]decimal128.Num{big, decimal128.FromI64(3)}, []bool{true, true})
	b.Field(0).AppendNull()
	b.Field(1).(*array.Decimal64Builder).AppendValues([]decimal.Decimal64{1, 2, 3}, nil)
	in := b.NewRecordBatch()
	for _, dec64 := range []bool{false, true} {
		ws := wireSchema(schema, dec64)
		if !arrow.TypeEqual(ws.Field(0).Type, wt) {
			t.Errorf("dec64 %v: DECIMAL(38) sent as %s", dec64, ws.Field(0).Type)
		}
		in.Retain()
		out := wireBatch(in, ws)
		got := out.Column(0).(*array.Decimal128)
		if got.Data().Buffers()[1] != in.Column(0).Data().Buffers()[1] {
			t.Errorf("dec64 %v: DECIMAL(38) column copied", dec64)
		}
		if got.Value(0) != big || got.Value(1) != decimal128.FromI64(3) || got.IsValid(2) {
			t.Errorf("dec64 %v: values %v %v %v", dec64, got.Value(0), got.Value(1), got.IsValid(2))
		}
		out.Release()
	}
	in.Release()
}
