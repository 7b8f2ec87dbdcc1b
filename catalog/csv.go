package catalog

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

const (
	csvSampleRows  = 1000
	csvSampleBytes = 4 << 20
)

// csvTable is a table over CSV (or TSV) files with a header line. Column
// types are inferred from the first rows of each file. Splits are files, or
// byte ranges of large files without quotes (csvsplit.go).
type csvTable struct {
	name   string
	schema *arrow.Schema
	splits []csvSplit
	delim  byte
	rows   int64 // -1 when unknown
}

// openCSV infers the schema of paths (header names must agree; types widen
// across files) and returns them as one table.
func openCSV(name string, paths []string, delim byte) (*csvTable, error) {
	t := &csvTable{name: name, delim: delim}
	for i, p := range paths {
		s, rows, size, err := inferCSV(p, delim)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			t.schema = s
		} else {
			merged, ok := widenSchemas(t.schema, s)
			if !ok {
				return nil, errs.New(errs.IO, "%s and %s have different columns (%s vs %s)",
					paths[0], p, schemaString(t.schema), schemaString(s))
			}
			t.schema = merged
		}
		if rows < 0 || t.rows < 0 {
			t.rows = -1
		} else {
			t.rows += rows
		}
		splits, err := planCSVSplits(p, size)
		if err != nil {
			return nil, err
		}
		t.splits = append(t.splits, splits...)
	}
	return t, nil
}

// inferCSV reads the header and a sample of path. rows is exact when the
// sample is the whole file, else extrapolated from the sample's bytes per row.
func inferCSV(path string, delim byte) (_ *arrow.Schema, rows, size int64, _ error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	buf := make([]byte, min(st.Size(), csvSampleBytes))
	size = st.Size()
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, 0, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	final := int64(n) >= st.Size()
	r := newCSVReader(buf[:n], final, delim)
	ok, err := r.next()
	if err != nil {
		return nil, 0, 0, errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
	}
	if !ok {
		return nil, 0, 0, errs.New(errs.IO, "%s: empty CSV file (a header line is required)", path)
	}
	names := make([]string, len(r.fields))
	for i, f := range r.fields {
		names[i] = strings.TrimSpace(string(f))
		if names[i] == "" {
			names[i] = fmt.Sprintf("column%d", i)
		}
	}
	guesses := make([]typeGuess, len(names))
	for i := range guesses {
		guesses[i] = typeGuess{boolean: true, integer: true, float: true, date: true}
	}
	dataStart := r.pos
	for rows < csvSampleRows {
		ok, err := r.next()
		if err != nil && err != errIncomplete {
			return nil, 0, 0, errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
		}
		if !ok {
			break
		}
		if len(r.fields) != len(names) {
			return nil, 0, 0, errs.New(errs.IO, "%s:%d: expected %d fields, found %d", path, r.recLine, len(names), len(r.fields))
		}
		for i, f := range r.fields {
			guesses[i].see(f, r.quoted[i])
		}
		rows++
	}
	fields := make([]arrow.Field, len(names))
	for i, name := range names {
		fields[i] = arrow.Field{Name: name, Type: guesses[i].result(), Nullable: true}
	}
	if !final || r.pos < len(r.data) {
		if rows == 0 || r.pos <= dataStart {
			rows = -1
		} else {
			rows = int64(float64(st.Size()-int64(dataStart)) * float64(rows) / float64(r.pos-dataStart))
		}
	}
	return arrow.NewSchema(fields, nil), rows, size, nil
}

// typeGuess tracks which types every non-NULL sample value of a column fits.
type typeGuess struct {
	seen                          bool
	boolean, integer, float, date bool
}

func (g *typeGuess) see(f []byte, quoted bool) {
	if len(f) == 0 {
		if quoted {
			g.seen, g.boolean, g.integer, g.float, g.date = true, false, false, false, false
		}
		return
	}
	g.seen = true
	if g.boolean {
		_, ok := parseBool(f)
		g.boolean = ok
	}
	if g.integer {
		_, ok := parseInt(f)
		g.integer = ok
	}
	if g.float {
		_, ok := parseFloat(f)
		g.float = ok
	}
	if g.date {
		_, ok := parseDate(f)
		g.date = ok
	}
}

