package exec

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// Nodes over real (compiled) expressions, not just bare columns.
func TestNodesWithExpressions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	types := []arrow.DataType{expr.Int64, expr.String}
	b1 := mkBatch(mem, []string{"a", "s"}, types, []any{1, 5, nil, 3}, []any{"x", "y", "z", nil})
	b2 := mkBatch(mem, []string{"a", "s"}, types, []any{4, 2}, []any{"p", "q"})
	defer releaseBatches([]arrow.RecordBatch{b1, b2})
	a := col(0, expr.Int64)
	gt := func(x expr.Expr, v int64) expr.Expr {
		return &expr.Call{Fn: "gt", Args: []expr.Expr{x, &expr.Literal{Value: v, Type: expr.Int64}}, Type: expr.Boolean}
	}
	add := &expr.Call{Fn: "add", Args: []expr.Expr{a, a}, Type: expr.Int64}
	for _, threads := range []int{1, 4} {
		src := &testSource{schema: b1.Schema(), batches: []arrow.RecordBatch{b1, b2}}
		got, err := runRows(t, mem, threads, 10, &Filter{Input: src, Pred: gt(a, 2), KeepOrder: true})
		if err != nil {
			t.Fatal(err)
		}
		eqRows(t, "filter a > 2", got, []string{"5|y", "3|NULL", "4|p"})

		out := arrow.NewSchema([]arrow.Field{{Name: "aa", Type: expr.Int64}, {Name: "k", Type: expr.Int64}, {Name: "n", Type: expr.Int64}}, nil)
		proj := &Project{Input: src, Exprs: []expr.Expr{add, &expr.Literal{Value: int64(7), Type: expr.Int64}, &expr.Literal{Type: expr.Null}}, Out: out}
		got, err = runRows(t, mem, threads, 10, proj)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, "project a+a, 7, NULL", got, []string{"10|7|NULL", "2|7|NULL", "4|7|NULL", "6|7|NULL", "8|7|NULL", "NULL|7|NULL"})

		neg := &expr.Call{Fn: "neg", Args: []expr.Expr{a}, Type: expr.Int64}
		got, err = runRows(t, mem, threads, 10, &Sort{Input: src, Keys: []SortKey{{Expr: neg, NullsFirst: true}}, Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		eqRows(t, "sort by -a", got, []string{"NULL|z", "5|y", "4|p", "3|NULL", "2|q", "1|x"})

		tbl := &testTable{schema: b1.Schema(), splits: [][]arrow.RecordBatch{{b1}, {b2}}}
		got, err = runRows(t, mem, threads, 10, &Scan{Table: tbl, Columns: []int{1, 0}, Filter: gt(col(1, expr.Int64), 3),
			Out: arrow.NewSchema([]arrow.Field{{Name: "s", Type: expr.String}, {Name: "a", Type: expr.Int64}}, nil)})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, "scan a > 3", got, []string{"p|4", "y|5"})

		// A runtime error (overflow) fails the query with its kind.
		big := mkBatch(mem, []string{"a", "s"}, types, []any{int64(1) << 62}, []any{"x"})
		bsrc := &testSource{schema: big.Schema(), batches: []arrow.RecordBatch{big}}
		_, err = runRows(t, mem, threads, 10, &Project{Input: bsrc, Exprs: []expr.Expr{add}, Out: arrow.NewSchema(out.Fields()[:1], nil)})
		big.Release()
		if !errors.Is(err, errs.Execution) {
			t.Errorf("overflow: got %v, want an execution error", err)
		}
		// A bad expression is reported when the node opens.
		_, err = runRows(t, mem, threads, 10, &Filter{Input: src, Pred: &expr.Call{Fn: "nosuch", Type: expr.Boolean}})
		if err == nil {
			t.Errorf("unknown function: no error")
		}
	}
}
