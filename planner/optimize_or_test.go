package planner

import (
	"testing"

	"gq/expr"
)

func TestFactorOr(t *testing.T) {
	x := &ColRef{ID: NewColumnID(), Name: "x", T: expr.Int64}
	y := &ColRef{ID: NewColumnID(), Name: "y", T: expr.Int64}
	or := func(es ...Expr) Expr { return tCall("or", expr.Boolean, es...) }
	tests := []struct {
		name string
		in   Expr
		want []string
	}{
		{"common key", or(tAnd(tEq(x, y), tGt(x, tI64(1))), tAnd(tEq(x, y), tGt(y, tI64(2)))),
			[]string{"eq(x, y)", "or(gt(x, 1), gt(y, 2))"}},
		{"nothing common", or(tGt(x, tI64(1)), tGt(y, tI64(2))), []string{"or(gt(x, 1), gt(y, 2))"}},
		{"branch is the common part", or(tEq(x, y), tAnd(tEq(x, y), tGt(y, tI64(2)))), []string{"eq(x, y)"}},
		{"not an or", tGt(x, tI64(1)), []string{"gt(x, 1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := factorOr(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v", got)
			}
			for i := range got {
				if s := tClean(got[i].String()); s != tc.want[i] {
					t.Errorf("%d: got %s want %s", i, s, tc.want[i])
				}
			}
		})
	}
}

// Q19/Q7 shape: an OR over two tables becomes a join key plus implied
// single-table filters, so no cross product remains.
func TestPushDownOrAcrossJoin(t *testing.T) {
	l := tScan("l", 1000, "lk", "lq")
	p := tScan("p", 100, "pk", "pb")
	br := func(b, q int64) Expr {
		return tAnd(tEq(tCol(t, p, "pk"), tCol(t, l, "lk")), tEq(tCol(t, p, "pb"), tI64(b)), tGt(tCol(t, l, "lq"), tI64(q)))
	}
	f := &Filter{Input: &Join{Type: JoinInner, Left: l, Right: p}, Cond: tCall("or", expr.Boolean, br(1, 10), br(2, 20))}
	got, err := Optimize(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `Join inner on and(eq(pk, lk), or(and(eq(pb, 1), gt(lq, 10)), and(eq(pb, 2), gt(lq, 20))))
├─ Scan l cols=[lk, lq] filter=or(gt(lq, 10), gt(lq, 20))
└─ Scan p cols=[pk, pb] filter=or(eq(pb, 1), eq(pb, 2))
`
	if s := tClean(Format(got)); s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}
}

// Q5 shape: two foreign keys into a small table (c.n = s.n) must not be
// taken for a key join; the class of equated columns bounds them by the
// small table's size.
func TestOrderJoinsKeyClasses(t *testing.T) {
	c := tScan("c", 150000, "ck", "cn")
	s := tScan("s", 10000, "sk", "sn")
	n := tScan("n", 25, "nk")
	e := newEstimator(&Join{Type: JoinInner, Left: c, Right: &Join{Type: JoinInner, Left: s, Right: n}})
	conds := []Expr{tEq(tCol(t, c, "cn"), tCol(t, s, "sn")), tEq(tCol(t, s, "sn"), tCol(t, n, "nk"))}
	if got := e.joinRows(150000, 10000, conds[:1]); got != 1.5e5 {
		t.Errorf("without classes got %v", got)
	}
	e.setClasses(conds)
	if got := e.joinRows(150000, 10000, conds[:1]); got != 6e7 {
		t.Errorf("with classes got %v", got)
	}
}

func TestOrderJoinsPrefersEquiJoins(t *testing.T) {
	a := tScan("a", 25, "ak", "an:s")
	b := tScan("b", 25, "bk", "bn:s")
	big := tScan("big", 100000, "x", "y")
	// a-b only by a non-equality, each to big by a key: hash joins first.
	f := &Filter{Input: &Join{Type: JoinInner, Left: &Join{Type: JoinInner, Left: a, Right: b}, Right: big},
		Cond: tAnd(tCall("ne", expr.Boolean, tCol(t, a, "an"), tCol(t, b, "bn")),
			tEq(tCol(t, big, "x"), tCol(t, a, "ak")), tEq(tCol(t, big, "y"), tCol(t, b, "bk")))}
	got, _ := Optimize(f)
	for _, j := range tJoins(got) {
		if !hasEquality(splitConjuncts(j.Cond), idSet(j.Left.Columns()), idSet(j.Right.Columns())) {
			t.Errorf("join without equality:\n%s", tClean(Format(got)))
		}
	}
}

func TestFoldConstantsInPlan(t *testing.T) {
	a := tScan("a", 10, "a1")
	f := &Filter{Input: a, Cond: tGt(tCol(t, a, "a1"), tCall("add", expr.Int64, tI64(2), tI64(3)))}
	p, err := Optimize(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := tClean(Format(p)); got != "Scan a cols=[a1] filter=gt(a1, 5)\n" {
		t.Errorf("got %s", got)
	}
}
