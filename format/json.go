package format

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteJSON writes the rows as a JSON array of objects keyed by column
// name. Numbers (decimals included, as exact plain text) are JSON numbers;
// NaN and infinities, which JSON lacks, are strings.
func WriteJSON(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	bw := bufio.NewWriter(w)
	keys := make([][]byte, schema.NumFields())
	for i, f := range schema.Fields() {
		keys[i], _ = json.Marshal(f.Name)
	}
	bw.WriteByte('[')
	first := true
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			if !first {
				bw.WriteByte(',')
			}
			first = false
			bw.WriteString("\n  {")
			for c, col := range b.Columns() {
				if c > 0 {
					bw.WriteString(", ")
				}
				bw.Write(keys[c])
				bw.WriteString(": ")
				bw.WriteString(jsonValue(col, r))
			}
			bw.WriteByte('}')
		}
	}
	if !first {
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

func jsonValue(col arrow.Array, r int) string {
	if IsNull(col, r) {
		return "null"
	}
	s := Value(col, r)
	switch col.DataType().ID() {
	case arrow.BOOL:
		return s
	case arrow.FLOAT64, arrow.FLOAT32:
		if s == "NaN" || s == "Infinity" || s == "-Infinity" {
			return `"` + s + `"`
		}
		return s
	}
	if isNumeric(col.DataType()) {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}
