package physical

import (
	"context"
	"regexp"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/exec"
	"gq/expr"
	"gq/planner"
)

type tTable struct {
	name   string
	schema *arrow.Schema
	rows   int64
}

func (t *tTable) Name() string          { return t.name }
func (t *tTable) Schema() *arrow.Schema { return t.schema }
func (t *tTable) Stats() catalog.Stats  { return catalog.Stats{RowCount: t.rows} }
func (t *tTable) NumSplits() int        { return 1 }
func (t *tTable) Read(context.Context, int, []int, int, memory.Allocator, func(arrow.RecordBatch) error) error {
	return nil
}

// tScan scans a fake table with Int64 columns named cols.
func tScan(name string, rows int64, cols ...string) *planner.Scan {
	var fields []arrow.Field
	s := &planner.Scan{}
	for i, c := range cols {
		fields = append(fields, arrow.Field{Name: c, Type: expr.Int64, Nullable: true})
		s.Cols = append(s.Cols, planner.Column{ID: planner.NewColumnID(), Name: c, Type: expr.Int64, Nullable: true})
		s.Ordinals = append(s.Ordinals, i)
	}
	s.Table = &tTable{name: name, schema: arrow.NewSchema(fields, nil), rows: rows}
	return s
}

func tRef(t *testing.T, p planner.Plan, name string) *planner.ColRef {
	t.Helper()
	for _, c := range p.Columns() {
		if c.Name == name {
			return &planner.ColRef{ID: c.ID, Name: c.Name, T: c.Type}
		}
	}
	t.Fatalf("no column %s", name)
	return nil
}

func tFn(name string, typ arrow.DataType, args ...planner.Expr) *planner.Func {
	return &planner.Func{Name: name, Args: args, T: typ}
}

func tInt(v int64) *planner.Const { return &planner.Const{Value: v, T: expr.Int64} }

func TestLowerJoinKeys(t *testing.T) {
	a := tScan("a", 1000, "a1", "a2")
	b := tScan("b", 10, "b1", "b2")
	// Keys written right = left still land on the right sides; the
	// non-equality conjunct becomes Extra over left ++ right positions.
	cond := tFn("and", expr.Boolean,
		tFn("eq", expr.Boolean, tRef(t, b, "b2"), tRef(t, a, "a1")),
		tFn("lt", expr.Boolean, tRef(t, a, "a2"), tRef(t, b, "b1")))
	n, err := Lower(&planner.Join{Type: planner.JoinInner, Left: a, Right: b, Cond: cond})
	if err != nil {
		t.Fatal(err)
	}
	hj, ok := n.(*exec.HashJoin)
	if !ok {
		t.Fatalf("got %T", n)
	}
	if got := hj.LeftKeys[0].String() + " " + hj.RightKeys[0].String() + " " + hj.Extra.String(); got != "a1#0 b2#1 lt(a2#1, b1#2)" {
		t.Errorf("got %s", got)
	}
	if hj.Out.NumFields() != 4 || hj.Type != expr.JoinInner {
		t.Errorf("schema %v", hj.Out)
	}
	// No equality: nested loops.
	n, _ = Lower(&planner.Join{Type: planner.JoinSemi, Left: a, Right: b, Cond: tFn("lt", expr.Boolean, tRef(t, a, "a2"), tRef(t, b, "b1"))})
	if nl, ok := n.(*exec.NestedLoopJoin); !ok || nl.Type != expr.JoinSemi || nl.Out.NumFields() != 2 {
		t.Errorf("got %s", Explain(n))
	}
	// Decimal keys of different scales meet in a common type.
	dl := &planner.ColRef{ID: a.Cols[0].ID, Name: "a1", T: expr.Decimal(10, 2)}
	lk, rk, ok := equiKey(tFn("eq", expr.Boolean, dl, tRef(t, b, "b1")), layoutOf(a.Cols), layoutOf(b.Cols), false)
	if !ok || !arrow.TypeEqual(lk.DataType(), rk.DataType()) {
		t.Errorf("keys %v %v", lk, rk)
	}
}

