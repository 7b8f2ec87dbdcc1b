package format

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteJSONL writes one JSON object per row and line (JSON Lines), the
// form that streams into jq and log tools; values are typed as WriteJSON
// types them.
func WriteJSONL(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	bw := bufio.NewWriter(w)
	keys := make([][]byte, schema.NumFields())
	for i, f := range schema.Fields() {
		keys[i], _ = json.Marshal(f.Name)
	}
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			bw.WriteByte('{')
			for c, col := range b.Columns() {
				if c > 0 {
					bw.WriteByte(',')
				}
				bw.Write(keys[c])
				bw.WriteByte(':')
				bw.WriteString(jsonValue(col, r))
			}
			bw.WriteString("}\n")
		}
	}
	return bw.Flush()
}
