package exec

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// slowStart is a node whose first batch comes late.
type slowStart struct{ Node }

func (s slowStart) Open(c *Context) <-chan arrow.RecordBatch {
	in := s.Node.Open(c)
	out := make(chan arrow.RecordBatch)
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		time.Sleep(20 * time.Millisecond)
		for b := range in {
			if !Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// A UNION ALL emits its inputs' rows in the order the query wrote them,
// as DuckDB keeps insertion order, even when the first input is the slow
// one: a window without ORDER BY above it numbers rows in that order.
func TestUnionAllKeepsInputOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	names := []string{"k"}
	types := []arrow.DataType{expr.Int64}
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}}, nil)
	source := func(vs ...any) *testSource {
		return &testSource{schema: schema, batches: []arrow.RecordBatch{mkBatch(mem, names, types, vs)}}
	}
	first, second := source(int64(11), int64(12)), source(int64(21), int64(22))
	defer func() {
		for _, s := range []*testSource{first, second} {
			for _, b := range s.batches {
				b.Release()
			}
		}
	}()
	u := &UnionAll{Inputs: []Node{slowStart{first}, second}, Out: schema}
	got, err := runRows(t, mem, 4, 1024, u)
	if err != nil {
		t.Fatal(err)
	}
	eqRows(t, "union all", got, []string{"11", "12", "21", "22"})
}
