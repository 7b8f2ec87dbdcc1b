package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"gq/expr"
)

// A legacy TIMESTAMP_MICROS/MILLIS converted type (no logical type) reads
// as TIMESTAMP, as DuckDB reads it, at the top level and inside a struct;
// a TIMESTAMP logical type adjusted to UTC stays TIMESTAMPTZ.
func TestLegacyTimestampsNaive(t *testing.T) {
	must := func(n schema.Node, err error) schema.Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	legacy := must(schema.NewPrimitiveNodeConverted("legacy", parquet.Repetitions.Required, parquet.Types.Int64, schema.ConvertedTypes.TimestampMicros, 0, 0, 0, -1))
	inner := must(schema.NewPrimitiveNodeConverted("at", parquet.Repetitions.Required, parquet.Types.Int64, schema.ConvertedTypes.TimestampMillis, 0, 0, 0, -1))
	group := must(schema.NewGroupNode("s", parquet.Repetitions.Required, schema.FieldList{inner}, -1))
	utc := must(schema.NewPrimitiveNodeLogical("utc", parquet.Repetitions.Required, schema.NewTimestampLogicalType(true, schema.TimeUnitMicros), parquet.Types.Int64, 0, -1))
	root := must(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{legacy, group, utc}, -1)).(*schema.GroupNode)

	path := filepath.Join(t.TempDir(), "legacy.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := file.NewParquetWriter(f, root)
	rg := w.AppendRowGroup()
	for _, v := range []int64{1_700_000_000_000_000, 1_700_000_000_000, 1_700_000_000_000_000} {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch([]int64{v}, nil, nil); err != nil {
			t.Fatal(err)
		}
		cw.Close()
	}
	rg.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	_, _, gqs, bad, err := readParquetFooter(path)
	if err != nil || len(bad) > 0 {
		t.Fatalf("footer: %v, unreadable %v", err, bad)
	}
	want := map[string]arrow.DataType{
		"legacy": expr.Timestamp,
		"s":      arrow.StructOf(arrow.Field{Name: "at", Type: expr.Timestamp, Nullable: true}),
		"utc":    expr.TimestampTZ,
	}
	for _, fld := range gqs.Fields() {
		if !arrow.TypeEqual(fld.Type, want[fld.Name]) {
			t.Errorf("column %s reads as %s, want %s", fld.Name, fld.Type, want[fld.Name])
		}
	}

	// The values are the stored ones, in µs, under the naive type.
	tb, err := OpenFile("legacy", path)
	if err != nil {
		t.Fatal(err)
	}
	err = tb.Read(context.Background(), 0, []int{0, 1, 2}, 2, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
		defer b.Release()
		for c := range 3 {
			if !arrow.TypeEqual(b.Column(c).DataType(), gqs.Field(c).Type) {
				t.Errorf("column %d: batch type %s, schema %s", c, b.Column(c).DataType(), gqs.Field(c).Type)
			}
		}
		legacy := b.Column(0).(*array.Timestamp).Value(0)
		at := b.Column(1).(*array.Struct).Field(0).(*array.Timestamp).Value(0)
		if legacy != 1_700_000_000_000_000 || at != 1_700_000_000_000_000 {
			t.Errorf("values %d and %d, want 1700000000000000 µs both", legacy, at)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
