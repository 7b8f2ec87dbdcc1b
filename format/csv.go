package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteCSV writes a header line and one line per row, quoting fields as
// RFC 4180 requires. NULL is an empty field.
func WriteCSV(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	bw := bufio.NewWriter(w)
	for i, f := range schema.Fields() {
		if i > 0 {
			bw.WriteByte(',')
		}
		writeCSVField(bw, f.Name)
	}
	bw.WriteByte('\n')
	var cell []byte
	for _, b := range batches {
		cols := b.Columns()
		// Numbers, decimals, dates and Booleans never need quotes.
		plain := make([]bool, len(cols))
		for c, col := range cols {
			switch col.DataType().ID() {
			case arrow.INT64, arrow.INT32, arrow.DECIMAL64, arrow.DATE32, arrow.BOOL, arrow.FLOAT64:
				plain[c] = true
			}
		}
		for r := 0; r < int(b.NumRows()); r++ {
			for c, col := range cols {
				if c > 0 {
					bw.WriteByte(',')
				}
				cell = AppendValue(cell[:0], col, r)
				if plain[c] {
					bw.Write(cell)
				} else {
					writeCSVBytes(bw, cell)
				}
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func writeCSVField(w *bufio.Writer, s string) {
	if !strings.ContainsAny(s, ",\"\r\n") {
		w.WriteString(s)
		return
	}
	w.WriteByte('"')
	w.WriteString(strings.ReplaceAll(s, `"`, `""`))
	w.WriteByte('"')
}

// writeCSVBytes is writeCSVField over a cell's bytes.
func writeCSVBytes(w *bufio.Writer, s []byte) {
	for _, c := range s {
		if csvSpecial[c] {
			writeCSVField(w, string(s))
			return
		}
	}
	w.Write(s)
}

// csvSpecial marks the bytes that make a field need quotes.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}
