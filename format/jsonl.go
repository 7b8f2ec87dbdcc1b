package format

import (
	"bufio"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteJSONL writes one JSON object per row and line (JSON Lines), the
// form that streams into jq and log tools; values are typed as WriteJSON
// types them.
func WriteJSONL(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return writeAll(newJSONLWriter(w, schema), batches)
}

type jsonlWriter struct {
	bw   *bufio.Writer
	keys [][]byte
}

func newJSONLWriter(w io.Writer, schema *arrow.Schema) *jsonlWriter {
	return &jsonlWriter{bw: bufio.NewWriter(w), keys: jsonKeys(schema)}
}

func (jw *jsonlWriter) Write(b arrow.RecordBatch) error {
	bw := jw.bw
	for r := 0; r < int(b.NumRows()); r++ {
		bw.WriteByte('{')
		for c, col := range b.Columns() {
			if c > 0 {
				bw.WriteByte(',')
			}
			bw.Write(jw.keys[c])
			bw.WriteByte(':')
			bw.WriteString(jsonValue(col, r))
		}
		bw.WriteString("}\n")
	}
	return nil
}

func (jw *jsonlWriter) Close() error { return jw.bw.Flush() }
