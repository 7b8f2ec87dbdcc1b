package format

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden/format")

const goldenDir = "../testdata/golden/format"

// checkGolden compares got with the golden file name, or rewrites it
// under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./format -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestGoldenModes writes the every-type sample in each mode.
func TestGoldenModes(t *testing.T) {
	schema, batches := sample(t)
	for _, mode := range Modes {
		var buf bytes.Buffer
		if err := Writer(mode)(&buf, schema, batches, Options{}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, mode+".golden", buf.Bytes())
	}
}

// wide returns rows×cols Int64 values r*cols+c spread over batches of 7
// rows, plus a String column, so head/tail picks cross batch borders.
func wide(t *testing.T, rows, cols int) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	var fields []arrow.Field
	for c := range cols {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("column_%02d", c), Type: expr.Int64})
	}
	fields = append(fields, arrow.Field{Name: "label", Type: expr.String, Nullable: true})
	schema := arrow.NewSchema(fields, nil)
	var batches []arrow.RecordBatch
	for start := 0; start < rows; start += 7 {
		bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
		for r := start; r < min(start+7, rows); r++ {
			for c := range cols {
				bld.Field(c).(*array.Int64Builder).Append(int64(r*cols + c))
			}
			bld.Field(cols).(*array.StringBuilder).Append(fmt.Sprintf("row %d", r))
		}
		batches = append(batches, bld.NewRecordBatch())
		bld.Release()
	}
	return schema, batches
}

// TestGoldenTableLimits checks head+tail with the row count and the
// column cut at the terminal width.
func TestGoldenTableLimits(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows, cols int
		opts       Options
	}{
		{"table_maxrows.golden", 100, 2, Options{MaxRows: 10}},
		{"table_maxwidth.golden", 5, 12, Options{MaxWidth: 80}},
		{"table_both.golden", 50, 12, Options{MaxRows: 6, MaxWidth: 60}},
		{"table_narrow.golden", 3, 3, Options{MaxWidth: 12}},
	} {
		schema, batches := wide(t, tc.rows, tc.cols)
		var buf bytes.Buffer
		if err := WriteTableOpts(&buf, schema, batches, tc.opts); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, tc.name, buf.Bytes())
		if tc.opts.MaxWidth > 0 {
			// Every line of the box fits the terminal (the count line may wrap).
			for _, l := range strings.Split(buf.String(), "\n") {
				if strings.HasPrefix(l, "│") && textWidth(l) > tc.opts.MaxWidth {
					t.Errorf("%s: line of width %d > %d: %s", tc.name, textWidth(l), tc.opts.MaxWidth, l)
				}
			}
		}
	}
}
