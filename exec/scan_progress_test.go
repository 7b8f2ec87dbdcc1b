package exec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/catalog"
	"gq/expr"
)

// writeKV writes k = 0..299, v = k*k in row groups of 100 rows (k sorted,
// so min/max prune) and returns each row group's compressed chunk sizes.
func writeKV(t *testing.T) (string, [][]int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kv.parquet")
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	for i := range 300 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		bld.Field(1).(*array.Int64Builder).Append(int64(i * i))
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
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var sizes [][]int64
	for rg := range r.NumRowGroups() {
		var cols []int64
		for c := range 2 {
			cc, err := r.MetaData().RowGroup(rg).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, cc.TotalCompressedSize())
		}
		sizes = append(sizes, cols)
	}
	return path, sizes
}

// TestTrackScanBytes checks that a Parquet scan counts the compressed
// bytes of the projected columns of the row groups it reads: all of them
// when reading everything, one column's when projecting it, and only the
// unpruned row groups' under a filter. Done reaches Total once it ran.
func TestTrackScanBytes(t *testing.T) {
	path, sizes := writeKV(t)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := catalog.OpenFile("kv", path)
	if err != nil {
		t.Fatal(err)
	}
	kOnly := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}}, nil)
	both := arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64}, {Name: "v", Type: expr.Int64}}, nil)
	ge250 := &expr.Call{Fn: "ge", Type: expr.Boolean, Args: []expr.Expr{col(0, expr.Int64), &expr.Literal{Value: int64(250), Type: expr.Int64}}}
	for _, tc := range []struct {
		name   string
		scan   *Scan
		want   int64
		rowsOK int
	}{
		{"all columns", &Scan{Table: tbl, Columns: []int{0, 1}, Out: both},
			sizes[0][0] + sizes[0][1] + sizes[1][0] + sizes[1][1] + sizes[2][0] + sizes[2][1], 300},
		{"k only", &Scan{Table: tbl, Columns: []int{0}, Out: kOnly}, sizes[0][0] + sizes[1][0] + sizes[2][0], 300},
		{"k >= 250", &Scan{Table: tbl, Columns: []int{0}, Out: kOnly, Filter: ge250}, sizes[2][0], 50},
	} {
		p := &Progress{}
		tracked, ok := TrackScanBytes(tc.scan, p)
		if !ok {
			t.Fatalf("%s: a Parquet scan was not tracked in bytes", tc.name)
		}
		if tc.scan.Table != tbl {
			t.Errorf("%s: tracking changed the plan's scan", tc.name)
		}
		if p.Total.Load() != tc.want || tc.want <= 0 || tc.want >= st.Size() {
			t.Errorf("%s: total %d bytes, want %d (file %d)", tc.name, p.Total.Load(), tc.want, st.Size())
		}
		if p.Done.Load() != 0 {
			t.Errorf("%s: %d bytes done before running", tc.name, p.Done.Load())
		}
		rows, err := runRows(t, memory.NewGoAllocator(), 2, 64, tracked)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != tc.rowsOK {
			t.Errorf("%s: %d rows through the counting table, want %d", tc.name, len(rows), tc.rowsOK)
		}
		if p.Done.Load() != p.Total.Load() {
			t.Errorf("%s: done %d of %d bytes after the run", tc.name, p.Done.Load(), p.Total.Load())
		}
		if _, ok := tracked.(*Scan).Table.(catalog.FilteredTable); !ok {
			t.Errorf("%s: the counting wrapper hid ReadFiltered", tc.name)
		}
	}
}

// TestTrackScanBytesNeedsFiles checks the fallback: a leaf that is not a
// scan of a sized table leaves the plan alone and reports false.
func TestTrackScanBytesNeedsFiles(t *testing.T) {
	src := &testSource{schema: arrow.NewSchema([]arrow.Field{{Name: "a", Type: expr.Int64}}, nil)}
	p := &Progress{}
	if n, ok := TrackScanBytes(src, p); ok || n != src || p.Total.Load() != 0 {
		t.Errorf("tracked a test source in bytes (total %d)", p.Total.Load())
	}
}
