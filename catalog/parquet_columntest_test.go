package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestColumnTests checks filters whose conjuncts are column tests against
// filtering in Go: test-only columns (index mode) and columns also emitted
// or read by Select (value mode); dictionary, plain and mixed chunks (a
// dictionary that overflows falls back to PLAIN pages mid-chunk); NULLs;
// two tests on one column; the direct and pqarrow readers.
func TestColumnTests(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "mode", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String},
		{Name: "nmode", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	modes := []string{"AIR", "MAIL", "SHIP", "", "TRUCK"}
	const rows = 6000
	note := func(i int) string { return fmt.Sprintf("note-%d", i*7919%5003) }
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(modes[i*i%5])
		b.Field(2).(*array.StringBuilder).Append(note(i))
		if i%4 == 1 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(modes[i%5])
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	keepStr := func(f func(string) bool) func(arrow.Array) ([]bool, error) {
		return func(vals arrow.Array) ([]bool, error) {
			s := vals.(*array.String)
			out := make([]bool, s.Len())
			for i := range out {
				out[i] = s.IsValid(i) && f(s.Value(i))
			}
			return out, nil
		}
	}
	airMail := ColumnTest{Col: 1, Keep: keepStr(func(s string) bool { return s == "AIR" || s == "MAIL" })}
	notAir := ColumnTest{Col: 1, Keep: keepStr(func(s string) bool { return s != "AIR" })}
	has7 := ColumnTest{Col: 2, Keep: keepStr(func(s string) bool { return strings.Contains(s, "7") })}
	ship := ColumnTest{Col: 3, Keep: keepStr(func(s string) bool { return s == "SHIP" })}
	cases := []struct {
		name  string
		tests []ColumnTest
		emit  []int
		// select over columns 0 (k) and 1 (mode) when set
		sel  func(k int64, mode string) bool
		want func(i int) bool
	}{
		{"mode test-only", []ColumnTest{airMail}, []int{0}, nil,
			func(i int) bool { m := modes[i*i%5]; return m == "AIR" || m == "MAIL" }},
		{"mode twice", []ColumnTest{airMail, notAir}, []int{0}, nil,
			func(i int) bool { return modes[i*i%5] == "MAIL" }},
		{"mode emitted", []ColumnTest{airMail}, []int{0, 1}, nil,
			func(i int) bool { m := modes[i*i%5]; return m == "AIR" || m == "MAIL" }},
		{"mode in Select too", []ColumnTest{airMail}, []int{0},
			func(k int64, mode string) bool { return k%3 == 0 && mode != "MAIL" },
			func(i int) bool { return modes[i*i%5] == "AIR" && i%3 == 0 }},
		{"note and nmode", []ColumnTest{has7, ship}, []int{0}, nil,
			func(i int) bool { return strings.Contains(note(i), "7") && i%4 != 1 && modes[i%5] == "SHIP" }},
		// note emitted but neither tested nor selected on: a lazy column
		// whose mixed chunks give up the filter's rows alone, at a dense,
		// a sparse and, where no row of a batch survives, no selection.
		{"note emitted, dense", []ColumnTest{notAir}, []int{0, 2}, nil,
			func(i int) bool { return modes[i*i%5] != "AIR" }},
		{"note emitted, sparse", []ColumnTest{ship}, []int{0, 2}, nil,
			func(i int) bool { return i%4 != 1 && modes[i%5] == "SHIP" }},
		{"note emitted, most batches empty", []ColumnTest{airMail}, []int{0, 2},
			func(k int64, _ string) bool { return k%1000 < 20 },
			func(i int) bool { m := modes[i*i%5]; return i%1000 < 20 && (m == "AIR" || m == "MAIL") }},
		{"all three", []ColumnTest{ship, airMail, has7}, []int{0, 2},
			func(k int64, _ string) bool { return k%2 == 0 },
			func(i int) bool {
				m := modes[i*i%5]
				return i%2 == 0 && i%4 != 1 && modes[i%5] == "SHIP" && (m == "AIR" || m == "MAIL") && strings.Contains(note(i), "7")
			}},
	}
	for _, layout := range []struct {
		name string
		opts []parquet.WriterProperty
	}{
		{"dict, overflowing", []parquet.WriterProperty{parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(2048)}},
		{"plain", []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
		{"dict v2", []parquet.WriterProperty{parquet.WithDictionaryDefault(true), parquet.WithDataPageVersion(parquet.DataPageV2)}},
	} {
		path := filepath.Join(t.TempDir(), "t.parquet")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		opts := append([]parquet.WriterProperty{parquet.WithMaxRowGroupLength(2500), parquet.WithDataPageSize(700)}, layout.opts...)
		w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
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
		if layout.name == "dict, overflowing" { // note's chunks: dictionary, then PLAIN pages
			cc, err := pt.files[0].md.RowGroup(0).ColumnChunk(2)
			if err != nil {
				t.Fatal(err)
			}
			plainData, dictData := false, false
			for _, st := range cc.EncodingStats() {
				if st.PageType == 0 { // DATA_PAGE in the Thrift enum (internal to arrow-go)
					plainData = plainData || st.Encoding == parquet.Encodings.Plain
					dictData = dictData || st.Encoding == parquet.Encodings.RLEDict || st.Encoding == parquet.Encodings.PlainDict
				}
			}
			if !plainData || !dictData {
				t.Fatalf("note is not a mixed chunk: %v", cc.EncodingStats())
			}
		}
		for _, tc := range cases {
			rf := &RowFilter{Tests: tc.tests, Emit: tc.emit}
			if tc.sel != nil {
				rf.Columns = []int{0, 1}
				rf.Select = func(b arrow.RecordBatch, cand, sel []int32) ([]int32, error) {
					k, m := b.Column(0).(*array.Int64), b.Column(1).(*array.String)
					if cand == nil {
						cand = identityInto(nil, int(b.NumRows()))
					}
					out := sel[:0]
					for _, r := range cand {
						if tc.sel(k.Value(int(r)), m.Value(int(r))) {
							out = append(out, r)
						}
					}
					return out, nil
				}
			} else {
				rf.Select = func(b arrow.RecordBatch, cand, sel []int32) ([]int32, error) {
					if cand == nil {
						return identityInto(sel, int(b.NumRows())), nil
					}
					return cand, nil
				}
			}
			var want []string
			for i := range rows {
				if tc.want(i) {
					row := fmt.Sprint(i)
					if len(tc.emit) > 1 {
						row += "|" + map[int]string{1: modes[i*i%5], 2: note(i)}[tc.emit[1]]
					}
					want = append(want, row)
				}
			}
			for _, direct := range []bool{true, false} {
				saved := pt.direct
				if !direct {
					pt.direct = nil
				}
				for _, bs := range []int{1000, 333} {
					got := readTested(t, pt, []int{0, 1, 2, 3}, bs, rf)
					slices.Sort(got)
					w := slices.Clone(want)
					slices.Sort(w)
					if !slices.Equal(got, w) {
						t.Errorf("%s, %s, direct=%v, batch %d: %d rows, want %d", layout.name, tc.name, direct, bs, len(got), len(w))
					}
				}
				pt.direct = saved
			}
		}
	}
}

// readTested reads pt through rf and renders the emitted rows as
// "c0|c1|…" strings.
func readTested(t *testing.T, pt *ParquetTable, columns []int, batchSize int, rf *RowFilter) []string {
	t.Helper()
	mem := countedAllocator(t)
	var rows []string
	for s := 0; s < pt.NumSplits(); s++ {
		err := pt.ReadFiltered(context.Background(), s, columns, batchSize, mem, rf, func(b arrow.RecordBatch) error {
			defer b.Release()
			checkCounted(t, mem, b)
			for r := 0; r < int(b.NumRows()); r++ {
				var parts []string
				for c := 0; c < int(b.NumCols()); c++ {
					parts = append(parts, b.Column(c).ValueStr(r))
				}
				rows = append(rows, strings.Join(parts, "|"))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("split %d: %v", s, err)
		}
	}
	return rows
}
