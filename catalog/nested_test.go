package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The list, struct and map columns DuckDB wrote hold [i, i+1],
// {'a': i, 'b': 'x'} and map(['k'], [i]) in row id = i.
func TestDuckDBNestedColumns(t *testing.T) {
	tb, err := OpenFile("d", "testdata/duckdb/duck_types.parquet")
	if err != nil {
		t.Fatal(err)
	}
	mem := countedAllocator(t)
	rows := 0
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(t.Context(), s, []int{8, 0, 7, 6}, 333, mem, func(b arrow.RecordBatch) error {
			defer b.Release()
			m, id, st, l := b.Column(0).(*array.Map), b.Column(1).(*array.Int64), b.Column(2).(*array.Struct), b.Column(3).(*array.List)
			for r := 0; r < int(b.NumRows()); r++ {
				i := id.Value(r)
				if got, want := nestedText(l, r), fmt.Sprintf("[%d %d]", i, i+1); got != want {
					t.Fatalf("row %d: l %s, want %s", i, got, want)
				}
				if got, want := nestedText(st, r), fmt.Sprintf("{a:%d b:x}", i); got != want {
					t.Fatalf("row %d: st %s, want %s", i, got, want)
				}
				if got, want := nestedText(m, r), fmt.Sprintf("{k=%d}", i); got != want {
					t.Fatalf("row %d: m %s, want %s", i, got, want)
				}
				rows++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if rows != 1000 {
		t.Errorf("%d rows, want 1000", rows)
	}
}

// Large and fixed-size lists become lists, leaves are normalised at any
// depth, a sliced read (row groups of 4 rows, batches of 2) keeps each
// row's values, and a column with an unreadable child stays unreadable.
func TestNestedNormalized(t *testing.T) {
	mem := memory.NewGoAllocator()
	huge := &arrow.Decimal256Type{Precision: 40, Scale: 0} // no gq type: its struct stays unreadable
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "ll", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "fl", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int16), Nullable: true},
		{Name: "st", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
			arrow.Field{Name: "ys", Type: arrow.ListOf(arrow.BinaryTypes.LargeString), Nullable: true}), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "bad", Type: arrow.StructOf(arrow.Field{Name: "when", Type: huge, Nullable: true}), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	const n = 7
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int32Builder).Append(int32(i))
		ll := b.Field(1).(*array.LargeListBuilder)
		fl := b.Field(2).(*array.FixedSizeListBuilder)
		st := b.Field(3).(*array.StructBuilder)
		m := b.Field(4).(*array.MapBuilder)
		bad := b.Field(5).(*array.StructBuilder)
		// arrow-go's writer refuses NULL fixed-size lists and writes the
		// first row group's values into every later one: this column has
		// no NULLs, and sliced fixed-size lists are tested on their own.
		fl.Append(true)
		fl.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{int16(i % 4), -int16(i % 4)}, nil)
		if i%3 == 2 {
			ll.AppendNull()
			st.AppendNull()
			m.AppendNull()
			bad.AppendNull()
			continue
		}
		ll.Append(true)
		for j := 0; j < i; j++ {
			ll.ValueBuilder().(*array.Int32Builder).Append(int32(10*i + j))
		}
		st.Append(true)
		st.FieldBuilder(0).(*array.Int8Builder).Append(int8(i))
		ys := st.FieldBuilder(1).(*array.ListBuilder)
		ys.Append(true)
		ys.ValueBuilder().(*array.LargeStringBuilder).Append(strings.Repeat("y", i))
		m.Append(true)
		m.KeyBuilder().(*array.StringBuilder).Append("k")
		m.ItemBuilder().(*array.Float32Builder).Append(float32(i) / 2)
		bad.Append(true)
		bad.FieldBuilder(0).(*array.Decimal256Builder).Append(decimal256.FromI64(int64(i)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "nested.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(4)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
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
	want := "id int64, ll list<element: int64, nullable>, fl list<element: int64, nullable>, " +
		"st struct<x: int64 nullable, ys: list<element: utf8, nullable> nullable>, m map<utf8, float64, items_nullable>"
	if got := schemaOf(tb); got != want {
		t.Errorf("schema %s\nwant   %s", got, want)
	}
	if u := Unreadable(tb); len(u) != 1 || u[0].Name != "bad" || !strings.Contains(u[0].Why, "when") {
		t.Errorf("unreadable %+v, want bad naming its field when", u)
	}
	var got []string
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(t.Context(), s, []int{4, 3, 2, 1, 0}, 2, countedAllocator(t), func(b arrow.RecordBatch) error {
			defer b.Release()
			for c := range b.NumCols() {
				if !arrow.TypeEqual(b.Column(int(c)).DataType(), b.Schema().Field(int(c)).Type) {
					t.Errorf("column %d has type %s, schema says %s", c, b.Column(int(c)).DataType(), b.Schema().Field(int(c)).Type)
				}
			}
			for r := 0; r < int(b.NumRows()); r++ {
				var row []string
				for _, col := range b.Columns() {
					row = append(row, nestedText(col, r))
				}
				got = append(got, strings.Join(row, " | "))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	wantRows := []string{
		"{k=0} | {x:0 ys:[]} | [0 0] | [] | 0",
		"{k=0.5} | {x:1 ys:[y]} | [1 -1] | [10] | 1",
		"NULL | NULL | [2 -2] | NULL | 2",
		"{k=1.5} | {x:3 ys:[yyy]} | [3 -3] | [30 31 32] | 3",
		"{k=2} | {x:4 ys:[yyyy]} | [0 0] | [40 41 42 43] | 4",
		"NULL | NULL | [1 -1] | NULL | 5",
		"{k=3} | {x:6 ys:[yyyyyy]} | [2 -2] | [60 61 62 63 64 65] | 6",
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
}

// nestedText spells a nested value compactly for the tests: lists
// [a b], structs {f:v g:w}, maps {k=v}.
func nestedText(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	var parts []string
	switch a := a.(type) {
	case *array.Map:
		s, e := a.ValueOffsets(i)
		kv := a.ListValues().(*array.Struct)
		for j := s; j < e; j++ {
			parts = append(parts, nestedText(kv.Field(0), int(j))+"="+nestedText(kv.Field(1), int(j)))
		}
		return "{" + strings.Join(parts, " ") + "}"
	case *array.List:
		s, e := a.ValueOffsets(i)
		for j := s; j < e; j++ {
			parts = append(parts, nestedText(a.ListValues(), int(j)))
		}
		return "[" + strings.Join(parts, " ") + "]"
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		for f := 0; f < a.NumField(); f++ {
			parts = append(parts, st.Field(f).Name+":"+nestedText(a.Field(f), i))
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	return a.ValueStr(i)
}

// A fixed-size list sliced away from its start keeps its rows' values.
func TestNormalizeSlicedFixedSizeList(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := array.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Int32)
	defer b.Release()
	for i := range 5 {
		if i == 3 {
			b.AppendNull() // appends the child's slots too
			continue
		}
		b.Append(true)
		b.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(i), int32(10 * i)}, nil)
	}
	a := b.NewArray()
	defer a.Release()
	s := array.NewSlice(a, 2, 5)
	defer s.Release()
	want, why := nestedType("x", arrow.Field{Name: "f", Type: a.DataType()})
	if why != "" {
		t.Fatal(why)
	}
	got, err := normalizeNested(s, want, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	var parts []string
	for i := range got.Len() {
		parts = append(parts, nestedText(got, i))
	}
	if g := strings.Join(parts, " "); g != "[2 20] NULL [4 40]" {
		t.Errorf("got %s (%s)", g, got.DataType())
	}
}

// A legacy two-level list whose element is a list (a repeated
// LIST-annotated group) reads as a list of lists, as DuckDB reads it
// ([[1, 2], [3, 4]]), not as pqarrow's list of one-field structs.
func TestLegacyListOfLists(t *testing.T) {
	tb, err := OpenFile("o", "../testdata/parquet-testing/data/old_list_structure.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(tb); got != "a list<element: list<element: int64, nullable>, nullable>" {
		t.Errorf("schema %s", got)
	}
	var got []string
	err = tb.Read(t.Context(), 0, []int{0}, 10, countedAllocator(t), func(b arrow.RecordBatch) error {
		defer b.Release()
		for r := 0; r < int(b.NumRows()); r++ {
			got = append(got, nestedText(b.Column(0), r))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, " "); g != "[[1 2] [3 4]]" {
		t.Errorf("rows %s", g)
	}
}

// A list of NULL-typed values (null_list.parquet: one empty list) reads;
// the NULL type is a gq type only inside a nested value.
func TestListOfNulls(t *testing.T) {
	tb, err := OpenFile("n", "../testdata/parquet-testing/data/null_list.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if u := Unreadable(tb); len(u) != 0 {
		t.Errorf("unreadable %+v", u)
	}
	err = tb.Read(t.Context(), 0, []int{0}, 10, countedAllocator(t), func(b arrow.RecordBatch) error {
		defer b.Release()
		if b.NumRows() != 1 || nestedText(b.Column(0), 0) != "[]" {
			t.Errorf("%d rows, first %s", b.NumRows(), nestedText(b.Column(0), 0))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
