package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// WriteMarkdown writes a GitHub-flavoured Markdown table: numeric columns
// are right-aligned (---:), pipes in values are escaped, NULL is shown as
// NULL. Columns are padded so the text also reads well unrendered.
func WriteMarkdown(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return writeAll(&markdownWriter{w: w, schema: schema}, batches)
}

// markdownWriter keeps every batch: a column's padding depends on its
// widest value.
type markdownWriter struct {
	w       io.Writer
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (mw *markdownWriter) Write(b arrow.RecordBatch) error {
	b.Retain()
	mw.batches = append(mw.batches, b)
	return nil
}

func (mw *markdownWriter) Close() error {
	defer releaseAll(mw.batches)
	return writeMarkdown(mw.w, mw.schema, mw.batches)
}

func releaseAll(batches []arrow.RecordBatch) {
	for _, b := range batches {
		b.Release()
	}
}

func writeMarkdown(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	n := schema.NumFields()
	head := make([]string, n)
	right := make([]bool, n)
	width := make([]int, n)
	for i, f := range schema.Fields() {
		head[i], right[i] = mdEscape(f.Name), isNumeric(f.Type)
		width[i] = max(textWidth(head[i]), 3)
	}
	var rows [][]string
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, n)
			for c, col := range b.Columns() {
				if IsNull(col, r) {
					row[c] = "NULL"
				} else {
					row[c] = mdEscape(Value(col, r))
				}
				width[c] = max(width[c], textWidth(row[c]))
			}
			rows = append(rows, row)
		}
	}
	bw := bufio.NewWriter(w)
	writeRow := func(vals []string) {
		bw.WriteString("|")
		for i, v := range vals {
			pad := strings.Repeat(" ", width[i]-textWidth(v))
			if right[i] {
				bw.WriteString(" " + pad + v + " |")
			} else {
				bw.WriteString(" " + v + pad + " |")
			}
		}
		bw.WriteString("\n")
	}
	writeRow(head)
	bw.WriteString("|")
	for i := range n {
		if right[i] {
			bw.WriteString(" " + strings.Repeat("-", width[i]-1) + ": |")
		} else {
			bw.WriteString(" " + strings.Repeat("-", width[i]) + " |")
		}
	}
	bw.WriteString("\n")
	for _, r := range rows {
		writeRow(r)
	}
	return bw.Flush()
}

var mdEscaper = strings.NewReplacer("|", `\|`, "\n", "<br>", "\r", "")

func mdEscape(s string) string { return mdEscaper.Replace(s) }