func (g *typeGuess) result() arrow.DataType {
	switch {
	case !g.seen:
		return tString
	case g.boolean:
		return tBool
	case g.integer:
		return tInt64
	case g.float:
		return tFloat
	case g.date:
		return tDate
	}
	return tString
}

// widenSchemas merges two inferred schemas with the same names: Int64 and
// Float64 widen to Float64, other differing types to String.
func widenSchemas(a, b *arrow.Schema) (*arrow.Schema, bool) {
	if a.NumFields() != b.NumFields() {
		return nil, false
	}
	fields := make([]arrow.Field, a.NumFields())
	for i := range fields {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name {
			return nil, false
		}
		t := fa.Type
		if !arrow.TypeEqual(fa.Type, fb.Type) {
			num := func(t arrow.DataType) bool { return t.ID() == arrow.INT64 || t.ID() == arrow.FLOAT64 }
			if num(fa.Type) && num(fb.Type) {
				t = tFloat
			} else {
				t = tString
			}
		}
		fields[i] = arrow.Field{Name: fa.Name, Type: t, Nullable: true}
	}
	return arrow.NewSchema(fields, nil), true
}

func (t *csvTable) Name() string          { return t.name }
func (t *csvTable) Schema() *arrow.Schema { return t.schema }
func (t *csvTable) NumSplits() int        { return len(t.splits) }
func (t *csvTable) Stats() Stats          { return Stats{RowCount: t.rows} }

// Read parses one split and emits the requested columns.
func (t *csvTable) Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error {
	if split < 0 || split >= len(t.splits) {
		return errsSplit(t.name, split, len(t.splits))
	}
	s, err := projectSchema(t.name, t.schema, columns)
	if err != nil {
		return err
	}
	if batchSize <= 0 {
		batchSize = 1 << 16
	}
	sp := t.splits[split]
	path := sp.path
	data, err := readCSVRange(sp)
	if err != nil {
		return err
	}
	r := newCSVReader(data, true, t.delim)
	r.line = sp.line
	if sp.start == 0 {
		if _, err := r.next(); err != nil { // header
			return errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
		}
	}
	ncols := t.schema.NumFields()
	cols := make([]csvColumn, len(columns))
	for i, c := range columns {
		cols[i].typ = t.schema.Field(c).Type
	}
	out := make([]arrow.Array, len(columns))
	flush := func(n int) error {
		for i := range cols {
			out[i] = cols[i].finish(n, mem)
		}
		b := array.NewRecordBatch(s, out, int64(n))
		releaseAll(out)
		return emit(b)
	}
	n := 0
	for {
		ok, err := r.next()
		if err != nil {
			return errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
		}
		if !ok {
			break
		}
		if len(r.fields) != ncols {
			return errs.New(errs.IO, "%s:%d: expected %d fields, found %d", path, r.recLine, ncols, len(r.fields))
		}
		for i, c := range columns {
			if !cols[i].add(r.fields[c], r.quoted[c]) {
				return errs.New(errs.IO, "%s:%d: column %s: cannot read %q as %s (type inferred from the first %d rows)",
					path, r.recLine, t.schema.Field(c).Name, r.fields[c], typeName(cols[i].typ), csvSampleRows)
			}
		}
		n++
		if n == batchSize {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := flush(n); err != nil {
				return err
			}
			n = 0
		}
	}
	if n > 0 {
		return flush(n)
	}
	return nil
}

func typeName(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT64:
		return "BIGINT"
	case arrow.FLOAT64:
		return "DOUBLE"
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.DATE32:
		return "DATE"
	}
	return "VARCHAR"
}

var _ Table = (*csvTable)(nil)
