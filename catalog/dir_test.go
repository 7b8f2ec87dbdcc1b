package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

func TestRegisterDir(t *testing.T) {
	dir := t.TempDir()
	for i, p := range []string{"A.parquet", "b/1.parquet", "b/2.parquet"} {
		rec := sampleRecord(t, i*10)
		writeFile(t, filepath.Join(dir, p), "") // creates b/
		writeParquet(t, filepath.Join(dir, p), rec, 4)
		rec.Release()
	}
	writeFile(t, filepath.Join(dir, "c.csv"), "x\n1\n2\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "ignored")
	writeFile(t, filepath.Join(dir, "empty/readme"), "a directory without parquet files is ignored")

	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "a,b,c" {
		t.Errorf("names = %s", got)
	}
	b, _ := c.Table("B")
	if b.NumSplits() != 6 || b.Stats().RowCount != 20 {
		t.Errorf("b: %d splits, %d rows", b.NumSplits(), b.Stats().RowCount)
	}
	rows := readAll(t, b, []int{0}, 100)
	if len(rows) != 20 || rows[0][0] != "10" || rows[10][0] != "20" {
		t.Errorf("b rows (1.parquet first) = %v", rows)
	}
	cs, _ := c.Table("c")
	if rows := readAll(t, cs, []int{0}, 100); len(rows) != 2 {
		t.Errorf("c rows = %v", rows)
	}

	err := New().RegisterDir(filepath.Join(dir, "nope"))
	if !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing dir: %v", err)
	}
}

func TestMemTable(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var batches []arrow.RecordBatch
	for _, n := range []int{5, 0, 3} {
		b := array.NewRecordBuilder(mem, schema)
		for i := 0; i < n; i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			if i == 1 {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append(strings.Repeat("x", i))
			}
		}
		batches = append(batches, b.NewRecordBatch())
		b.Release()
	}
	tb := NewMemTable("m", schema, batches)
	for _, b := range batches {
		b.Release() // the table holds its own references
	}
	if tb.NumSplits() != 2 || tb.Stats().RowCount != 8 {
		t.Errorf("%d splits, %d rows", tb.NumSplits(), tb.Stats().RowCount)
	}
	rows := readAll(t, tb, []int{1, 0}, 2)
	want := []string{"|0", "NULL|1", "xx|2", "xxx|3", "xxxx|4", "|0", "NULL|1", "xx|2"}
	if len(rows) != len(want) {
		t.Fatalf("rows = %q", rows)
	}
	for i, w := range want {
		if got := strings.Join(rows[i], "|"); got != w {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
}
