package exec

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// countingNode counts how often it is opened, and can fail.
type countingNode struct {
	Node
	opens atomic.Int64
	fail  error
}

func (n *countingNode) Open(c *Context) <-chan arrow.RecordBatch {
	n.opens.Add(1)
	if n.fail != nil {
		return failed(c, make(chan arrow.RecordBatch), n.fail)
	}
	return n.Node.Open(c)
}

func sharedPlan(mem memory.Allocator, fail error) (*UnionAll, *countingNode, *testSource) {
	names := []string{"k"}
	types := []arrow.DataType{expr.Int64}
	src := &testSource{schema: arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}}, nil)}
	src.batches = []arrow.RecordBatch{
		mkBatch(mem, names, types, []any{int64(1), int64(2)}),
		mkBatch(mem, names, types, []any{int64(3), nil}),
	}
	in := &countingNode{Node: src, fail: fail}
	s := &SharedSource{Input: in, ID: 1}
	u := &UnionAll{Inputs: []Node{&SharedRead{Src: s, ID: 1, Primary: true}, &SharedRead{Src: s, ID: 1}}, Out: src.schema}
	return u, in, src
}

func TestSharedSubplanRunsOnce(t *testing.T) {
	for _, threads := range []int{1, 4} {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		u, in, src := sharedPlan(mem, nil)
		got, err := runRows(t, mem, threads, 1024, u)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, "union of two reads", got, []string{"1", "1", "2", "2", "3", "3", "NULL", "NULL"})
		if n := in.opens.Load(); n != 1 {
			t.Errorf("shared input opened %d times, want 1", n)
		}
		// A second run of the same plan computes it again, once.
		if _, err := runRows(t, mem, threads, 1024, u); err != nil {
			t.Fatal(err)
		}
		if n := in.opens.Load(); n != 2 {
			t.Errorf("after two runs: opened %d times, want 2", n)
		}
		releaseBatchList(src.batches)
		mem.AssertSize(t, 0)
	}
}

func TestSharedSubplanError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	boom := errs.New(errs.Execution, "boom")
	u, _, src := sharedPlan(mem, boom)
	_, err := runRows(t, mem, 2, 1024, u)
	if !errors.Is(err, errs.Execution) {
		t.Fatalf("got %v, want the source's Execution error", err)
	}
	releaseBatchList(src.batches)
	mem.AssertSize(t, 0)
}
