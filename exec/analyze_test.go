package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	gqmem "gq/memory"
)

func TestUncovered(t *testing.T) {
	iv := func(p ...int64) []interval {
		var out []interval
		for i := 0; i < len(p); i += 2 {
			out = append(out, interval{p[i], p[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		ws, cover []interval
		want      int64
	}{
		{iv(0, 10), nil, 10},
		{iv(0, 10), iv(2, 4), 8},
		{iv(0, 10), iv(-5, 3, 8, 20), 5},
		{iv(0, 10, 20, 30), iv(5, 25), 10},
		{iv(0, 10), iv(0, 10), 0},
		{iv(0, 10, 12, 14), iv(1, 2, 3, 4, 13, 20), 9},
	} {
		if got := uncovered(tc.ws, tc.cover); got != tc.want {
			t.Errorf("uncovered(%v, %v) = %d, want %d", tc.ws, tc.cover, got, tc.want)
		}
	}
	if got := union([][]interval{iv(0, 5, 10, 12), iv(3, 7, 11, 15)}); len(got) != 2 || got[0] != (interval{0, 7}) || got[1] != (interval{10, 15}) {
		t.Errorf("union = %v", got)
	}
}

// memTestNode allocates hold bytes from its Context's allocator for its
// run, records spilled bytes in its Context's statistics as a spill would,
// and passes its input through.
type memTestNode struct {
	Input   Node
	hold    int
	spilled float64
	device  string
}

func (n *memTestNode) Schema() *arrow.Schema { return n.Input.Schema() }
func (n *memTestNode) Children() []Node      { return []Node{n.Input} }
func (n *memTestNode) Explain() string       { return "MemTest" }
func (n *memTestNode) WithChildren(c []Node) Node {
	cp := *n
	cp.Input = c[0]
	return &cp
}
func (n *memTestNode) RunDevice(*Context) string { return n.device }
func (n *memTestNode) Open(c *Context) <-chan arrow.RecordBatch {
	in := n.Input.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		buf := c.Alloc.Allocate(n.hold)
		defer c.Alloc.Free(buf)
		c.Stats.AddStat(gqmem.StatSpillBytesHostToDisk, n.spilled)
		for b := range in {
			if !Send(c, out, b) {
				Drain(in)
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// TestAnalyzedMemoryIsPerOperator: each operator's peak memory and spills
// are its own (not its children's), the query's are the sum, and the
// device comes from the node.
func TestAnalyzedMemoryIsPerOperator(t *testing.T) {
	qa := gqmem.NewAllocator(nil, nil)
	b := mkBatch(qa, []string{"x"}, []arrow.DataType{arrow.PrimitiveTypes.Int64}, []any{int64(1), int64(2)})
	defer b.Release()
	src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
	child := &memTestNode{Input: src, hold: 1000, spilled: 300, device: "GPU"}
	parent := &memTestNode{Input: child, hold: 64, spilled: 20, device: "CPU"}
	root := Instrument(parent)
	c := NewContext(context.Background(), Options{Alloc: qa})
	before := qa.Live()
	if err := Run(c, root, func(arrow.RecordBatch) error { return nil }); err != nil {
		t.Fatal(err)
	}
	ps := root.Stats()
	cs := root.Inner.(*memTestNode).Input.(*Analyzed).Stats()
	if ps.PeakMem != 64 || ps.Spilled != 20 || ps.Device != "CPU" {
		t.Errorf("parent: peak %d spilled %d device %s, want 64 20 CPU", ps.PeakMem, ps.Spilled, ps.Device)
	}
	if cs.PeakMem != 1000 || cs.Spilled != 300 || cs.Device != "GPU" {
		t.Errorf("child: peak %d spilled %d device %s, want 1000 300 GPU", cs.PeakMem, cs.Spilled, cs.Device)
	}
	if st, _ := c.Stats.GetStat(gqmem.StatSpillBytesHostToDisk); st.Value != 320 {
		t.Errorf("query spilled %v, want 320", st.Value)
	}
	// The operators' bytes counted in the query's allocator too, and
	// were freed there. (The two may not hold theirs at the same time:
	// the child can finish before the parent's goroutine starts.)
	if qa.Peak() < before+1000 || qa.Live() != before {
		t.Errorf("query allocator: peak %d live %d, want ≥ %d and %d", qa.Peak(), qa.Live(), before+1000, before)
	}
	rows := Operators(root, nil)
	if len(rows) != 3 || rows[1].Device != "GPU" || rows[1].PeakMem != 1000 || rows[1].Spilled != 300 || rows[2].Depth != 2 || rows[2].Operator != "TestSource" {
		t.Errorf("Operators: %+v", rows)
	}
}
