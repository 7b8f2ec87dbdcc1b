package format

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Options shape how a result is rendered. Only the table mode uses them:
// the data modes (csv, json, jsonl, markdown, line) always write every row
// and column, since their output is meant for other programs.
type Options struct {
	// MaxRows > 0 shows at most that many rows: the first and last halves
	// with a "·" row between them and the full count below.
	MaxRows int
	// MaxWidth > 0 is the terminal width: columns that do not fit are
	// dropped from the right behind a "…" column and counted below.
	MaxWidth int
}

// RowWriter writes one result batch by batch, as a query streams it: Write
// each batch (the writer retains what it keeps; the caller still releases
// its own reference), then Close, which writes what only the end can tell
// and flushes. The data modes write each batch's rows at once, so a
// result of any size passes through in bounded memory; table keeps only
// the rows it shows, markdown every row (its columns are padded).
type RowWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// NewRowWriter returns mode's writer of a result of schema onto w, or nil
// for an unknown mode.
func NewRowWriter(mode string, w io.Writer, schema *arrow.Schema, opts Options) RowWriter {
	switch mode {
	case "table", "box", "duckbox":
		return newTableWriter(w, schema, opts)
	case "csv":
		return newCSVWriter(w, schema)
	case "json":
		return newJSONWriter(w, schema)
	case "jsonl", "ndjson":
		return newJSONLWriter(w, schema)
	case "markdown", "md":
		return &markdownWriter{w: w, schema: schema}
	case "line":
		return newLineWriter(w, schema)
	}
	return nil
}

// writeAll writes batches through rw and closes it.
func writeAll(rw RowWriter, batches []arrow.RecordBatch) error {
	for _, b := range batches {
		if err := rw.Write(b); err != nil {
			return err
		}
	}
	return rw.Close()
}

// WriteFunc writes one result.
type WriteFunc func(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch, opts Options) error

// Modes are the output mode names, in the order help text lists them.
var Modes = []string{"table", "csv", "json", "jsonl", "markdown", "line"}

// Writer returns the writer of mode, or nil for an unknown mode.
func Writer(mode string) WriteFunc {
	if NewRowWriter(mode, io.Discard, arrow.NewSchema(nil, nil), Options{}) == nil {
		return nil
	}
	return func(w io.Writer, s *arrow.Schema, b []arrow.RecordBatch, opts Options) error {
		return writeAll(NewRowWriter(mode, w, s, opts), b)
	}
}
