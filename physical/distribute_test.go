package physical

import (
	"strings"
	"testing"

	"gq/exec"
	"gq/expr"
	"gq/planner"
	"gq/shuffle"
)

// joinAgg plans: SELECT a1, count(*) FROM a JOIN b ON a1 = b1 GROUP BY a1
// ORDER BY a1, with b of bRows rows.
func joinAgg(t *testing.T, bRows int64) exec.Node {
	t.Helper()
	a := tScan("a", 1_000_000, "a1", "a2")
	b := tScan("b", bRows, "b1", "b2")
	j := &planner.Join{Type: planner.JoinInner, Left: a, Right: b, Cond: tFn("eq", expr.Boolean, tRef(t, a, "a1"), tRef(t, b, "b1"))}
	agg := &planner.Aggregate{Input: j, GroupBy: []planner.Expr{tRef(t, j, "a1")},
		GroupCols: []planner.Column{{ID: planner.NewColumnID(), Name: "k", Type: expr.Int64}},
		Aggs:      []planner.AggCall{{Fn: "count_star", Type: expr.Int64}},
		AggCols:   []planner.Column{{ID: planner.NewColumnID(), Name: "n", Type: expr.Int64}}}
	srt := &planner.Sort{Input: agg, Keys: []planner.SortKey{{Expr: &planner.ColRef{ID: agg.GroupCols[0].ID, Name: "k", T: expr.Int64}}}}
	n, err := Lower(srt)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDistributeOneRank(t *testing.T) {
	n := joinAgg(t, 1_000_000)
	got, ops, err := Distribute(n, DistOptions{Comm: shuffle.NewLocal(1)[0]})
	if err != nil || got != n || len(ops) != 0 {
		t.Fatalf("one rank changed the plan: %v %v", ops, err)
	}
}

func TestDistributeExchanges(t *testing.T) {
	comm := shuffle.NewLocal(3)[1]
	// Both sides large: both repartition by the join key, and the
	// group-by on that key needs no further exchange; the sort gathers.
	got, ops, err := Distribute(joinAgg(t, 1_000_000), DistOptions{Comm: comm, OpBase: 100})
	if err != nil {
		t.Fatal(err)
	}
	text := Explain(got)
	if c := strings.Count(text, "Exchange hash"); c != 2 || !strings.Contains(text, "Exchange gather") || len(ops) != 3 || ops[0] != 100 {
		t.Errorf("ops %v, plan:\n%s", ops, text)
	}
	if !strings.HasPrefix(text, "Sort") {
		t.Errorf("the final sort should run after the gather:\n%s", text)
	}
	// A small build side is broadcast; the group-by then repartitions its
	// partial aggregates.
	got, _, err = Distribute(joinAgg(t, 100), DistOptions{Comm: comm})
	if err != nil {
		t.Fatal(err)
	}
	text = Explain(got)
	if strings.Count(text, "Exchange broadcast") != 1 || strings.Count(text, "Exchange hash") != 1 || strings.Count(text, "HashAggregate") != 2 {
		t.Errorf("plan:\n%s", text)
	}
}
