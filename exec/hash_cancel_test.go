package exec

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

func TestHashNodesCancelAndErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mkBatch(mem, []string{"a"}, []arrow.DataType{expr.Int64}, []any{3, 1, 2, 3})
	defer b.Release()
	one := func() Node { return &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}} }
	endless := func() Node { return &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}, forever: true} }
	two := arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}, {Name: "b", Type: expr.Int64}}, nil)
	nodes := func(l, r func() Node) []Node {
		return []Node{
			&HashAggregate{Input: l(), GroupBy: []expr.Expr{col(0, expr.Int64)},
				Aggs: []AggFunc{{Fn: "count_star", Type: expr.Int64}}, Out: two},
			&HashAggregate{Input: l(), Aggs: []AggFunc{{Fn: "count", Distinct: true, Arg: col(0, expr.Int64), Type: expr.Int64}},
				Out: arrow.NewSchema([]arrow.Field{{Name: "c", Type: expr.Int64}}, nil)},
			&HashJoin{Type: expr.JoinInner, Left: l(), Right: r(), LeftKeys: []expr.Expr{col(0, expr.Int64)},
				RightKeys: []expr.Expr{col(0, expr.Int64)}, Out: two},
			&NestedLoopJoin{Type: expr.JoinInner, Left: l(), Right: r(), Out: two},
		}
	}
	// Cancelling a query over an endless source ends every goroutine.
	for i, sides := range [][2]func() Node{{endless, one}, {one, endless}, {endless, endless}} {
		for _, n := range nodes(sides[0], sides[1]) {
			if _, ok := n.(*HashAggregate); ok && i == 1 { // its input is finite
				continue
			}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
			c := NewContext(ctx, Options{Threads: 3, Alloc: mem})
			err := Run(c, n, func(arrow.RecordBatch) error { return nil })
			cancel()
			if !errors.Is(err, errs.Cancelled) {
				t.Errorf("%s: got %v, want cancelled", n.Explain(), err)
			}
		}
	}
	// An error from the consumer stops the query and is returned.
	for _, n := range nodes(one, one) {
		c := NewContext(t.Context(), Options{Threads: 3, BatchSize: 1, Alloc: mem})
		err := Run(c, n, func(arrow.RecordBatch) error { return errs.New(errs.IO, "client gone") })
		if !errors.Is(err, errs.IO) {
			t.Errorf("%s: got %v, want the consumer's error", n.Explain(), err)
		}
	}
	// A bad key column is an error, not a panic.
	bad := &HashJoin{Type: expr.JoinInner, Left: one(), Right: one(), LeftKeys: []expr.Expr{col(4, expr.Int64)},
		RightKeys: []expr.Expr{col(0, expr.Int64)}, Out: two}
	if _, err := runRows(t, mem, 2, 10, bad); !errors.Is(err, errs.Internal) {
		t.Errorf("bad key: got %v", err)
	}
	mismatch := &HashJoin{Type: expr.JoinInner, Left: one(), Right: one(), LeftKeys: []expr.Expr{col(0, expr.Int64)},
		RightKeys: []expr.Expr{col(0, expr.String)}, Out: two}
	if _, err := runRows(t, mem, 2, 10, mismatch); err == nil {
		t.Errorf("mismatched key types: no error")
	}
}
