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
	for _, b := range batches {
		cols := b.Columns()
		for r := 0; r < int(b.NumRows()); r++ {
			for c, col := range cols {
				if c > 0 {
					bw.WriteByte(',')
				}
				writeCSVField(bw, Value(col, r))
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
