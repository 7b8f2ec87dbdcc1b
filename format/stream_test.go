package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// countingBatches makes n rows of one BIGINT column (0..n-1) in batches of
// size rows, allocated from mem.
func countingBatches(mem memory.Allocator, n, size int) (*arrow.Schema, []arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: expr.Int64}}, nil)
	var out []arrow.RecordBatch
	for start := 0; start < n; start += size {
		b := array.NewInt64Builder(mem)
		for v := start; v < min(start+size, n); v++ {
			b.Append(int64(v))
		}
		col := b.NewArray()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len())))
		col.Release()
		b.Release()
	}
	return schema, out
}

// TestRowWritersStream: every mode writes a result fed batch by batch as
// it writes it whole, and table mode holds only the batches of the rows it
// shows while the rest pass through (a result of any size stays bounded).
func TestRowWritersStream(t *testing.T) {
	for _, mode := range Modes {
		for _, opts := range []Options{{}, {MaxRows: 40}} {
			schema, batches := countingBatches(memory.DefaultAllocator, 1000, 7)
			var whole, streamed bytes.Buffer
			if err := Writer(mode)(&whole, schema, batches, opts); err != nil {
				t.Fatal(err)
			}
			rw := NewRowWriter(mode, &streamed, schema, opts)
			for _, b := range batches {
				if err := rw.Write(b); err != nil {
					t.Fatal(err)
				}
				b.Release()
			}
			if err := rw.Close(); err != nil {
				t.Fatal(err)
			}
			if whole.String() != streamed.String() {
				t.Fatalf("%s %+v: streamed output differs", mode, opts)
			}
		}
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	const rows, size = 3 * TableMaxRows, 1000
	schema, batches := countingBatches(mem, rows, size)
	var out bytes.Buffer
	rw := NewRowWriter("table", &out, schema, Options{})
	for _, b := range batches {
		if err := rw.Write(b); err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	// The head's and the window's batches, and no more: a batch or two
	// beyond the rows shown.
	if held, most := mem.CurrentAlloc(), (TableMaxRows+2*size)*8*2; held > most {
		t.Fatalf("table mode holds %d bytes for %d rows shown (at most %d)", held, TableMaxRows, most)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)
	text := out.String()
	cells := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		cells[strings.Trim(line, "│ ")] = true
	}
	for _, want := range []string{"0", "49999", "250000", "299999"} {
		if !cells[want] {
			t.Fatalf("table output lacks row %s", want)
		}
	}
	if cells["50000"] || cells["249999"] {
		t.Fatal("table output shows rows between its head and tail")
	}
	if !strings.Contains(text, "300000 rows (100000 shown)") {
		t.Fatal("table output does not say how many rows it shows")
	}
}
