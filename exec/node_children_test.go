package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRewriteCopiesPlan: a rewrite (here EXPLAIN ANALYZE's wrappers)
// leaves the plan it was given as it was, and a shared source's two reads
// — one through its child, one through its link — read one run of it.
func TestRewriteCopiesPlan(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := mkBatch(mem, []string{"x"}, []arrow.DataType{arrow.PrimitiveTypes.Int64}, []any{int64(1), int64(2), int64(3)})
	defer b.Release()
	src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
	shared := &SharedSource{Input: src, ID: 1}
	first := &SharedRead{Src: shared, ID: 1, Primary: true}
	second := &SharedRead{Src: shared, ID: 1}
	union := &UnionAll{Inputs: []Node{first, second}, Out: b.Schema()}

	root := Instrument(union)
	if union.Inputs[0] != first || union.Inputs[1] != second || first.Src != shared || second.Src != shared || shared.Input != src {
		t.Fatal("Instrument changed the plan it was given")
	}
	u, ok := root.Inner.(*UnionAll)
	if !ok || u == union {
		t.Fatalf("root wraps %T (the original: %v), want a copy of the union", root.Inner, u == union)
	}
	r0 := u.Inputs[0].(*Analyzed).Inner.(*SharedRead)
	r1 := u.Inputs[1].(*Analyzed).Inner.(*SharedRead)
	if r0.Src != r1.Src {
		t.Fatalf("the reads of one source read two: %p and %p", r0.Src, r1.Src)
	}
	if _, ok := r0.Src.(*Analyzed); !ok {
		t.Fatalf("the shared source is not wrapped: %T", r0.Src)
	}
	for run := range 2 { // the copy and the original both run, twice
		for _, plan := range []Node{root, union} {
			var rows int64
			c := NewContext(context.Background(), Options{Alloc: mem})
			if err := Run(c, plan, func(b arrow.RecordBatch) error { rows += b.NumRows(); return nil }); err != nil {
				t.Fatal(err)
			}
			if rows != 6 {
				t.Errorf("run %d: %d rows, want 6 (the source's 3, read twice)", run, rows)
			}
		}
	}
	if got := src.sent.Load(); got != 4 {
		t.Errorf("the source ran %d times for 4 runs, want once per run", got)
	}
}
