package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// ReadDictionaries gives the rows Read gives: a string batch that is
// dictionary-encoded throughout as a Dictionary array (indices into the
// row group's dictionary), the rest — batches that reach a chunk's PLAIN
// fallback pages, a column with NULLs, other types — as Read has them.
func TestReadDictionaries(t *testing.T) {
	str := arrow.BinaryTypes.String
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "mode", Type: str},
		{Name: "note", Type: str}, {Name: "nmode", Type: str, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 6000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("m%d", (i*7+i/2500)%5+i/2500))
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("note %d, distinct: the dictionary overflows", i))
		if i%7 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("n%d", i%3))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	writeParquetWith(t, path, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(2500),
		parquet.WithDataPageSize(700), parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(2048),
		parquet.WithStats(true)))
	tb, err := OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	pt := tb.(*ParquetTable)
	cols := []int{0, 1, 2, 3, 1}
	dicts := map[string]int{}
	batches := 0
	for s := range pt.NumSplits() {
		var want, got []arrow.RecordBatch
		collect := func(to *[]arrow.RecordBatch) func(arrow.RecordBatch) error {
			return func(b arrow.RecordBatch) error { *to = append(*to, b); return nil }
		}
		if err := pt.Read(context.Background(), s, cols, 300, memory.DefaultAllocator, collect(&want)); err != nil {
			t.Fatal(err)
		}
		if err := pt.ReadDictionaries(context.Background(), s, cols, 300, memory.DefaultAllocator, collect(&got)); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("split %d: %d batches, want %d", s, len(got), len(want))
		}
		batches += len(want)
		for i := range want {
			for c := range cols {
				x, y := want[i].Column(c), got[i].Column(c)
				if d, ok := y.(*array.Dictionary); ok {
					dicts[schema.Field(cols[c]).Name]++
					if !arrow.TypeEqual(got[i].Schema().Field(c).Type, d.DataType()) {
						t.Fatalf("split %d batch %d: column %d is %s, its schema says %s", s, i, c, d.DataType(), got[i].Schema().Field(c).Type)
					}
					for r := range x.Len() {
						if x.IsNull(r) || d.IsNull(r) || x.ValueStr(r) != d.Dictionary().ValueStr(d.GetValueIndex(r)) {
							t.Fatalf("split %d batch %d column %d row %d: %s through the dictionary, want %s", s, i, c, r, d.ValueStr(r), x.ValueStr(r))
						}
					}
				} else if !array.Equal(x, y) {
					t.Fatalf("split %d batch %d column %d: %v, want %v", s, i, c, y, x)
				}
			}
			want[i].Release()
			got[i].Release()
		}
	}
	// mode twice (both positions) in every batch; note in the batches
	// before its dictionary overflowed; nmode (NULLs) never.
	if dicts["mode"] != 2*batches || dicts["note"] == 0 || dicts["note"] >= batches || dicts["nmode"] != 0 {
		t.Errorf("Dictionary batches by column: %v, of %d batches", dicts, batches)
	}
}
