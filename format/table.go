package format

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxCell bounds a cell's width so one long string does not flood the screen.
const maxCell = 60

// WriteTable writes every row and column as a box table (no limits).
func WriteTable(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return WriteTableOpts(w, schema, batches, Options{})
}

// WriteTableOpts writes a boxed table like DuckDB's CLI: column names with
// their types beneath, numbers right-aligned, NULL shown as NULL, then the
// row count. With opts.MaxRows it shows the head and tail of a long result;
// with opts.MaxWidth it drops the columns that do not fit behind a "…"
// column. Only the rows shown are formatted, so a million-row result costs
// no more than a short one.
func WriteTableOpts(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch, opts Options) error {
	return writeAll(newTableWriter(w, schema, opts), batches)
}

// TableMaxRows is the most rows table mode shows when Options.MaxRows sets
// no limit (a file or a pipe): its columns are as wide as their widest
// value, so it holds what it shows until the end, and a result of any
// size must not sit whole in memory. Past it, head and tail are shown and
// the count says so; the data modes write every row.
const TableMaxRows = 100_000

// tableWriter keeps the batches that hold the rows it will show: those of
// the first half of the limit, and a window of the latest batches that
// holds at least the second half's rows.
type tableWriter struct {
	w           io.Writer
	schema      *arrow.Schema
	opts        Options
	head, tail  int // rows shown at most from each end
	headBatches []arrow.RecordBatch
	headRows    int
	window      []arrow.RecordBatch // after the head rows, oldest first
	windowRows  int
	total       int
}

func newTableWriter(w io.Writer, schema *arrow.Schema, opts Options) *tableWriter {
	limit := opts.MaxRows
	if limit <= 0 {
		limit = TableMaxRows
	}
	head := (limit + 1) / 2
	return &tableWriter{w: w, schema: schema, opts: opts, head: head, tail: limit - head}
}

func (t *tableWriter) Write(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	t.total += n
	if k := min(t.head-t.headRows, n); k > 0 {
		t.headBatches = append(t.headBatches, b.NewSlice(0, int64(k)))
		t.headRows += k
		if k == n {
			return nil
		}
		b = b.NewSlice(int64(k), int64(n))
		n -= k
	} else {
		b.Retain()
	}
	t.window = append(t.window, b)
	t.windowRows += n
	for len(t.window) > 1 && t.windowRows-int(t.window[0].NumRows()) >= t.tail {
		t.windowRows -= int(t.window[0].NumRows())
		t.window[0].Release()
		t.window = t.window[1:]
	}
	return nil
}

