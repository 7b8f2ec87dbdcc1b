package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteLine writes each row as "name = value" lines, names right-aligned,
// rows separated by a blank line (sqlite's and DuckDB's .mode line): the
// readable form for wide rows.
func WriteLine(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return writeAll(newLineWriter(w, schema), batches)
}

type lineWriter struct {
	bw     *bufio.Writer
	schema *arrow.Schema
	width  int
	first  bool
}

func newLineWriter(w io.Writer, schema *arrow.Schema) *lineWriter {
	lw := &lineWriter{bw: bufio.NewWriter(w), schema: schema, first: true}
	for _, f := range schema.Fields() {
		lw.width = max(lw.width, textWidth(f.Name))
	}
	return lw
}

func (lw *lineWriter) Write(b arrow.RecordBatch) error {
	for r := 0; r < int(b.NumRows()); r++ {
		if !lw.first {
			lw.bw.WriteByte('\n')
		}
		lw.first = false
		for c, col := range b.Columns() {
			name := lw.schema.Field(c).Name
			v := "NULL"
			if !IsNull(col, r) {
				v = Value(col, r)
			}
			lw.bw.WriteString(strings.Repeat(" ", lw.width-textWidth(name)) + name + " = " + v + "\n")
		}
	}
	return nil
}

func (lw *lineWriter) Close() error { return lw.bw.Flush() }