func TestLowerTopNAndOrder(t *testing.T) {
	a := tScan("a", 1000, "a1", "a2")
	sort := &planner.Sort{Input: a, Keys: []planner.SortKey{{Expr: tRef(t, a, "a2"), Desc: true}}}
	proj := &planner.Project{Input: &planner.Limit{Input: sort, Count: 10, Offset: 5},
		Exprs: []planner.Expr{tFn("add", expr.Int64, tRef(t, a, "a2"), tInt(1))},
		Cols:  []planner.Column{{ID: planner.NewColumnID(), Name: "x", Type: expr.Int64}}}
	n, err := Lower(proj)
	if err != nil {
		t.Fatal(err)
	}
	want := `Project [add(a2, 1)] keep-order
└─ Sort [a2 DESC] limit=10 offset=5
   └─ Scan a cols=[a1, a2] rows≈1000
`
	if got := Explain(n); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestExplainAggregate(t *testing.T) {
	a := tScan("lineitem", 6001215, "l_quantity", "l_shipdate")
	a.Filter = tFn("le", expr.Boolean, tRef(t, a, "l_shipdate"), tInt(10471))
	agg := &planner.Aggregate{Input: a, GroupBy: []planner.Expr{tRef(t, a, "l_shipdate")},
		GroupCols: []planner.Column{{ID: planner.NewColumnID(), Name: "d", Type: expr.Int64}},
		Aggs: []planner.AggCall{{Fn: "sum", Arg: tRef(t, a, "l_quantity"), Type: expr.Int64},
			{Fn: "count_star", Type: expr.Int64}},
		AggCols: []planner.Column{{ID: planner.NewColumnID(), Name: "s", Type: expr.Int64}, {ID: planner.NewColumnID(), Name: "n", Type: expr.Int64}}}
	srt := &planner.Sort{Input: agg, Keys: []planner.SortKey{{Expr: &planner.ColRef{ID: agg.GroupCols[0].ID, Name: "d", T: expr.Int64}}}}
	n, err := Lower(srt)
	if err != nil {
		t.Fatal(err)
	}
	want := `Sort [d ASC]
└─ HashAggregate keys=[l_shipdate] aggs=[sum(l_quantity), count_star(*)]
   └─ Scan lineitem cols=[l_quantity, l_shipdate] filter=le(l_shipdate, 10471) rows≈6001215
`
	if got := Explain(n); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if s := n.Schema(); s.NumFields() != 1 && s.Field(0).Name != "d" {
		t.Errorf("schema %v", s)
	}
}

func TestLowerErrors(t *testing.T) {
	a := tScan("a", 10, "a1")
	stray := &planner.ColRef{ID: planner.NewColumnID(), Name: "ghost", T: expr.Int64}
	_, err := Lower(&planner.Filter{Input: a, Cond: tFn("gt", expr.Boolean, stray, tInt(1))})
	if err == nil || !regexp.MustCompile(`ghost`).MatchString(err.Error()) {
		t.Errorf("want an error naming the column, got %v", err)
	}
	b := tScan("b", 10, "b1")
	_, err = Lower(&planner.Join{Type: planner.JoinAnti, NullAware: true, Left: a, Right: b,
		Cond: tFn("lt", expr.Boolean, tRef(t, a, "a1"), tRef(t, b, "b1"))})
	if err == nil {
		t.Errorf("null-aware anti join without keys should fail")
	}
}

func TestLowerValuesAndWindow(t *testing.T) {
	c := planner.Column{ID: planner.NewColumnID(), Name: "v", Type: expr.Int64, Nullable: true}
	v := &planner.Values{Cols: []planner.Column{c}, Rows: [][]planner.Expr{{tInt(1)}, {&planner.Const{Value: nil, T: expr.Null}}}}
	w := &planner.Window{Input: v, OrderBy: []planner.SortKey{{Expr: &planner.ColRef{ID: c.ID, Name: "v", T: expr.Int64}}},
		Funcs: []planner.WindowCall{{Fn: "row_number", Type: expr.Int64}},
		Cols:  []planner.Column{{ID: planner.NewColumnID(), Name: "rn", Type: expr.Int64}}}
	n, err := Lower(w)
	if err != nil {
		t.Fatal(err)
	}
	want := "Window partition=[] order=[v ASC] funcs=[row_number()]\n└─ Values rows=2 cols=1\n"
	if got := Explain(n); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	vals := n.Children()[0].(*exec.Values)
	if !arrow.TypeEqual(vals.Rows[1][0].Type, expr.Int64) || vals.Rows[1][0].Value != nil {
		t.Errorf("NULL literal typed %v", vals.Rows[1][0].Type)
	}
	if n.Schema().NumFields() != 2 {
		t.Errorf("schema %v", n.Schema())
	}
	v.Rows = append(v.Rows, []planner.Expr{tInt(1), tInt(2)})
	if _, err := Lower(v); err == nil {
		t.Errorf("ragged VALUES should fail")
	}
}
