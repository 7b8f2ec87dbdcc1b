package expr

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const benchRows = 1 << 20

// benchBatch is a lineitem-like batch: price Decimal(15,2), discount
// Decimal(15,2), shipdate Date, comment String, mode String.
func benchBatch() arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	pb := array.NewDecimal64Builder(mem, dec152.(*arrow.Decimal64Type))
	db := array.NewDecimal64Builder(mem, dec152.(*arrow.Decimal64Type))
	sb := array.NewDate32Builder(mem)
	cb := array.NewStringBuilder(mem)
	mb := array.NewStringBuilder(mem)
	words := []string{"furiously", "green", "slyly", "ironic", "deposits", "carefully", "final", "requests"}
	modes := []string{"MAIL", "SHIP", "AIR", "RAIL", "TRUCK", "REG AIR", "FOB"}
	x := uint32(12345)
	next := func() uint32 { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x }
	for i := 0; i < benchRows; i++ {
		pb.Append(decimal.Decimal64(int64(next()%10000000 + 90000)))
		db.Append(decimal.Decimal64(int64(next() % 11)))
		sb.Append(arrow.Date32(8036 + next()%2526))
		cb.Append(fmt.Sprintf("%s %s %s", words[next()%8], words[next()%8], words[next()%8]))
		mb.Append(modes[next()%7])
	}
	cols := []arrow.Array{pb.NewArray(), db.NewArray(), sb.NewArray(), cb.NewArray(), mb.NewArray()}
	return mkBatch(mem, cols...)
}

var benchData arrow.RecordBatch

func getBench(b *testing.B) arrow.RecordBatch {
	if benchData == nil {
		benchData = benchBatch()
	}
	return benchData
}

func runBench(b *testing.B, e Expr, filter bool) {
	batch := getBench(b)
	ev, err := Compile(e)
	if err != nil {
		b.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	sel := make([]int32, 0, benchRows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if filter {
			if sel, err = ev.EvalFilter(mem, batch, sel); err != nil {
				b.Fatal(err)
			}
		} else {
			a, err := ev.Eval(mem, batch)
			if err != nil {
				b.Fatal(err)
			}
			a.Release()
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkDecimalMulSub(b *testing.B) {
	// l_extendedprice * (1 - l_discount)
	e := call("mul", Decimal(18, 4), col(0, dec152), call("sub", dec152, lit(int64(1), Decimal(1, 0)), col(1, dec152)))
	runBench(b, e, false)
}

func BenchmarkDateFilter(b *testing.B) {
	runBench(b, call("le", Boolean, col(2, Date), lit(int32(10471), Date)), true)
}

func BenchmarkDateRangeAndDiscount(b *testing.B) {
	// Q6: shipdate in a year, discount between 0.05 and 0.07
	e := call("and", Boolean,
		call("ge", Boolean, col(2, Date), lit(int32(8766), Date)),
		call("lt", Boolean, col(2, Date), lit(int32(9131), Date)),
		call("ge", Boolean, col(1, dec152), lit(int64(5), dec152)),
		call("le", Boolean, col(1, dec152), lit(int64(7), dec152)))
	runBench(b, e, true)
}

func BenchmarkLikeContains(b *testing.B) {
	runBench(b, call("like", Boolean, col(3, String), lit("%green%", String)), true)
}

func BenchmarkInStrings(b *testing.B) {
	runBench(b, call("in", Boolean, col(4, String), lit("MAIL", String), lit("SHIP", String)), true)
}

// BenchmarkDecimalQ1Charge is Q1's sum_charge argument:
// l_extendedprice * (1 - l_discount) * (1 + l_discount), two decimal
// multiplications (scale 2 → 4 → 6) and two scalar-array subtractions.
func BenchmarkDecimalQ1Charge(b *testing.B) {
	one := lit(int64(1), Decimal(1, 0))
	e := call("mul", Decimal(18, 6),
		call("mul", Decimal(18, 4), col(0, dec152), call("sub", dec152, one, col(1, dec152))),
		call("add", dec152, one, col(1, dec152)))
	runBench(b, e, false)
}

// BenchmarkDecimalWideMul: a DECIMAL(15,2) column times a DECIMAL(18,2)
// value near 10^15, typed DECIMAL(33,4) by DuckDB's rule; every product
// passes int64, so each batch is computed in 128 bits.
func BenchmarkDecimalWideMul(b *testing.B) {
	e := call("mul", Decimal(33, 4), col(0, dec152), lit(int64(99999999999999999), Decimal(18, 2)))
	runBench(b, e, false)
}
