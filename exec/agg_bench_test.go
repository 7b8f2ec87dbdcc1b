package exec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// BenchmarkAggSum sums 4M int64 rows per group (1, 4 and 1,000 groups:
// the register, lane and general paths) into BIGINT (narrow: the int64
// adder as it always was), into DECIMAL(38) (wide: the same adder, hi
// words only on overflow), averages them, and sums DECIMAL(38) values
// (dec128: the 128-bit adder).
func BenchmarkAggSum(b *testing.B) {
	const rows = 4_000_000
	for _, groups := range []int{1, 4, 1000} {
		ints := hashBenchBatches(rows, groups, 1)
		schema := ints[0].Schema()
		for _, c := range []struct {
			name    string
			fn      string
			in, out arrow.DataType
		}{
			{"narrow", "sum", expr.Int64, expr.Int64},
			{"narrowavg", "avg", expr.Int64, expr.Decimal(18, 4)},
			{"wide", "sum", expr.Int64, &arrow.Decimal128Type{Precision: 38}},
			{"dec128", "sum", &arrow.Decimal128Type{Precision: 38}, &arrow.Decimal128Type{Precision: 38}},
		} {
			b.Run(fmt.Sprintf("%s/groups%d", c.name, groups), func(b *testing.B) {
				src := &testSource{schema: schema, batches: ints}
				if c.in.ID() == arrow.DECIMAL128 {
					src = wideBenchSource(ints, c.in)
				}
				var keys []expr.Expr
				var fields []arrow.Field
				if groups > 1 {
					keys = []expr.Expr{col(0, expr.Int64)}
					fields = append(fields, arrow.Field{Name: "k", Type: expr.Int64})
				}
				fields = append(fields, arrow.Field{Name: "s", Type: c.out, Nullable: true})
				node := &HashAggregate{Input: src, GroupBy: keys,
					Aggs: []AggFunc{{Fn: c.fn, Arg: col(1, c.in), Type: c.out}}, Out: arrow.NewSchema(fields, nil)}
				runBench(b, node, rows)
			})
		}
	}
}

// wideBenchSource is ints with its value column as DECIMAL(38) t.
func wideBenchSource(ints []arrow.RecordBatch, t arrow.DataType) *testSource {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "v", Type: t}}, nil)
	src := &testSource{schema: schema}
	for _, ib := range ints {
		vb := array.NewDecimal128Builder(mem, t.(*arrow.Decimal128Type))
		for _, v := range ib.Column(1).(*array.Int64).Int64Values() {
			vb.Append(decimal128.FromI64(v))
		}
		v := vb.NewArray()
		src.batches = append(src.batches, array.NewRecordBatch(schema, []arrow.Array{ib.Column(0), v}, ib.NumRows()))
		v.Release()
	}
	return src
}
