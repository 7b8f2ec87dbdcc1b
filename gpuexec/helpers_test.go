package gpuexec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/exec"
	"gq/expr"
)

// The tests' helpers: a source of given batches, and a query's rows as
// text, so a device operator's rows compare with its CPU twin's.

// testSource emits batches (retained, in order).
type testSource struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (s *testSource) Schema() *arrow.Schema              { return s.schema }
func (s *testSource) Children() []exec.Node              { return nil }
func (s *testSource) Explain() string                    { return "TestSource" }
func (s *testSource) WithChildren([]exec.Node) exec.Node { return s }
func (s *testSource) Open(c *exec.Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		for _, b := range s.batches {
			b.Retain()
			if !exec.Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// runRows runs root and renders its rows as "v1|v2|..." (NULL for nulls).
func runRows(t *testing.T, mem memory.Allocator, threads, batchSize int, root exec.Node) ([]string, error) {
	t.Helper()
	rows, _, err := runRowsIn(t, mem, threads, batchSize, root)
	return rows, err
}

// runRowsIn is runRows that also returns the Context root ran under, whose
// run holds the operators' figures (exec.RunState).
func runRowsIn(t *testing.T, mem memory.Allocator, threads, batchSize int, root exec.Node) ([]string, *exec.Context, error) {
	t.Helper()
	c := exec.NewContext(context.Background(), exec.Options{Threads: threads, BatchSize: batchSize, Alloc: mem})
	var rows []string
	err := exec.Run(c, root, func(b arrow.RecordBatch) error {
		if !b.Schema().Equal(root.Schema()) {
			t.Errorf("batch schema %s, node schema %s", b.Schema(), root.Schema())
		}
		rows = append(rows, batchRows(b)...)
		return nil
	})
	return rows, c, err
}

// batchRows renders b's rows, decimals by expr's printers.
func batchRows(b arrow.RecordBatch) []string {
	var rows []string
	for r := range int(b.NumRows()) {
		vals := make([]string, b.NumCols())
		for i := range vals {
			switch x := b.Column(i).(type) {
			case *array.Decimal64:
				vals[i] = expr.FormatDecimal(int64(x.Value(r)), x.DataType().(*arrow.Decimal64Type).Scale)
			case *array.Decimal128:
				vals[i] = expr.FormatDecimal128(x.Value(r), x.DataType().(*arrow.Decimal128Type).Scale)
			default:
				vals[i] = x.ValueStr(r)
			}
			if b.Column(i).IsNull(r) {
				vals[i] = "NULL"
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return rows
}

func col(i int, t arrow.DataType) *expr.Column { return &expr.Column{Index: i, Type: t} }

func eqRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}
