package engine

import (
	"flag"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

var genNested = flag.Bool("gen-nested", false, "write testdata/sql/data/nested.parquet, the table nested.test reads")

// TestGenNestedData writes the nested table of testdata/sql/nested.test
// (run with -gen-nested): lists, structs, maps and lists of structs of
// lists, with NULLs and empty values at every level, in row groups of 4
// rows so that scans over several splits see them.
func TestGenNestedData(t *testing.T) {
	if !*genNested {
		t.Skip("run with -gen-nested to regenerate testdata/sql/data/nested.parquet")
	}
	mem := memory.NewGoAllocator()
	entry := arrow.StructOf(arrow.Field{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "vs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "nums", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "pt", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "deep", Type: arrow.ListOf(entry), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	type kv struct {
		k string
		v *int64
	}
	type ent struct {
		null bool
		k    *string
		vs   []*int64 // nil: NULL list
		vsOK bool
	}
	i64 := func(v int64) *int64 { return &v }
	str := func(s string) *string { return &s }
	rows := []struct {
		id    int64
		tags  []*string
		nums  []*int32
		pt    []any // nil: NULL struct; else x, y, name (nil entries NULL)
		attrs []kv
		deep  []ent
		nulls bool // tags, nums, attrs, deep NULL
	}{
		{id: 1, tags: []*string{str("a"), str("b")}, nums: []*int32{p32(1), p32(2), p32(3)}, pt: []any{int32(1), 1.5, "p1"},
			attrs: []kv{{"a", i64(1)}, {"b", i64(2)}}, deep: []ent{{k: str("k1"), vs: []*int64{i64(1), i64(2)}, vsOK: true}}},
		{id: 2, tags: []*string{}, nums: []*int32{nil, p32(5)}, pt: []any{int32(2), nil, nil}, attrs: []kv{}, deep: []ent{}},
		{id: 3, nulls: true},
		{id: 4, tags: []*string{str("x y"), str("c,d")}, nums: []*int32{p32(7)}, pt: []any{int32(4), -2.25, "it's"},
			attrs: []kv{{"z", nil}}, deep: []ent{{}, {null: true}}},
		{id: 5, tags: []*string{nil}, nums: []*int32{p32(10), p32(20), p32(30), p32(40)}, pt: []any{int32(5), 0.0, "p5"},
			attrs: []kv{{"a", i64(5)}}, deep: []ent{{k: str("k5"), vs: []*int64{}, vsOK: true}}},
		{id: 6, tags: []*string{str("e")}, nums: []*int32{}, pt: []any{nil, nil, nil},
			attrs: []kv{{"c", i64(6)}, {"d", i64(7)}, {"e", i64(8)}},
			deep:  []ent{{k: str("k6"), vs: []*int64{i64(6)}, vsOK: true}, {k: str("k7"), vs: []*int64{i64(7), nil}, vsOK: true}}},
	}
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		tags, nums := b.Field(1).(*array.ListBuilder), b.Field(2).(*array.ListBuilder)
		pt, attrs, deep := b.Field(3).(*array.StructBuilder), b.Field(4).(*array.MapBuilder), b.Field(5).(*array.ListBuilder)
		if r.pt == nil {
			pt.AppendNull()
		} else {
			pt.Append(true)
			for f, v := range r.pt {
				fb := pt.FieldBuilder(f)
				switch v := v.(type) {
				case nil:
					fb.AppendNull()
				case int32:
					fb.(*array.Int32Builder).Append(v)
				case float64:
					fb.(*array.Float64Builder).Append(v)
				case string:
					fb.(*array.StringBuilder).Append(v)
				}
			}
		}
		if r.nulls {
			tags.AppendNull()
			nums.AppendNull()
			attrs.AppendNull()
			deep.AppendNull()
			continue
		}
		tags.Append(true)
		for _, s := range r.tags {
			if s == nil {
				tags.ValueBuilder().AppendNull()
			} else {
				tags.ValueBuilder().(*array.StringBuilder).Append(*s)
			}
		}
		nums.Append(true)
		for _, v := range r.nums {
			if v == nil {
				nums.ValueBuilder().AppendNull()
			} else {
				nums.ValueBuilder().(*array.Int32Builder).Append(*v)
			}
		}
		attrs.Append(true)
		for _, e := range r.attrs {
			attrs.KeyBuilder().(*array.StringBuilder).Append(e.k)
			if e.v == nil {
				attrs.ItemBuilder().AppendNull()
			} else {
				attrs.ItemBuilder().(*array.Int64Builder).Append(*e.v)
			}
		}
		deep.Append(true)
		eb := deep.ValueBuilder().(*array.StructBuilder)
		for _, e := range r.deep {
			if e.null {
				eb.AppendNull()
				continue
			}
			eb.Append(true)
			if e.k == nil {
				eb.FieldBuilder(0).AppendNull()
			} else {
				eb.FieldBuilder(0).(*array.StringBuilder).Append(*e.k)
			}
			vb := eb.FieldBuilder(1).(*array.ListBuilder)
			if !e.vsOK {
				vb.AppendNull()
				continue
			}
			vb.Append(true)
			for _, v := range e.vs {
				if v == nil {
					vb.ValueBuilder().AppendNull()
				} else {
					vb.ValueBuilder().(*array.Int64Builder).Append(*v)
				}
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create("../testdata/sql/data/nested.parquet")
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(4)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func p32(v int32) *int32 { return &v }
