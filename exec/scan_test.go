package exec

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
)

// testTable serves splits of batches (all of schema); Read projects columns.
type testTable struct {
	schema *arrow.Schema
	splits [][]arrow.RecordBatch
	fail   error // returned by Read of split 1 when set
}

func (t *testTable) Name() string          { return "t" }
func (t *testTable) Schema() *arrow.Schema { return t.schema }
func (t *testTable) Stats() catalog.Stats  { return catalog.Stats{RowCount: -1} }
func (t *testTable) NumSplits() int        { return len(t.splits) }
func (t *testTable) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split == 1 && t.fail != nil {
		return t.fail
	}
	for _, b := range t.splits[split] {
		if err := ctx.Err(); err != nil {
			return err
		}
		fields := make([]arrow.Field, len(columns))
		cols := make([]arrow.Array, len(columns))
		for i, c := range columns {
			fields[i] = b.Schema().Field(c)
			cols[i] = b.Column(c)
		}
		if err := emit(array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())); err != nil {
			return err
		}
	}
	return nil
}

func TestScan(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	types := []arrow.DataType{expr.Int64, expr.Boolean, expr.String}
	names := []string{"a", "keep", "s"}
	var splits [][]arrow.RecordBatch
	var want []string
	for sp := range 5 {
		var bs []arrow.RecordBatch
		for k := range 3 {
			var a, keep, s []any
			for r := range 4 {
				v := int64(sp*100 + k*10 + r)
				a = append(a, v)
				keep = append(keep, r != 1 || k == 2) // batch k==2 passes whole
				s = append(s, "x")
				if r != 1 || k == 2 {
					want = append(want, "x|"+fmt.Sprint(v))
				}
			}
			if sp == 4 && k == 0 { // a batch where nothing passes
				keep = []any{false, nil, false, false}
				want = slices.DeleteFunc(want, func(w string) bool { return w == "x|400" || w == "x|402" || w == "x|403" })
			}
			bs = append(bs, mkBatch(mem, names, types, a, keep, s))
		}
		splits = append(splits, bs)
	}
	tbl := &testTable{schema: splits[0][0].Schema(), splits: splits}
	out := arrow.NewSchema([]arrow.Field{{Name: "s2", Type: expr.String}, {Name: "k", Type: expr.Boolean}, {Name: "a2", Type: expr.Int64}}, nil)
	for _, threads := range []int{1, 4} {
		scan := &Scan{Table: tbl, Columns: []int{2, 1, 0}, Filter: col(1, expr.Boolean), Out: out}
		got, err := runRows(t, mem, threads, 1024, &Project{Input: scan, Exprs: []expr.Expr{col(0, expr.String), col(2, expr.Int64)},
			Out: arrow.NewSchema([]arrow.Field{{Name: "s", Type: expr.String}, {Name: "a", Type: expr.Int64}}, nil)})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		eqRows(t, "scan", got, w)
	}
	// A failing split fails the query with its error.
	tbl.fail = errs.New(errs.IO, "broken file")
	_, err := runRows(t, mem, 2, 1024, &Scan{Table: tbl, Columns: []int{0}, Out: arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}}, nil)})
	if !errors.Is(err, errs.IO) {
		t.Errorf("got %v, want io error", err)
	}
	for _, bs := range splits {
		releaseBatches(bs)
	}
}

func TestValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}, {Name: "d", Type: tDec}, {Name: "dt", Type: tDate}, {Name: "s", Type: expr.String}, {Name: "f", Type: expr.Float64}}, nil)
	rows := [][]*expr.Literal{
		{{Value: int64(1), Type: expr.Int64}, {Value: int64(-1234), Type: tDec}, {Value: int32(0), Type: tDate}, {Value: "hi", Type: expr.String}, {Value: 1.5, Type: expr.Float64}},
		{{Type: expr.Null}, {Type: expr.Null}, {Type: expr.Null}, {Type: expr.Null}, {Value: int64(2), Type: expr.Int64}},
	}
	got, err := runRows(t, mem, 1, 10, &Values{Rows: rows, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	eqRows(t, "values", got, []string{"1|-12.34|1970-01-01|hi|1.5", "NULL|NULL|NULL|NULL|2"})
	// Zero columns, three rows.
	c := NewContext(t.Context(), Options{Alloc: mem})
	var n int64
	err = Run(c, &Values{Rows: make([][]*expr.Literal, 3), Out: arrow.NewSchema(nil, nil)}, func(b arrow.RecordBatch) error {
		n += b.NumRows()
		return nil
	})
	if err != nil || n != 3 {
		t.Errorf("zero-column values: %d rows, %v", n, err)
	}
	// A literal of the wrong type is an Internal error, not a panic.
	_, err = runRows(t, mem, 1, 10, &Values{Rows: [][]*expr.Literal{{{Value: "x", Type: expr.String}}}, Out: arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}}, nil)})
	if !errors.Is(err, errs.Internal) {
		t.Errorf("got %v", err)
	}
}

