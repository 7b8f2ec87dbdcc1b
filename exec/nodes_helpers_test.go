package exec

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// testSource emits batches (retained, in order); forever repeats them
// until the query stops it. sent counts batches delivered.
type testSource struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	forever bool
	sent    atomic.Int64
	done    atomic.Bool
}

func (s *testSource) Schema() *arrow.Schema    { return s.schema }
func (s *testSource) Children() []Node         { return nil }
func (s *testSource) Explain() string          { return "TestSource" }
func (s *testSource) WithChildren([]Node) Node { return s }
func (s *testSource) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer s.done.Store(true)
		defer close(out)
		for {
			for _, b := range s.batches {
				b.Retain()
				if !Send(c, out, b) {
					return c.Err()
				}
				s.sent.Add(1)
			}
			if !s.forever {
				return nil
			}
		}
	})
	return out
}

// runRows runs root and renders its rows as "v1|v2|..." (NULL for nulls).
func runRows(t *testing.T, mem memory.Allocator, threads, batchSize int, root Node) ([]string, error) {
	t.Helper()
	c := NewContext(context.Background(), Options{Threads: threads, BatchSize: batchSize, Alloc: mem})
	var rows []string
	err := Run(c, root, func(b arrow.RecordBatch) error {
		if !b.Schema().Equal(root.Schema()) {
			t.Errorf("batch schema %s, node schema %s", b.Schema(), root.Schema())
		}
		rows = append(rows, batchRows(b)...)
		return nil
	})
	return rows, err
}

func batchRows(b arrow.RecordBatch) []string {
	var rows []string
	for r := 0; r < int(b.NumRows()); r++ {
		vals := make([]string, b.NumCols())
		for i := range vals {
			col := b.Column(i)
			if col.IsNull(r) {
				vals[i] = "NULL"
			} else if d, ok := col.DataType().(*arrow.Decimal64Type); ok {
				vals[i] = expr.FormatDecimal(int64(col.(*array.Decimal64).Value(r)), d.Scale)
			} else {
				vals[i] = col.ValueStr(r)
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return rows
}

// mkBatch builds a batch from columns given as Go slices; a nil element
// (for []any columns) is NULL. Supported: []int64, []float64, []string,
// []bool, and []any of int64/float64/string/bool/nil with an explicit type.
func mkBatch(mem memory.Allocator, names []string, types []arrow.DataType, cols ...[]any) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	n := 0
	for i, col := range cols {
		fields[i] = arrow.Field{Name: names[i], Type: types[i], Nullable: true}
		bld := array.NewBuilder(mem, types[i])
		for _, v := range col {
			var lit *expr.Literal
			switch x := v.(type) {
			case nil:
				lit = &expr.Literal{Type: types[i]}
			case int:
				if types[i].ID() == arrow.DATE32 {
					lit = &expr.Literal{Value: int32(x), Type: types[i]}
				} else {
					lit = &expr.Literal{Value: int64(x), Type: types[i]}
				}
			default:
				lit = &expr.Literal{Value: v, Type: types[i]}
			}
			if err := appendLiteral(bld, lit); err != nil {
				panic(err)
			}
		}
		arrs[i] = bld.NewArray()
		bld.Release()
		n = len(col)
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	releaseArrays(arrs)
	return b
}

func col(i int, t arrow.DataType) *expr.Column { return &expr.Column{Index: i, Type: t} }

func eqRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}
