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
	width := 0
	for _, f := range schema.Fields() {
		width = max(width, textWidth(f.Name))
	}
	bw := bufio.NewWriter(w)
	first := true
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			if !first {
				bw.WriteByte('\n')
			}
			first = false
			for c, col := range b.Columns() {
				name := schema.Field(c).Name
				v := "NULL"
				if !IsNull(col, r) {
					v = Value(col, r)
				}
				bw.WriteString(strings.Repeat(" ", width-textWidth(name)) + name + " = " + v + "\n")
			}
		}
	}
	return bw.Flush()
}
