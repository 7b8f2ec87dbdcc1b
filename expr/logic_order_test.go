package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// AND puts cheap, infallible conjuncts first (by cost) and keeps the
// others, in order, after them.
func TestOrderConjuncts(t *testing.T) {
	like := call("like", Boolean, col(3, String), lit("%green%", String))
	in := call("in", Boolean, col(4, String), lit("MAIL", String), lit("SHIP", String))
	date := call("le", Boolean, col(2, Date), lit(int32(10471), Date))
	colCol := call("lt", Boolean, col(1, dec152), col(0, dec152))
	div := call("gt", Boolean, call("div", Decimal(18, 6), col(0, dec152), col(1, dec152)), lit(int64(1), Decimal(18, 6)))
	e := call("and", Boolean, like, div, in, colCol, date)
	ev, err := Compile(e)
	if err != nil {
		t.Fatal(err)
	}
	args := ev.root.(*logicNode).args
	want := []int{1, 2, 4, 6, -1} // date, col<col, IN, LIKE, then the division
	for i, a := range args {
		if c := conjunctCost(a); c != want[i] {
			t.Fatalf("conjunct %d has cost %d, want %d (order %v)", i, c, want[i], args)
		}
	}
	// The same rows either way.
	mem := memory.NewGoAllocator()
	var price, disc, days, comment, mode []any
	words := []string{"green", "red", "blue"}
	modes := []string{"MAIL", "SHIP", "AIR"}
	for i := range 3000 {
		price = append(price, 100+i*37%1000)
		disc = append(disc, 1+i%9)
		days = append(days, 10300+i%300)
		comment = append(comment, words[i%3]+" "+words[i/3%3])
		mode = append(mode, modes[i/9%3])
	}
	b := mkBatch(mem, mkArr(mem, dec152, price...), mkArr(mem, dec152, disc...), mkArr(mem, Date, days...),
		mkArr(mem, String, comment...), mkArr(mem, String, mode...))
	defer b.Release()
	sel, err := ev.EvalFilter(mem, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := &logicNode{args: []node{mustCompile(t, like), mustCompile(t, div), mustCompile(t, in), mustCompile(t, colCol), mustCompile(t, date)}}
	want2, err := filterRows(&ctx{mem: mem, n: int(b.NumRows())}, b, plain, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sel) != len(want2) || len(sel) == 0 {
		t.Fatalf("reordered AND keeps %d rows, in query order %d", len(sel), len(want2))
	}
	for i := range sel {
		if sel[i] != want2[i] {
			t.Fatalf("row %d: %d vs %d", i, sel[i], want2[i])
		}
	}
}

func mustCompile(t *testing.T, e Expr) node {
	n, err := compile(e)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
