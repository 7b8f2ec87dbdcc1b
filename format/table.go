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
	rs := newRowSet(batches)
	total := rs.n
	head, tail := total, 0
	if opts.MaxRows > 0 && total > opts.MaxRows {
		head = (opts.MaxRows + 1) / 2
		tail = opts.MaxRows - head
	}
	n := schema.NumFields()
	t := &boxTable{n: n, head: make([]string, n), types: make([]string, n), right: make([]bool, n), width: make([]int, n)}
	for i, f := range schema.Fields() {
		t.head[i], t.types[i], t.right[i] = f.Name, strings.ToLower(TypeName(f.Type)), isNumeric(f.Type)
		t.width[i] = max(textWidth(t.head[i]), textWidth(t.types[i]))
	}
	addRow := func(r int) {
		b, i := rs.at(r)
		row := make([]string, n)
		for c, col := range b.Columns() {
			if IsNull(col, i) {
				row[c] = "NULL"
			} else {
				row[c] = clip(cellEscaper.Replace(Value(col, i)), maxCell)
			}
			t.width[c] = max(t.width[c], textWidth(row[c]))
		}
		t.rows = append(t.rows, row)
	}
	for r := range head {
		addRow(r)
	}
	if tail > 0 {
		t.gap = len(t.rows)
		for r := total - tail; r < total; r++ {
			addRow(r)
		}
	} else {
		t.gap = -1
	}
	shownCols := t.fit(opts.MaxWidth)
	bw := bufio.NewWriter(w)
	t.write(bw, shownCols)
	shown := head + tail
	fmt.Fprint(bw, rowCount(total))
	if shown < total {
		fmt.Fprintf(bw, " (%d shown)", shown)
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
