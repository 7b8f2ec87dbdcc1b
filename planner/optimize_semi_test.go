package planner

import (
	"testing"

	"gq/expr"
)

// tSemiOverRegion is big ⋈ mid (on bm = mk) semi-joined with sub on
// mk = sk: the semi join's left key comes from mid only.
func tSemiOverRegion(t *testing.T, midRows, subRows int64, bigFilter bool) (Plan, *Scan) {
	big := tScan("big", 6_000_000, "bk", "bm")
	mid := tScan("mid", midRows, "mk", "mv")
	sub := tScan("sub", subRows, "sk")
	if bigFilter {
		big.Filter = tEq(tCol(t, big, "bk"), tI64(1)) // very selective
	}
	inner := &Join{Type: JoinInner, Left: big, Right: mid, Cond: tEq(tCol(t, big, "bm"), tCol(t, mid, "mk"))}
	return &Join{Type: JoinSemi, Left: inner, Right: sub, Cond: tEq(tCol(t, mid, "mk"), tCol(t, sub, "sk"))}, mid
}

func TestSemiJoinPushedIntoRegion(t *testing.T) {
	p, mid := tSemiOverRegion(t, 1_500_000, 100, false)
	out, err := OrderJoins(p)
	if err != nil {
		t.Fatal(err)
	}
	// The semi join now filters mid before the inner join.
	var semi *Join
	for _, j := range tJoins(out) {
		if j.Type == JoinSemi {
			semi = j
		}
	}
	if semi == nil || semi.Left != Plan(mid) {
		t.Fatalf("semi join not pushed onto mid:\n%s", Format(out))
	}
	if top, ok := out.(*Join); ok && top.Type == JoinSemi {
		t.Errorf("semi join still on top:\n%s", Format(out))
	}
	if got, want := len(out.Columns()), 4; got != want {
		t.Errorf("%d columns, want %d", got, want)
	}
}

func TestSemiJoinStaysAboveSelectiveRegion(t *testing.T) {
	// big's filter keeps few rows: the region's result is smaller than
	// mid, so probing it is cheaper than probing mid, and the semi join
	// (1M keys for 1.5M rows) would not shrink mid much.
	p, _ := tSemiOverRegion(t, 1_500_000, 1_000_000, true)
	out, _ := OrderJoins(p)
	top, ok := out.(*Join)
	if !ok || top.Type != JoinSemi {
		t.Fatalf("semi join moved below a selective region:\n%s", Format(out))
	}
	// A very selective semi join (100 keys) goes down all the same.
	p, _ = tSemiOverRegion(t, 1_500_000, 100, true)
	out, _ = OrderJoins(p)
	if top, ok := out.(*Join); ok && top.Type == JoinSemi {
		t.Errorf("selective semi join kept on top:\n%s", Format(out))
	}
}

func TestSemiJoinBuildSide(t *testing.T) {
	for _, tc := range []struct {
		left, right int64
		typ         JoinType
		nullAware   bool
		want        bool
	}{
		{1000, 1_000_000, JoinSemi, false, true},
		{1000, 1_000_000, JoinAnti, false, true},
		{1000, 1_000_000, JoinAnti, true, false}, // NOT IN builds right
		{1000, 1_000_000, JoinLeft, false, true},
		{1000, 1_000_000, JoinSingle, false, false},
		{1000, 2000, JoinSemi, false, false}, // within the margin
		{1_000_000, 1000, JoinSemi, false, false},
	} {
		l, r := tScan("l", tc.left, "lk"), tScan("r", tc.right, "rk")
		j := &Join{Type: tc.typ, Left: l, Right: r, Cond: tEq(tCol(t, l, "lk"), tCol(t, r, "rk")), NullAware: tc.nullAware}
		out, _ := OrderJoins(j)
		if got := out.(*Join).BuildLeft; got != tc.want {
			t.Errorf("%+v: BuildLeft %v", tc, got)
		}
	}
}

// tAggJoin is small ⋈single (sk = g) γ[g=fk; sum(v)](fact).
func tAggJoin(t *testing.T, smallRows int64) (Plan, *Scan) {
	small := tScan("small", smallRows, "sk")
	small.Filter = tEq(tCol(t, small, "sk"), tI64(3))
	fact := tScan("fact", 6_000_000, "fk", "v")
	g := Column{ID: NewColumnID(), Name: "g", Type: expr.Int64}
	s := Column{ID: NewColumnID(), Name: "s", Type: expr.Int64}
	agg := &Aggregate{Input: fact, GroupBy: []Expr{tCol(t, fact, "fk")}, GroupCols: []Column{g},
		Aggs: []AggCall{{Fn: "sum", Arg: tCol(t, fact, "v"), Type: expr.Int64}}, AggCols: []Column{s}}
	gref := &ColRef{ID: g.ID, Name: "g", T: expr.Int64}
	return &Join{Type: JoinSingle, Left: small, Right: agg, Cond: tEq(tCol(t, small, "sk"), gref)}, small
}

func TestReduceAggregateInputs(t *testing.T) {
	p, small := tAggJoin(t, 200_000)
	out, err := ReduceAggregateInputs(p)
	if err != nil {
		t.Fatal(err)
	}
	agg, ok := out.(*Join).Right.(*Aggregate)
	if !ok {
		t.Fatalf("right side is no longer the aggregate:\n%s", Format(out))
	}
	semi, ok := agg.Input.(*Join)
	if !ok || semi.Type != JoinSemi || semi.Right != Plan(small) {
		t.Fatalf("aggregate input not semi-joined with the left input:\n%s", Format(out))
	}
	if tScanOf(semi.Left, "fact") == nil {
		t.Errorf("semi join does not read fact:\n%s", Format(out))
	}
}

func TestReduceAggregateInputsNeedsSmallLeft(t *testing.T) {
	// Without the filter's selectivity the left side is as large as the
	// aggregate's groups: no reduction.
	p, small := tAggJoin(t, 200_000_000)
	small.Filter = nil
	out, _ := ReduceAggregateInputs(p)
	if _, ok := out.(*Join).Right.(*Aggregate).Input.(*Scan); !ok {
		t.Errorf("reduced with a large left side:\n%s", Format(out))
	}
}
