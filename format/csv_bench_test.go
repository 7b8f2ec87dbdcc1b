package format

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkWriteCSV formats 27,840 rows of TPC-H q16's result shape (two
// strings, two integers) and a decimal and a date, as a query's result
// is before it is shown or sent (tpchbench times it for both engines).
func BenchmarkWriteCSV(b *testing.B) {
	const rows = 27_840
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "p_brand", Type: arrow.BinaryTypes.String},
		{Name: "p_type", Type: arrow.BinaryTypes.String}, {Name: "p_size", Type: arrow.PrimitiveTypes.Int64},
		{Name: "supplier_cnt", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: &arrow.Decimal64Type{Precision: 15, Scale: 2}}, {Name: "d", Type: arrow.FixedWidthTypes.Date32}}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	for i := range rows {
		bld.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("Brand#%d", 11+i%55))
		bld.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("STANDARD POLISHED %d", i%150))
		bld.Field(2).(*array.Int64Builder).Append(int64(i % 50))
		bld.Field(3).(*array.Int64Builder).Append(int64(i % 40))
		bld.Field(4).(*array.Decimal64Builder).Append(decimal.Decimal64(int64(i) * 137))
		bld.Field(5).(*array.Date32Builder).Append(arrow.Date32(8000 + i%2500))
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	b.ResetTimer()
	for range b.N {
		if err := WriteCSV(io.Discard, schema, []arrow.RecordBatch{rec}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
