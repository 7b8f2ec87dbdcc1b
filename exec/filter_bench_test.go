package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// filterBenchBatch is a 1M-row batch of (k Int64 0..999, price
// Decimal(15,2), comment String), the shape of a filter over a scan.
func filterBenchBatch() arrow.RecordBatch {
	const rows = 1 << 20
	mem := memory.NewGoAllocator()
	dec := &arrow.Decimal64Type{Precision: 15, Scale: 2}
	kb := array.NewInt64Builder(mem)
	pb := array.NewDecimal64Builder(mem, dec)
	cb := array.NewStringBuilder(mem)
	for i := 0; i < rows; i++ {
		kb.Append(int64(i * 7919 % 1000))
		pb.Append(decimal.Decimal64(int64(i%100000) + 100))
		cb.Append(fmt.Sprintf("comment %d", i%5000))
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "price", Type: dec}, {Name: "c", Type: expr.String}}, nil)
	cols := []arrow.Array{kb.NewArray(), pb.NewArray(), cb.NewArray()}
	b := array.NewRecordBatch(schema, cols, rows)
	releaseArrays(cols)
	return b
}

// benchFilter runs k < limit (selectivity limit/1000) through applyFilter:
// the predicate's selection vector, then the gather of the survivors.
func benchFilter(b *testing.B, limit int64) {
	batch := filterBenchBatch()
	defer batch.Release()
	pred, err := compileExpr(&expr.Call{Fn: "lt", Type: expr.Boolean, Args: []expr.Expr{
		&expr.Column{Index: 0, Type: expr.Int64}, &expr.Literal{Value: limit, Type: expr.Int64}}})
	if err != nil {
		b.Fatal(err)
	}
	c := NewContext(context.Background(), Options{Threads: 1})
	var sel []int32
	b.ResetTimer()
	for range b.N {
		batch.Retain()
		var out arrow.RecordBatch
		out, sel, err = applyFilter(c, pred, batch, sel)
		if err != nil {
			b.Fatal(err)
		}
		if out != nil {
			out.Release()
		}
	}
	b.ReportMetric(float64(batch.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkFilter2Percent(b *testing.B)  { benchFilter(b, 20) }
func BenchmarkFilter50Percent(b *testing.B) { benchFilter(b, 500) }
func BenchmarkFilter98Percent(b *testing.B) { benchFilter(b, 980) }
