package planner

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

var tIDRE = regexp.MustCompile(`#\d+`)

// clean drops column IDs so expected strings do not depend on them.
func tClean(s string) string { return tIDRE.ReplaceAllString(s, "") }

func tDate(s string) *Const {
	v, _ := foldConstCast(&Const{Value: s, T: expr.String}, expr.Date)
	return &Const{Value: v, T: expr.Date}
}

func TestFoldConstants(t *testing.T) {
	x := &ColRef{ID: NewColumnID(), Name: "x", T: expr.Int64}
	dec2 := expr.Decimal(15, 2)
	tests := []struct {
		name string
		in   Expr
		want string
	}{
		{"int add", tCall("add", expr.Int64, tI64(1), tI64(2)), "3"},
		{"nested", tCall("mul", expr.Int64, tCall("add", expr.Int64, tI64(1), tI64(2)), tI64(4)), "12"},
		{"overflow stays", tCall("add", expr.Int64, tI64(math.MaxInt64), tI64(1)), "add(9223372036854775807, 1)"},
		{"decimal sub", tCall("sub", dec2, &Const{Value: int64(6), T: dec2}, &Const{Value: int64(1), T: dec2}), "0.05"},
		{"decimal mixed scale", tCall("add", expr.Decimal(15, 2), &Const{Value: int64(1), T: expr.Decimal(15, 0)}, &Const{Value: int64(5), T: dec2}), "1.05"},
		{"date + months", tCall("date_add_months", expr.Date, tDate("1994-01-31"), tI64(1)), "DATE '1994-02-28'"},
		{"date + year", tCall("date_add_months", expr.Date, tDate("1994-01-01"), tI64(12)), "DATE '1995-01-01'"},
		{"date - days", tCall("date_add_days", expr.Date, tDate("1998-12-01"), tI64(-90)), "DATE '1998-09-02'"},
		{"cast string to date", tCall("cast", expr.Date, &Const{Value: "1995-03-15", T: expr.String}), "DATE '1995-03-15'"},
		{"bad cast stays", tCall("cast", expr.Date, &Const{Value: "nope", T: expr.String}), "cast('nope' as date32)"},
		{"null propagates", tCall("add", expr.Int64, tI64(1), &Const{Value: nil, T: expr.Int64}), "NULL"},
		{"compare", tCall("lt", expr.Boolean, tI64(1), tI64(2)), "true"},
		{"and drops true", tAnd(&Const{Value: true, T: expr.Boolean}, tGt(x, tI64(1))), "gt(x, 1)"},
		{"and false", tAnd(tGt(x, tI64(1)), &Const{Value: false, T: expr.Boolean}), "false"},
		{"or true", tCall("or", expr.Boolean, tGt(x, tI64(1)), tCall("eq", expr.Boolean, tI64(1), tI64(1))), "true"},
		{"column stays", tCall("add", expr.Int64, x, tCall("add", expr.Int64, tI64(1), tI64(1))), "add(x, 2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mapExprs(tc.in, foldExpr)
			if s := tClean(got.String()); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}

func TestPushDownInnerJoin(t *testing.T) {
	a := tScan("a", 100, "a1", "a2")
	b := tScan("b", 100, "b1", "b2")
	j := &Join{Type: JoinInner, Left: a, Right: b}
	cond := tAnd(tEq(tCol(t, a, "a1"), tCol(t, b, "b1")), tGt(tCol(t, a, "a2"), tI64(5)), tEq(tCol(t, b, "b2"), tI64(7)))
	p, err := PushDownPredicates(&Filter{Input: j, Cond: cond})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := p.(*Join)
	if !ok {
		t.Fatalf("want the join at the top, got\n%s", Format(p))
	}
	if s := tClean(tStr(got.Cond)); s != "eq(a1, b1)" {
		t.Errorf("join cond %s", s)
	}
	if s := tClean(tStr(tScanOf(p, "a").Filter)); s != "gt(a2, 5)" {
		t.Errorf("a filter %s", s)
	}
	if s := tClean(tStr(tScanOf(p, "b").Filter)); s != "eq(b2, 7)" {
		t.Errorf("b filter %s", s)
	}
}

func TestPushDownOuterAndAggregate(t *testing.T) {
	a := tScan("a", 100, "a1", "a2")
	b := tScan("b", 100, "b1", "b2")
	j := &Join{Type: JoinLeft, Left: a, Right: b, Cond: tAnd(tEq(tCol(t, a, "a1"), tCol(t, b, "b1")), tGt(tCol(t, b, "b2"), tI64(0)))}
	// A predicate on the NULL-padded side must stay above the left join;
	// one on the left side goes down; an ON conjunct over the right side
	// goes into the right input.
	f := &Filter{Input: j, Cond: tAnd(tCall("is_null", expr.Boolean, tCol(t, j, "b2")), tGt(tCol(t, j, "a2"), tI64(1)))}
	agg := &Aggregate{Input: f, GroupBy: []Expr{tCol(t, f, "a1")},
		GroupCols: []Column{{ID: NewColumnID(), Name: "g", Type: expr.Int64}},
		Aggs:      []AggCall{{Fn: "count_star", Type: expr.Int64}},
		AggCols:   []Column{{ID: NewColumnID(), Name: "n", Type: expr.Int64}}}
	top := &Filter{Input: agg, Cond: tAnd(tGt(tCol(t, agg, "g"), tI64(3)), tGt(tCol(t, agg, "n"), tI64(10)))}
	p, _ := PushDownPredicates(top)
	want := `Filter gt(n, 10)
└─ Aggregate keys=[a1] aggs=[count_star(*) AS n]
   └─ Filter is_null(b2)
      └─ Join left on eq(a1, b1)
         ├─ Scan a cols=[a1, a2] filter=and(gt(a1, 3), gt(a2, 1))
         └─ Scan b cols=[b1, b2] filter=gt(b2, 0)
`
	if got := tClean(Format(p)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPushDownStopsAtLimitAndGlobalAggregate(t *testing.T) {
	a := tScan("a", 100, "a1")
	l := &Limit{Input: a, Count: 5}
	p, _ := PushDownPredicates(&Filter{Input: l, Cond: tGt(tCol(t, a, "a1"), tI64(1))})
	if _, ok := p.(*Filter); !ok || tScanOf(p, "a").Filter != nil {
		t.Errorf("pushed past limit:\n%s", Format(p))
	}
	agg := &Aggregate{Input: a, Aggs: []AggCall{{Fn: "count_star", Type: expr.Int64}},
		AggCols: []Column{{ID: NewColumnID(), Name: "n", Type: expr.Int64}}}
	p, _ = PushDownPredicates(&Filter{Input: agg, Cond: &Const{Value: false, T: expr.Boolean}})
	if _, ok := p.(*Filter); !ok {
		t.Errorf("pushed below a global aggregate:\n%s", Format(p))
	}
}

func TestPushDownThroughProject(t *testing.T) {
	a := tScan("a", 100, "a1")
	pr := &Project{Input: a, Exprs: []Expr{tCall("add", expr.Int64, tCol(t, a, "a1"), tI64(1))},
		Cols: []Column{{ID: NewColumnID(), Name: "x", Type: expr.Int64}}}
	p, _ := PushDownPredicates(&Filter{Input: pr, Cond: tGt(tCol(t, pr, "x"), tI64(3))})
	if s := tClean(tStr(tScanOf(p, "a").Filter)); s != "gt(add(a1, 1), 3)" {
		t.Errorf("got %s\n%s", s, Format(p))
	}
}

// chain builds the comma join big × small × mid with WHERE big-mid and
// mid-small equalities: the binder's order has a cross product first.
func tChain(t *testing.T) Plan {
	big := tScan("big", 1_000_000, "bk", "bm")
	mid := tScan("mid", 10_000, "mk", "ms")
	small := tScan("small", 10, "sk", "sv")
	j := &Join{Type: JoinInner, Left: &Join{Type: JoinInner, Left: big, Right: small}, Right: mid}
	return &Filter{Input: j, Cond: tAnd(tEq(tCol(t, big, "bm"), tCol(t, mid, "mk")), tEq(tCol(t, mid, "ms"), tCol(t, small, "sk")),
		tEq(tCol(t, small, "sv"), tI64(1)))}
}

func TestOrderJoinsAvoidsCrossProducts(t *testing.T) {
	p, err := Optimize(tChain(t))
	if err != nil {
		t.Fatal(err)
	}
	js := tJoins(p)
	if len(js) != 2 {
		t.Fatalf("want 2 joins:\n%s", Format(p))
	}
	for _, j := range js {
		if j.Cond == nil {
			t.Errorf("cross product left:\n%s", Format(p))
		}
	}
	want := `Join inner on eq(bm, mk)
├─ Scan big cols=[bm]
└─ Join inner on eq(ms, sk)
   ├─ Scan mid cols=[mk, ms]
   └─ Scan small cols=[sk, sv] filter=eq(sv, 1)
`
	// The root keeps every column (nothing above prunes), so compare the join subtree only.
	got := tClean(Format(js[0]))
	want = strings.Replace(want, "cols=[bm]", "cols=[bk, bm]", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Output columns keep the original order (big, small, mid).
	var names []string
	for _, c := range p.Columns() {
		names = append(names, c.Name)
	}
	if s := strings.Join(names, ","); s != "bk,bm,sk,sv,mk,ms" {
		t.Errorf("columns %s", s)
	}
}

func TestOrderJoinsBuildSideIsSmaller(t *testing.T) {
	small := tScan("small", 10, "sk")
	big := tScan("big", 1_000_000, "bk")
	j := &Join{Type: JoinInner, Left: small, Right: big, Cond: tEq(tCol(t, small, "sk"), tCol(t, big, "bk"))}
	p, _ := OrderJoins(j)
	js := tJoins(p)
	if len(js) != 1 || js[0].Left.(*Scan).Table.Name() != "big" {
		t.Errorf("want big on the probe (left) side:\n%s", Format(p))
	}
}

func TestPruneColumns(t *testing.T) {
	a := tScan("a", 100, "a1", "a2", "a3:s")
	pr := &Project{Input: &Filter{Input: a, Cond: tGt(tCol(t, a, "a2"), tI64(0))},
		Exprs: []Expr{tCol(t, a, "a1")}, Cols: []Column{{ID: NewColumnID(), Name: "out", Type: expr.Int64}}}
	p, _ := PruneColumns(pr)
	if got := tClean(Format(p)); !strings.Contains(got, "Scan a cols=[a1, a2]\n") {
		t.Errorf("got\n%s", got)
	}
	// count(*) still reads one (the narrowest) column for the row count.
	agg := &Aggregate{Input: a, Aggs: []AggCall{{Fn: "count_star", Type: expr.Int64}},
		AggCols: []Column{{ID: NewColumnID(), Name: "n", Type: expr.Int64}}}
	p, _ = PruneColumns(agg)
	if s := tScanOf(p, "a"); len(s.Cols) != 1 || s.Cols[0].Name != "a1" {
		t.Errorf("got\n%s", Format(p))
	}
	// Unused aggregates and project outputs go.
	agg2 := &Aggregate{Input: a, GroupBy: []Expr{tCol(t, a, "a1")},
		GroupCols: []Column{{ID: NewColumnID(), Name: "g", Type: expr.Int64}},
		Aggs:      []AggCall{{Fn: "sum", Arg: tCol(t, a, "a2"), Type: expr.Int64}, {Fn: "max", Arg: tCol(t, a, "a3"), Type: expr.String}},
		AggCols:   []Column{{ID: NewColumnID(), Name: "s", Type: expr.Int64}, {ID: NewColumnID(), Name: "m", Type: expr.String}}}
	top := &Project{Input: agg2, Exprs: []Expr{tCol(t, agg2, "s")}, Cols: []Column{{ID: NewColumnID(), Name: "s", Type: expr.Int64}}}
	p, _ = PruneColumns(top)
	want := "Project [s AS s]\n└─ Aggregate keys=[a1] aggs=[sum(a2) AS s]\n   └─ Scan a cols=[a1, a2]\n"
	if got := tClean(Format(p)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSimplify(t *testing.T) {
	a := tScan("a", 100, "a1")
	p, _ := Simplify(&Filter{Input: a, Cond: &Const{Value: true, T: expr.Boolean}})
	if p != Plan(a) {
		t.Errorf("true filter kept: %s", Format(p))
	}
	p, _ = Simplify(&Filter{Input: a, Cond: &Const{Value: nil, T: expr.Boolean}})
	if v, ok := p.(*Values); !ok || len(v.Rows) != 0 || len(v.Cols) != 1 {
		t.Errorf("NULL filter: %s", Format(p))
	}
	same := &Project{Input: a, Exprs: []Expr{tCol(t, a, "a1")}, Cols: a.Cols}
	if p, _ := RemoveIdentityProjects(same); p != Plan(a) {
		t.Errorf("identity project kept")
	}
}

func TestEstimates(t *testing.T) {
	a := tScan("a", 1000, "a1", "a2:s")
	e := newEstimator(a)
	tests := []struct {
		cond Expr
		want float64
	}{
		{nil, 1000},
		{tEq(tCol(t, a, "a1"), tI64(1)), 100},
		{tGt(tCol(t, a, "a1"), tI64(1)), 300},
		{tAnd(tGt(tCol(t, a, "a1"), tI64(1)), tCall("like", expr.Boolean, tCol(t, a, "a2"), &Const{Value: "x%", T: expr.String})), 30},
		{tCall("in", expr.Boolean, tCol(t, a, "a1"), tI64(1), tI64(2)), 200},
	}
	for _, tc := range tests {
		s := *a
		s.Filter = tc.cond
		if got := e.rows(&s); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("%v: got %v want %v", tc.cond, got, tc.want)
		}
	}
	// Key/foreign-key join: |FK side|.
	b := tScan("b", 50, "b1")
	j := &Join{Type: JoinInner, Left: a, Right: b, Cond: tEq(tCol(t, a, "a1"), tCol(t, b, "b1"))}
	if got := newEstimator(j).rows(j); got != 1000 {
		t.Errorf("join rows %v", got)
	}
}

var _ = arrow.Null

// An uncorrelated scalar subquery's single join over an inner join moves
// into the join's right side when a predicate compares the subquery's
// value with that side's columns only (TPC-H q15), and the columns keep
// their order; compared with the left side's, it stays.
func TestPushDownScalarJoinIntoJoinSide(t *testing.T) {
	for _, tc := range []struct {
		col  string
		want string
	}{
		{"b2", `Join inner on eq(a1, b1)
├─ Scan a cols=[a1, a2]
└─ Filter eq(b2, m)
   └─ Join single
      ├─ Scan b cols=[b1, b2]
      └─ Scan r cols=[m]
`},
		{"a2", `Filter eq(a2, m)
└─ Join single
   ├─ Join inner on eq(a1, b1)
   │  ├─ Scan a cols=[a1, a2]
   │  └─ Scan b cols=[b1, b2]
   └─ Scan r cols=[m]
`},
	} {
		a := tScan("a", 100, "a1", "a2")
		b := tScan("b", 100, "b1", "b2")
		r := tScan("r", 1, "m")
		in := &Join{Type: JoinInner, Left: a, Right: b, Cond: tEq(tCol(t, a, "a1"), tCol(t, b, "b1"))}
		s := &Join{Type: JoinSingle, Left: in, Right: r}
		p, _ := PushDownPredicates(&Filter{Input: s, Cond: tEq(tCol(t, s, tc.col), tCol(t, s, "m"))})
		if got := tClean(Format(p)); got != tc.want {
			t.Errorf("comparing with %s: got\n%s\nwant\n%s", tc.col, got, tc.want)
		}
		var names []string
		for _, c := range p.Columns() {
			names = append(names, c.Name)
		}
		if got := strings.Join(names, " "); got != "a1 a2 b1 b2 m" {
			t.Errorf("comparing with %s: columns %s", tc.col, got)
		}
	}
}
