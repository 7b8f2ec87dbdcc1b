package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CompileShared's evaluators give what Compile's do, and with one Memo
// they compute a call they share once per batch: the second evaluator gets
// the first one's array of it.
func TestCompileShared(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	price, disc, tax := col(0, dec152), col(1, dec152), col(2, dec152)
	one := lit(int64(100), dec152)
	w := Decimal(31, 4)
	disc1 := call("sub", Decimal(16, 2), one, disc)
	discPrice := call("mul", w, price, disc1)
	charge := call("mul", Decimal(38, 6), discPrice, call("add", Decimal(16, 2), one, tax))
	es := []Expr{discPrice, charge, price, call("add", Decimal(16, 2), one, tax)}
	evs, shared, err := CompileShared(es)
	if err != nil {
		t.Fatal(err)
	}
	if !shared {
		t.Fatal("CompileShared found no shared call in q01's sums")
	}
	if _, ok := evs[0].root.(*memoNode); !ok {
		t.Fatalf("the shared product compiled to %T, not a memoNode", evs[0].root)
	}
	if _, shared, _ := CompileShared([]Expr{discPrice, call("add", Decimal(16, 2), one, tax)}); shared {
		t.Error("CompileShared reported a shared call among disjoint expressions")
	}
	for _, in := range [][3][]any{
		{{1050, -1050, nil}, {5, 10, 0}, {8, nil, 1}},   // narrow
		{{999999999999, 200, 3}, {5, 10, 0}, {8, 2, 1}}, // a wide product
	} {
		cols := []arrow.Array{mkArr(mem, dec152, in[0]...), mkArr(mem, dec152, in[1]...), mkArr(mem, dec152, in[2]...)}
		b := mkBatch(mem, cols...)
		var m Memo
		for narrow := range 2 {
			var got []arrow.Array
			for i, e := range es {
				ev, err := Compile(e)
				if err != nil {
					t.Fatal(err)
				}
				want, err1 := ev.Eval(mem, b)
				a, err2 := evs[i].EvalMemo(mem, b, &m)
				if narrow == 1 {
					want.Release()
					want, err1 = ev.EvalNarrow(mem, b)
					a.Release()
					a, err2 = evs[i].EvalNarrowMemo(mem, b, &m)
				}
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if render(a) != render(want) || !arrow.TypeEqual(a.DataType(), want.DataType()) {
					t.Errorf("%s (narrow %d): shared %s %s, alone %s %s", e, narrow, a.DataType(), render(a), want.DataType(), render(want))
				}
				want.Release()
				got = append(got, a)
			}
			// The product inside charge is the memo's array, the one
			// evaluator 0 handed out.
			slot := 2*evs[0].root.(*memoNode).id + narrow
			if len(m.vals) <= slot || m.vals[slot] == nil || m.vals[slot].Data() != got[0].Data() {
				t.Errorf("narrow %d: the shared product is not kept in the Memo", narrow)
			}
			for _, a := range got {
				a.Release()
			}
		}
		m.Reset()
		b.Release()
		for _, c := range cols {
			c.Release()
		}
	}
}
