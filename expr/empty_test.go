package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Zero-row batches go through every kind of node without trouble.
func TestEmptyBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := []arrow.Array{mkArr(mem, Int64), mkArr(mem, dec152), mkArr(mem, String), mkArr(mem, Date), mkArr(mem, Float64)}
	b := mkBatch(mem, cols...)
	for _, c := range cols {
		c.Release()
	}
	defer b.Release()
	B, I, S := Boolean, Int64, String
	exprs := []Expr{
		call("add", I, col(0, I), lit(int64(1), I)),
		call("div", Decimal(18, 6), col(1, dec152), col(1, dec152)),
		call("mul", Float64, col(4, Float64), col(4, Float64)),
		call("like", B, col(2, S), lit("%a%", S)),
		call("in", B, col(2, S), lit("a", S)),
		call("and", B, call("lt", B, col(0, I), lit(int64(1), I)), call("is_null", B, col(2, S))),
		call("or", B, call("lt", B, col(0, I), lit(int64(1), I)), call("not", B, call("is_null", B, col(2, S)))),
		call("case", S, call("eq", B, col(0, I), lit(int64(1), I)), col(2, S), lit("x", S)),
		call("coalesce", I, col(0, I), lit(int64(1), I)),
		call("cast", S, col(1, dec152)),
		call("substring", S, col(2, S), lit(int64(1), I)),
		call("extract_year", I, col(3, Date)),
		call("date_add_months", Date, col(3, Date), lit(int64(1), I)),
		lit(int64(5), I),
		call("round", dec152, col(1, dec152), lit(int64(2), I)),
	}
	for _, e := range exprs {
		ev, err := Compile(e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		a, err := ev.Eval(mem, b)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		if a.Len() != 0 {
			t.Errorf("%s: len %d", e, a.Len())
		}
		a.Release()
		if e.DataType().ID() == arrow.BOOL {
			if sel, err := ev.EvalFilter(mem, b, nil); err != nil || len(sel) != 0 {
				t.Errorf("%s: filter %v %v", e, sel, err)
			}
		}
	}
}