func (t *tableWriter) Close() error {
	defer func() {
		releaseAll(t.headBatches)
		releaseAll(t.window)
		t.headBatches, t.window = nil, nil
	}()
	rows := newRowSet(append(append([]arrow.RecordBatch(nil), t.headBatches...), t.window...))
	head, tail := rows.n, 0
	if t.total > t.head+t.tail {
		head, tail = t.headRows, t.tail
	}
	n := t.schema.NumFields()
	bt := &boxTable{n: n, head: make([]string, n), types: make([]string, n), right: make([]bool, n), width: make([]int, n)}
	for i, f := range t.schema.Fields() {
		bt.head[i], bt.types[i], bt.right[i] = f.Name, strings.ToLower(TypeName(f.Type)), isNumeric(f.Type)
		bt.width[i] = max(textWidth(bt.head[i]), textWidth(bt.types[i]))
	}
	addRow := func(r int) {
		b, i := rows.at(r)
		row := make([]string, n)
		for c, col := range b.Columns() {
			if IsNull(col, i) {
				row[c] = "NULL"
			} else {
				row[c] = clip(cellEscaper.Replace(Value(col, i)), maxCell)
			}
			bt.width[c] = max(bt.width[c], textWidth(row[c]))
		}
		bt.rows = append(bt.rows, row)
	}
	for r := range head {
		addRow(r)
	}
	bt.gap = -1
	if tail > 0 {
		bt.gap = len(bt.rows)
		for r := rows.n - tail; r < rows.n; r++ {
			addRow(r)
		}
	}
	shownCols := bt.fit(t.opts.MaxWidth)
	bw := bufio.NewWriter(t.w)
	bt.write(bw, shownCols)
	shown := head + tail
	fmt.Fprint(bw, rowCount(t.total))
	if shown < t.total {
		fmt.Fprintf(bw, " (%d shown)", shown)
		if t.opts.MaxRows <= 0 {
			fmt.Fprintf(bw, " — table mode shows at most %d rows; csv and json write them all", TableMaxRows)
		}
	}
	if shownCols < n {
		fmt.Fprintf(bw, ", %d columns (%d shown, … %d more columns)", n, shownCols, n-shownCols)
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

var cellEscaper = strings.NewReplacer("\n", "\\n", "\t", "\\t", "\r", "\\r")

func rowCount(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// boxTable is a table's formatted cells and column widths.
type boxTable struct {
	n           int
	head, types []string
	right       []bool
	width       []int
	rows        [][]string
	gap         int // rows index before which the "·" row goes; -1: none
}

// tableWidth is the printed width of the first k columns, with the "…"
// column when more remain.
func (t *boxTable) tableWidth(k int) int {
	w := 1
	for i := range k {
		w += t.width[i] + 3
	}
	if k < t.n {
		w += 4
	}
	return w
}

// fit returns how many leading columns fit in maxWidth (all for 0). At
// least one column is always shown; a first column too wide for the screen
// has its cells clipped to fit.
func (t *boxTable) fit(maxWidth int) int {
	if maxWidth <= 0 || t.tableWidth(t.n) <= maxWidth {
		return t.n
	}
	k := t.n - 1
	for k > 1 && t.tableWidth(k) > maxWidth {
		k--
	}
	if over := t.tableWidth(k) - maxWidth; over > 0 && k == 1 {
		w := max(t.width[0]-over, 4)
		t.width[0] = w
		t.head[0], t.types[0] = clip(t.head[0], w), clip(t.types[0], w)
		for _, r := range t.rows {
			r[0] = clip(r[0], w)
		}
	}
	return k
}

func (t *boxTable) write(bw *bufio.Writer, k int) {
	more := k < t.n
	line := func(l, m, r string) {
		bw.WriteString(l)
		for i := range k {
			if i > 0 {
				bw.WriteString(m)
			}
			bw.WriteString(strings.Repeat("─", t.width[i]+2))
		}
		if more {
			bw.WriteString(m + "───")
		}
		bw.WriteString(r + "\n")
	}
	cells := func(vals []string, center bool, marker string) {
		bw.WriteString("│")
		for i := range k {
			v := vals[i]
			pad := t.width[i] - textWidth(v)
			var left int
			switch {
			case center:
				left = pad / 2
			case t.right[i]:
				left = pad
			}
			bw.WriteString(" " + strings.Repeat(" ", left) + v + strings.Repeat(" ", pad-left) + " │")
		}
		if more {
			bw.WriteString(" " + marker + " │")
		}
		bw.WriteString("\n")
	}
	line("┌", "┬", "┐")
	cells(t.head, true, "…")
	cells(t.types, true, " ")
	line("├", "┼", "┤")
	dots := make([]string, t.n)
	for i := range dots {
		dots[i] = "·"
	}
	for i, r := range t.rows {
		if i == t.gap {
			cells(dots, true, "·")
		}
		cells(r, false, "…")
	}
	line("└", "┴", "┘")
}

func textWidth(s string) int { return utf8.RuneCountInString(s) }

func clip(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// rowSet addresses the rows of several batches by one global index.
type rowSet struct {
	batches []arrow.RecordBatch
	starts  []int // first global row of each batch
	n       int
}

func newRowSet(batches []arrow.RecordBatch) *rowSet {
	rs := &rowSet{batches: batches}
	for _, b := range batches {
		rs.starts = append(rs.starts, rs.n)
		rs.n += int(b.NumRows())
	}
	return rs
}

// at returns the batch holding global row r and r's index in it.
func (rs *rowSet) at(r int) (arrow.RecordBatch, int) {
	i := sort.Search(len(rs.starts), func(i int) bool { return rs.starts[i] > r }) - 1
	return rs.batches[i], r - rs.starts[i]
}
