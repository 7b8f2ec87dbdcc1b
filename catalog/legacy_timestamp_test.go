package catalog

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// int96 is the INT96 of Julian day jd and nanoseconds of the day ns.
func int96(jd int32, ns int64) (v parquet.Int96) {
	binary.LittleEndian.PutUint64(v[:8], uint64(ns))
	binary.LittleEndian.PutUint32(v[8:], uint32(jd))
	return v
}

// INT96 timestamps (Spark's and Impala's) read as TIMESTAMP µs over the
// whole range DuckDB reads, years 1 to 9999 and beyond 1677-2262 where
// arrow-go's nanoseconds end; a day past the µs range is an error naming
// the column.
func TestInt96Timestamps(t *testing.T) {
	write := func(vals []parquet.Int96, defs []int16) string {
		t.Helper()
		node, err := schema.NewPrimitiveNode("ts", parquet.Repetitions.Optional, parquet.Types.Int96, -1, -1)
		if err != nil {
			t.Fatal(err)
		}
		root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{node}, -1)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "i96.parquet")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := file.NewParquetWriter(f, root)
		rg := w.AppendRowGroup()
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int96ColumnChunkWriter).WriteBatch(vals, defs, nil); err != nil {
			t.Fatal(err)
		}
		cw.Close()
		rg.Close()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	read := func(path string) ([]string, error) {
		tb, err := OpenFile("i96", path)
		if err != nil {
			return nil, err
		}
		if typ := tb.Schema().Field(0).Type; !arrow.TypeEqual(typ, expr.Timestamp) {
			t.Errorf("INT96 reads as %s, want TIMESTAMP", typ)
		}
		var got []string
		err = tb.Read(context.Background(), 0, []int{0}, 16, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
			defer b.Release()
			a := b.Column(0).(*array.Timestamp)
			for i := range a.Len() {
				if a.IsNull(i) {
					got = append(got, "NULL")
				} else {
					got = append(got, a.Value(i).ToTime(arrow.Microsecond).Format("2006-01-02 15:04:05.999999"))
				}
			}
			return nil
		})
		return got, err
	}
	const epoch = 2_440_588
	path := write([]parquet.Int96{
		int96(1_721_426, 0),                  // 0001-01-01
		int96(5_373_484, 86_399_999_999_999), // 9999-12-31 23:59:59.999999999
		int96(epoch, 1_999),                  // nanoseconds truncated
		int96(epoch-1, 3_600_000_000_000),    // 1969-12-31 01:00
	}, []int16{1, 1, 0, 1, 1})
	got, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0001-01-01 00:00:00", "9999-12-31 23:59:59.999999", "NULL", "1970-01-01 00:00:00.000001", "1969-12-31 01:00:00"}
	if !slices.Equal(got, want) {
		t.Errorf("INT96 values %q, want %q", got, want)
	}

	// A Julian day that overflowed on write (as Spark's year-290000 value
	// in parquet-testing's int96_from_spark) is an error, not a date.
	_, err = read(write([]parquet.Int96{int96(-105_862_232, 0)}, []int16{1}))
	if err == nil || !strings.Contains(err.Error(), "column ts") || !strings.Contains(err.Error(), "out of the TIMESTAMP range") {
		t.Errorf("overflowed INT96 day: err %v, want an error naming column ts", err)
	}
}