func TestFilterProjectUnion(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	types := []arrow.DataType{expr.Int64, expr.Boolean}
	b1 := mkBatch(mem, []string{"a", "p"}, types, []any{1, 2, 3}, []any{true, nil, false})
	b2 := mkBatch(mem, []string{"a", "p"}, types, []any{4, 5}, []any{true, true})
	b3 := mkBatch(mem, []string{"a", "p"}, types, []any{6}, []any{false})
	defer releaseBatches([]arrow.RecordBatch{b1, b2, b3})
	src := &testSource{schema: b1.Schema(), batches: []arrow.RecordBatch{b1, b2, b3}}
	for _, threads := range []int{1, 4} {
		got, err := runRows(t, mem, threads, 10, &Filter{Input: src, Pred: col(1, expr.Boolean), KeepOrder: true})
		if err != nil {
			t.Fatal(err)
		}
		eqRows(t, "filter", got, []string{"1|true", "4|true", "5|true"})
		proj := &Project{Input: src, Exprs: []expr.Expr{col(1, expr.Boolean), col(0, expr.Int64), col(0, expr.Int64)}, KeepOrder: threads == 1,
			Out: arrow.NewSchema([]arrow.Field{{Name: "x", Type: expr.Boolean}, {Name: "y", Type: expr.Int64}, {Name: "z", Type: expr.Int64}}, nil)}
		got, err = runRows(t, mem, threads, 10, proj)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, "project", got, []string{"NULL|2|2", "false|3|3", "false|6|6", "true|1|1", "true|4|4", "true|5|5"})
		uOut := arrow.NewSchema([]arrow.Field{{Name: "u", Type: expr.Int64, Nullable: true}, {Name: "v", Type: expr.Boolean, Nullable: true}}, nil)
		got, err = runRows(t, mem, threads, 10, &UnionAll{Inputs: []Node{src, src}, Out: uOut})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 12 {
			t.Errorf("union: %d rows", len(got))
		}
	}
}

func TestLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b1 := mkBatch(mem, []string{"a"}, []arrow.DataType{expr.Int64}, []any{1, 2, 3})
	b2 := mkBatch(mem, []string{"a"}, []arrow.DataType{expr.Int64}, []any{4, 5})
	defer releaseBatches([]arrow.RecordBatch{b1, b2})
	cases := []struct {
		offset, count int64
		want          []string
	}{
		{0, -1, []string{"1", "2", "3", "4", "5"}},
		{0, 2, []string{"1", "2"}},
		{2, 2, []string{"3", "4"}},
		{3, 10, []string{"4", "5"}},
		{1, 0, nil},
		{7, 1, nil},
	}
	for _, tc := range cases {
		src := &testSource{schema: b1.Schema(), batches: []arrow.RecordBatch{b1, b2}}
		got, err := runRows(t, mem, 2, 10, &Limit{Input: src, Offset: tc.offset, Count: tc.count})
		if err != nil {
			t.Fatal(err)
		}
		eqRows(t, "limit", got, tc.want)
	}
	// A source that never ends is stopped once the limit is reached,
	// also under a Filter with several workers.
	for _, count := range []int64{0, 1, 4, 11} {
		src := &testSource{schema: b1.Schema(), batches: []arrow.RecordBatch{b1, b2}, forever: true}
		done := make(chan struct{})
		var got []string
		var err error
		go func() {
			got, err = runRows(t, mem, 4, 10, &Limit{Input: &Project{Input: src, Exprs: []expr.Expr{col(0, expr.Int64)}, Out: b1.Schema()}, Count: count})
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("limit over an endless source did not finish")
		}
		if err != nil || int64(len(got)) != count || !src.done.Load() {
			t.Errorf("endless limit %d: %d rows, err %v, source done %v", count, len(got), err, src.done.Load())
		}
	}
}

func TestCancelAndErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mkBatch(mem, []string{"a"}, []arrow.DataType{expr.Int64}, []any{3, 1, 2})
	defer b.Release()
	nodes := func(src Node) []Node {
		return []Node{
			&Sort{Input: src, Keys: []SortKey{{Expr: col(0, expr.Int64)}}, Limit: -1},
			&Sort{Input: src, Keys: []SortKey{{Expr: col(0, expr.Int64)}}, Limit: 2},
			&Project{Input: src, Exprs: []expr.Expr{col(0, expr.Int64)}, Out: b.Schema()},
			&UnionAll{Inputs: []Node{src, src}, Out: b.Schema()},
			&Window{Input: src, Funcs: []WindowFunc{{Fn: "row_number", Type: expr.Int64}},
				Out: arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}, {Name: "rn", Type: expr.Int64}}, nil)},
		}
	}
	// Cancelling a query over an endless source ends every goroutine.
	for _, n := range nodes(&testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}, forever: true}) {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		c := NewContext(ctx, Options{Threads: 3, Alloc: mem})
		err := Run(c, n, func(arrow.RecordBatch) error { return nil })
		cancel()
		if !errors.Is(err, errs.Cancelled) {
			t.Errorf("%s: got %v, want cancelled", n.Explain(), err)
		}
	}
	// An error from the consumer stops the query and is returned.
	for _, n := range nodes(&testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b, b, b}}) {
		c := NewContext(t.Context(), Options{Threads: 3, BatchSize: 1, Alloc: mem})
		err := Run(c, n, func(arrow.RecordBatch) error { return errs.New(errs.IO, "client gone") })
		if !errors.Is(err, errs.IO) {
			t.Errorf("%s: got %v, want the consumer's error", n.Explain(), err)
		}
	}
	// Unknown window functions and bad expressions are errors, not panics.
	_, err := runRows(t, mem, 1, 10, &Window{Input: &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}},
		Funcs: []WindowFunc{{Fn: "no_such_function", Type: expr.Int64}}, Out: b.Schema()})
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("no_such_function: got %v", err)
	}
	_, err = runRows(t, mem, 1, 10, &Sort{Input: &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}},
		Keys: []SortKey{{Expr: col(5, expr.Int64)}}, Limit: -1})
	if !errors.Is(err, errs.Internal) {
		t.Errorf("bad column: got %v", err)
	}
}
