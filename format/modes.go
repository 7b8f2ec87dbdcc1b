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

// WriteFunc writes one result.
type WriteFunc func(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch, opts Options) error

// Modes are the output mode names, in the order help text lists them.
var Modes = []string{"table", "csv", "json", "jsonl", "markdown", "line"}

// Writer returns the writer of mode, or nil for an unknown mode.
func Writer(mode string) WriteFunc {
	switch mode {
	case "table", "box", "duckbox":
		return WriteTableOpts
	case "csv":
		return ignoreOpts(WriteCSV)
	case "json":
		return ignoreOpts(WriteJSON)
	case "jsonl", "ndjson":
		return ignoreOpts(WriteJSONL)
	case "markdown", "md":
		return ignoreOpts(WriteMarkdown)
	case "line":
		return ignoreOpts(WriteLine)
	}
	return nil
}

func ignoreOpts(f func(io.Writer, *arrow.Schema, []arrow.RecordBatch) error) WriteFunc {
	return func(w io.Writer, s *arrow.Schema, b []arrow.RecordBatch, _ Options) error { return f(w, s, b) }
}
