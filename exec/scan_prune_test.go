package exec

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/catalog"
	"gq/expr"
)

// A Parquet file of k = 0..299 in row groups of 100 (sorted, so each row
// group's min/max is disjoint): filters on k skip the row groups they
// exclude, and the scan still returns exactly the matching rows.
func TestScanPrunesRowGroups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	for i := range 300 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		bld.Field(1).(*array.Int64Builder).Append(int64(i % 7))
	}
	rec := bld.NewRecordBatch()
	bld.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(100), parquet.WithStats(true)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tbl, err := catalog.OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	lit := func(v int64) expr.Expr { return &expr.Literal{Value: v, Type: expr.Int64} }
	cmp := func(fn string, a, b expr.Expr) expr.Expr {
		return &expr.Call{Fn: fn, Args: []expr.Expr{a, b}, Type: expr.Boolean}
	}
	k := col(1, expr.Int64) // output columns are (v, k)
	out := arrow.NewSchema([]arrow.Field{{Name: "v", Type: expr.Int64}, {Name: "k", Type: expr.Int64}}, nil)
	for _, tc := range []struct {
		name   string
		filter expr.Expr
		skip   []bool // nil: nothing pruned
		keep   func(k int) bool
	}{
		{"k >= 250", cmp("ge", k, lit(250)), []bool{true, true, false}, func(k int) bool { return k >= 250 }},
		{"150 > k", cmp("gt", lit(150), k), []bool{false, false, true}, func(k int) bool { return k < 150 }},
		{"k = 120 and v = 1", &expr.Call{Fn: "and", Type: expr.Boolean, Args: []expr.Expr{
			cmp("eq", k, lit(120)), cmp("eq", col(0, expr.Int64), lit(1))}},
			[]bool{true, false, true}, func(k int) bool { return k == 120 && k%7 == 1 }},
		{"k < 0", cmp("lt", k, lit(0)), []bool{true, true, true}, func(int) bool { return false }},
		{"k <= 99", cmp("le", k, lit(99)), []bool{false, true, true}, func(k int) bool { return k <= 99 }},
		{"k > 5 or k < 2", &expr.Call{Fn: "or", Type: expr.Boolean, Args: []expr.Expr{cmp("gt", k, lit(5)), cmp("lt", k, lit(2))}},
			nil, func(k int) bool { return k > 5 || k < 2 }},
	} {
		s := &Scan{Table: tbl, Columns: []int{1, 0}, Filter: tc.filter, Out: out}
		if got := s.prunedSplits(); !slices.Equal(got, tc.skip) {
			t.Errorf("%s: pruned %v, want %v", tc.name, got, tc.skip)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rows, err := runRows(t, mem, 2, 64, s)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range 300 {
			if tc.keep(i) {
				want = append(want, strconv.Itoa(i%7)+"|"+strconv.Itoa(i))
			}
		}
		slices.Sort(rows)
		slices.Sort(want)
		if !slices.Equal(rows, want) {
			t.Errorf("%s: %d rows, want %d", tc.name, len(rows), len(want))
		}
		mem.AssertSize(t, 0)
	}
}
