package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestDirectReaderMatchesPqarrow reads the same file through the direct
// decoder and through pqarrow (t.direct cleared) and compares every value,
// over several pages per column (small data pages), dictionary and plain
// encodings, NULLs in every type, and batch sizes that cut pages.
func TestDirectReaderMatchesPqarrow(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
		{Name: "dec9", Type: &arrow.Decimal128Type{Precision: 9, Scale: 3}},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "lowcard", Type: arrow.BinaryTypes.String},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "req64", Type: arrow.PrimitiveTypes.Int64},
		{Name: "reqs", Type: arrow.BinaryTypes.String},
		{Name: "reqf", Type: arrow.PrimitiveTypes.Float64},
		{Name: "reqd", Type: arrow.FixedWidthTypes.Date32},
		{Name: "flag", Type: arrow.BinaryTypes.String},
		// Optional but never NULL, as DuckDB, Spark and pyarrow write
		// every column: pageColumn reads them too.
		{Name: "opt64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "opts", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "optd", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "optdec", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	const rows = 5000
	for i := 0; i < rows; i++ {
		null := i%7 == 3
		app := func(f int, fn func()) {
			if null && schema.Field(f).Nullable {
				b.Field(f).AppendNull()
			} else {
				fn()
			}
		}
		app(0, func() { b.Field(0).(*array.Int64Builder).Append(int64(i*i) - 7) })
		app(1, func() { b.Field(1).(*array.Int32Builder).Append(int32(-i)) })
		app(2, func() { b.Field(2).(*array.Uint32Builder).Append(uint32(4_000_000_000 + i)) })
		app(3, func() { b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i*101 - 3000))) })
		app(4, func() { b.Field(4).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i % 999))) })
		app(5, func() { b.Field(5).(*array.Date32Builder).Append(arrow.Date32(8000 + i%400)) })
		app(6, func() { b.Field(6).(*array.Float64Builder).Append(float64(i) / 3) })
		app(7, func() { b.Field(7).(*array.Float32Builder).Append(float32(i) / 4) })
		app(8, func() {
			b.Field(8).(*array.StringBuilder).Append(fmt.Sprintf("value-%d-%s", i, string(rune('a'+i%26))))
		})
		app(9, func() { b.Field(9).(*array.StringBuilder).Append([]string{"AIR", "MAIL", "SHIP", ""}[i%4]) })
		app(10, func() { b.Field(10).(*array.BooleanBuilder).Append(i%3 == 0) })
		b.Field(11).(*array.Int64Builder).Append(int64(i%1500) * 1_000_003)
		b.Field(12).(*array.StringBuilder).Append(fmt.Sprintf("%x", i*7919%4001))
		b.Field(13).(*array.Float64Builder).Append(float64(i%300) / 7)
		b.Field(14).(*array.Date32Builder).Append(arrow.Date32(10000 + i%900))
		b.Field(15).(*array.StringBuilder).Append([]string{"A", "N", "R"}[i*i%3])
		b.Field(16).(*array.Int64Builder).Append(int64(i%2100) * 17)
		b.Field(17).(*array.StringBuilder).Append([]string{"DELIVER IN PERSON", "NONE", "TAKE BACK RETURN", "COLLECT COD"}[i%4])
		b.Field(18).(*array.Date32Builder).Append(arrow.Date32(9000 + i%2500))
		b.Field(19).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i%97) * 1001))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	for _, layout := range []struct {
		dict bool
		v2   bool
	}{{true, false}, {false, false}, {true, true}} {
		dict := layout.dict
		version := parquet.DataPageV1
		if layout.v2 {
			version = parquet.DataPageV2
		}
		path := filepath.Join(t.TempDir(), fmt.Sprintf("dict%v-v2%v.parquet", dict, layout.v2))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(
			parquet.WithMaxRowGroupLength(1800), parquet.WithDataPageSize(512),
			parquet.WithDictionaryDefault(dict), parquet.WithStoreDecimalAsInteger(true),
			parquet.WithDataPageVersion(version)),
			pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tb, err := OpenFile("t", path)
		if err != nil {
			t.Fatal(err)
		}
		pt := tb.(*ParquetTable)
		cols := []int{8, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 0, 11, 12, 13, 14, 15, 16, 17, 18, 19}
		if !pt.canReadDirect(0, cols) {
			t.Fatalf("dict=%v: direct reader does not take columns %v (kinds %v)", dict, cols, pt.direct)
		}
		// The required columns, and the optional ones without NULLs,
		// decode through pageColumn; the optional ones with NULLs do not.
		rdr, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []int{2, 4, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19} {
			pc, err := pt.pageColumn(rdr.RowGroup(0), nil, c, c, int16(min(c/16, 1)))
			if err != nil || pc == nil {
				t.Fatalf("dict=%v: column %d not read by pageColumn (%v)", dict, c, err)
			}
			pc.pr.Close()
		}
		for _, c := range []int{0, 1, 3, 5, 6, 8} {
			if pc, err := pt.pageColumn(rdr.RowGroup(0), nil, c, c, 1); err != nil || pc != nil {
				t.Fatalf("dict=%v: column %d with NULLs taken by pageColumn (%v)", dict, c, err)
			}
		}
		rdr.Close()
		for _, bs := range []int{1000, 333} {
			got := readAll(t, pt, cols, bs)
			direct := pt.direct
			pt.direct = nil
			want := readAll(t, pt, cols, bs)
			pt.direct = direct
			if len(got) != rows || len(want) != rows {
				t.Fatalf("dict=%v batch=%d: %d and %d rows, want %d", dict, bs, len(got), len(want), rows)
			}
			for r := range got {
				if !slices.Equal(got[r], want[r]) {
					t.Fatalf("dict=%v batch=%d row %d: direct %v, pqarrow %v", dict, bs, r, got[r], want[r])
				}
			}
			// Filtered reads, both paths, against filtering the full read.
			for name, filter := range testFilters() {
				var keep [][]string
				for r, row := range want {
					if filter.keep(r, row) {
						keep = append(keep, row)
					}
				}
				for _, useDirect := range []bool{true, false} {
					if !useDirect {
						pt.direct = nil
					}
					got := readFilteredAll(t, pt, cols, bs, filter.rf)
					pt.direct = direct
					if len(got) != len(keep) {
						t.Fatalf("dict=%v batch=%d filter %s direct=%v: %d rows, want %d", dict, bs, name, useDirect, len(got), len(keep))
					}
					for r := range got {
						if !slices.Equal(got[r], keep[r]) {
							t.Fatalf("dict=%v batch=%d filter %s direct=%v row %d: got %v, want %v", dict, bs, name, useDirect, r, got[r], keep[r])
						}
					}
				}
			}
		}
	}
}

