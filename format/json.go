package format

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// WriteJSON writes the rows as a JSON array of objects keyed by column
// name. Numbers (decimals included, as exact plain text) are JSON numbers;
// NaN and infinities, which JSON lacks, are strings.
func WriteJSON(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return writeAll(newJSONWriter(w, schema), batches)
}

// jsonWriter is JSON's RowWriter: the array opens before the first row
// and closes at Close.
type jsonWriter struct {
	bw    *bufio.Writer
	keys  [][]byte
	first bool
}

func newJSONWriter(w io.Writer, schema *arrow.Schema) *jsonWriter {
	jw := &jsonWriter{bw: bufio.NewWriter(w), keys: jsonKeys(schema), first: true}
	jw.bw.WriteByte('[')
	return jw
}

// jsonKeys are the columns' names as JSON strings.
func jsonKeys(schema *arrow.Schema) [][]byte {
	keys := make([][]byte, schema.NumFields())
	for i, f := range schema.Fields() {
		keys[i], _ = json.Marshal(f.Name)
	}
	return keys
}

func (jw *jsonWriter) Write(b arrow.RecordBatch) error {
	bw := jw.bw
	for r := 0; r < int(b.NumRows()); r++ {
		if !jw.first {
			bw.WriteByte(',')
		}
		jw.first = false
		bw.WriteString("\n  {")
		for c, col := range b.Columns() {
			if c > 0 {
				bw.WriteString(", ")
			}
			bw.Write(jw.keys[c])
			bw.WriteString(": ")
			bw.WriteString(jsonValue(col, r))
		}
		bw.WriteByte('}')
	}
	return nil
}

func (jw *jsonWriter) Close() error {
	if !jw.first {
		jw.bw.WriteByte('\n')
	}
	jw.bw.WriteString("]\n")
	return jw.bw.Flush()
}

func jsonValue(col arrow.Array, r int) string {
	if IsNull(col, r) {
		return "null"
	}
	if expr.IsNested(col.DataType()) {
		return string(appendNestedJSON(nil, col, r))
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
