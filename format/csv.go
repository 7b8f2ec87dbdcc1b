package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteCSV writes a header line and one line per row, quoting fields as
// RFC 4180 requires. NULL is an empty field, an empty string "".
func WriteCSV(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return writeAll(newCSVWriter(w, schema), batches)
}

// CSVOptions are a CSV file's dialect as COPY … TO writes it.
type CSVOptions struct {
	// Delim separates fields; 0 is ','.
	Delim byte
	// NoHeader leaves out the line of column names.
	NoHeader bool
}

// NewCSVWriter is CSV's RowWriter in the dialect opts gives.
func NewCSVWriter(w io.Writer, schema *arrow.Schema, opts CSVOptions) RowWriter {
	return newCSVWriterOpts(w, schema, opts)
}

// csvWriter is CSV's RowWriter: the header first, then each batch's lines
// as it arrives.
type csvWriter struct {
	bw    *bufio.Writer
	cell  []byte
	delim byte
}

func newCSVWriter(w io.Writer, schema *arrow.Schema) *csvWriter {
	return newCSVWriterOpts(w, schema, CSVOptions{})
}

func newCSVWriterOpts(w io.Writer, schema *arrow.Schema, opts CSVOptions) *csvWriter {
	delim := opts.Delim
	if delim == 0 {
		delim = ','
	}
	bw := bufio.NewWriter(w)
	if !opts.NoHeader {
		for i, f := range schema.Fields() {
			if i > 0 {
				bw.WriteByte(delim)
			}
			writeCSVField(bw, f.Name, delim)
		}
		bw.WriteByte('\n')
	}
	return &csvWriter{bw: bw, delim: delim}
}

func (cw *csvWriter) Write(b arrow.RecordBatch) error {
	bw := cw.bw
	cols := b.Columns()
	// Numbers, decimals, dates and Booleans never need quotes, unless
	// the delimiter is a character they can hold ('.', '-', a digit).
	plain := make([]bool, len(cols))
	for c, col := range cols {
		switch col.DataType().ID() {
		case arrow.INT64, arrow.INT32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.BOOL, arrow.FLOAT64:
			plain[c] = cw.delim == ',' || cw.delim == ';' || cw.delim == '|' || cw.delim == '\t'
		}
	}
	for r := 0; r < int(b.NumRows()); r++ {
		for c, col := range cols {
			if c > 0 {
				bw.WriteByte(cw.delim)
			}
			if col.IsNull(r) {
				continue // NULL is an empty field
			}
			cw.cell = AppendValue(cw.cell[:0], col, r)
			switch {
			case plain[c]:
				bw.Write(cw.cell)
			case len(cw.cell) == 0:
				// An empty string is quoted, so that a reader (DuckDB's,
				// gq's) tells it from NULL.
				bw.WriteString(`""`)
			default:
				writeCSVBytes(bw, cw.cell, cw.delim)
			}
		}
		bw.WriteByte('\n')
	}
	return nil
}

func (cw *csvWriter) Close() error { return cw.bw.Flush() }

func writeCSVField(w *bufio.Writer, s string, delim byte) {
	if !strings.ContainsAny(s, ",\"\r\n") && strings.IndexByte(s, delim) < 0 {
		w.WriteString(s)
		return
	}
	w.WriteByte('"')
	w.WriteString(strings.ReplaceAll(s, `"`, `""`))
	w.WriteByte('"')
}

// writeCSVBytes is writeCSVField over a cell's bytes.
func writeCSVBytes(w *bufio.Writer, s []byte, delim byte) {
	for _, c := range s {
		if csvSpecial[c] || c == delim {
			writeCSVField(w, string(s), delim)
			return
		}
	}
	w.Write(s)
}

// csvSpecial marks the bytes that make a field need quotes.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}