type testFilter struct {
	rf   *RowFilter
	keep func(r int, row []string) bool // on the unfiltered rows, as strings
}

// testFilters are filters over the columns of TestDirectReaderMatchesPqarrow
// (positions in its cols list: 0 is s, 1 is i64, 11 is i64 again).
func testFilters() map[string]testFilter {
	return map[string]testFilter{
		"i64 odd": {
			rf: &RowFilter{Columns: []int{1}, Select: func(b arrow.RecordBatch, _, sel []int32) ([]int32, error) {
				a := b.Column(1).(*array.Int64)
				for i := 0; i < a.Len(); i++ {
					if a.IsValid(i) && a.Value(i)%2 != 0 {
						sel = append(sel, int32(i))
					}
				}
				return sel, nil
			}},
			keep: func(_ int, row []string) bool {
				var v int64
				_, err := fmt.Sscan(row[1], &v)
				return err == nil && v%2 != 0
			},
		},
		"s suffix and i64 twice": {
			rf: &RowFilter{Columns: []int{0, 11}, Select: func(b arrow.RecordBatch, _, sel []int32) ([]int32, error) {
				s := b.Column(0).(*array.String)
				for i := 0; i < s.Len(); i++ {
					if s.IsValid(i) && s.Value(i)[len(s.Value(i))-1] == 'c' {
						sel = append(sel, int32(i))
					}
				}
				return sel, nil
			}},
			keep: func(_ int, row []string) bool { return row[0] != "NULL" && row[0][len(row[0])-1] == 'c' },
		},
		"i64 not null (long runs)": {
			rf: &RowFilter{Columns: []int{1}, Select: func(b arrow.RecordBatch, _, sel []int32) ([]int32, error) {
				for i := 0; i < int(b.NumRows()); i++ {
					if b.Column(1).IsValid(i) {
						sel = append(sel, int32(i))
					}
				}
				return sel, nil
			}},
			keep: func(_ int, row []string) bool { return row[1] != "NULL" },
		},
		"none": {
			rf: &RowFilter{Columns: []int{2}, Select: func(b arrow.RecordBatch, _, sel []int32) ([]int32, error) {
				return sel, nil
			}},
			keep: func(int, []string) bool { return false },
		},
	}
}

// readFilteredAll is readAll through ReadFiltered.
func readFilteredAll(t *testing.T, pt *ParquetTable, columns []int, batchSize int, rf *RowFilter) [][]string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows [][]string
	for s := 0; s < pt.NumSplits(); s++ {
		err := pt.ReadFiltered(context.Background(), s, columns, batchSize, mem, rf, func(b arrow.RecordBatch) error {
			defer b.Release()
			if b.NumRows() == 0 {
				t.Errorf("empty batch emitted")
			}
			for r := 0; r < int(b.NumRows()); r++ {
				row := make([]string, len(columns))
				for i := range columns {
					row[i] = b.Column(i).ValueStr(r)
					if b.Column(i).IsNull(r) {
						row[i] = "NULL"
					}
				}
				rows = append(rows, row)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("split %d: %v", s, err)
		}
	}
	return rows
}
