package catalog

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// The types of a CSV file's columns are sniffed from a sample: its first
// csvHeadBytes and, in a file larger than csvSampleBytes, csvSpreadChunks
// pieces spread evenly through the rest, so that a column whose values
// change type late in the file (numbers, then words) is read as VARCHAR
// rather than failing the query that reaches them. A file that fits in
// csvSampleBytes is sniffed whole. A compressed file cannot be read from
// the middle: its first csvSampleBytes, decompressed, are the sample.
// Variables so tests can shrink them.
var (
	csvHeadBytes    = 4 << 20
	csvSampleBytes  = 8 << 20
	csvSpreadChunks = 16
)

// csvSniffRecords is how many leading records delimiter sniffing parses.
const csvSniffRecords = 64

// csvTable is a table over CSV (or TSV) files. Column types are sniffed
// from a sample of each file (see csvHeadBytes), as are the delimiter and
// whether a header line is there, unless csvOptions give them. Splits are
// files, or byte ranges of large uncompressed files without quotes
// (csvsplit.go).
type csvTable struct {
	name   string
	schema *arrow.Schema
	splits []csvSplit
	rows   int64 // -1 when unknown
	// given: the column types came from the options, not a sample.
	given bool
	// declared[i]: column i's type came from the options (columns or
	// types), not a sample.
	declared []bool
	// extra are constant columns after the file's own (hive partitions).
	extra []partitionCol
}

// headerMode says whether a CSV file's first line names its columns.
type headerMode int

const (
	headerAuto headerMode = iota // sniffed
	headerYes
	headerNo
)

// csvOptions say how CSV files are read (read_csv's named arguments); the
// zero value sniffs everything.
type csvOptions struct {
	Delim  byte // 0: sniffed among , ; tab | (a .tsv file: tab)
	Header headerMode
	// Columns, when given, are every column's name and type, in order:
	// nothing is sniffed but the header line's presence.
	Columns []arrow.Field
	// Types give some columns' types by name (case-insensitive), the
	// others sniffed.
	Types map[string]arrow.DataType
	// AllVarchar reads every column as VARCHAR.
	AllVarchar bool
	// HivePartitioning adds a column for each key=value folder of the
	// files' paths (hive.go).
	HivePartitioning bool
}

// openCSV sniffs paths (the column names must agree; types widen across
// files) and returns them as one table.
func openCSV(name string, paths []string, opts csvOptions) (*csvTable, error) {
	t := &csvTable{name: name, given: opts.Columns != nil}
	for i, p := range paths {
		sn, err := sniffCSV(p, opts)
		if err != nil {
			return nil, err
		}
		s := sn.schema
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
		if sn.rows < 0 || t.rows < 0 {
			t.rows = -1
		} else {
			t.rows += sn.rows
		}
		proto := csvSplit{path: p, delim: sn.delim, header: sn.header, codec: sn.codec, file: i}
		if sn.codec != "" {
			proto.end = sn.size
			proto.line = 1
			t.splits = append(t.splits, proto)
			continue
		}
		splits, err := planCSVSplits(p, sn.size)
		if err != nil {
			return nil, err
		}
		for _, sp := range splits {
			sp.delim, sp.header, sp.file = sn.delim, sn.header, i
			t.splits = append(t.splits, sp)
		}
	}
	t.declared = make([]bool, t.schema.NumFields())
	for i, f := range t.schema.Fields() {
		t.declared[i] = t.given
		for n := range opts.Types {
			t.declared[i] = t.declared[i] || strings.EqualFold(n, f.Name)
		}
	}
	return t, nil
}

// csvSniffed is what sniffCSV learns of one file.
type csvSniffed struct {
	schema *arrow.Schema
	delim  byte
	header bool
	codec  string
	rows   int64 // exact when the sample is the whole file, else an estimate, -1 unknown
	size   int64
}

// sniffCSV reads a sample of path (see csvHeadBytes) and finds its
// delimiter, header and column types, each unless opts gives it.
func sniffCSV(path string, opts csvOptions) (sn csvSniffed, _ error) {
	_, sn.codec = splitCodec(path)
	head, spread, final, size, err := csvSample(path, sn.codec)
	if err != nil {
		return sn, err
	}
	sn.size = size
	sn.delim = opts.Delim
	if sn.delim == 0 {
		sn.delim = sniffDelim(head, final, fileFormat(path) == "tsv")
	}
	r := newCSVReader(head, final, sn.delim)
	var first [][]byte
	var firstQuoted []bool
	ok, err := r.next()
	if err != nil {
		return sn, errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
	}
	if !ok {
		return sn, errs.New(errs.IO, "%s: empty CSV file", path)
	}
	for i, f := range r.fields {
		first = append(first, bytes.Clone(f))
		firstQuoted = append(firstQuoted, r.quoted[i])
	}
	ncols := len(first)
	if opts.Columns != nil && len(opts.Columns) != ncols {
		return sn, errs.New(errs.IO, "%s: %d columns were given but the file has %d", path, len(opts.Columns), ncols)
	}
	guesses := make([]typeGuess, ncols)
	for i := range guesses {
		guesses[i] = typeGuess{boolean: true, integer: true, float: true, date: true, wide: true}
	}
	dataStart := r.pos
	var rows int64
	for {
		ok, err := r.next()
		if err != nil && err != errIncomplete {
			return sn, errs.New(errs.IO, "%s:%d: %v", path, r.recLine, err)
		}
		if !ok {
			break
		}
		if len(r.fields) != ncols {
			return sn, errs.New(errs.IO, "%s:%d: expected %d fields, found %d", path, r.recLine, ncols, len(r.fields))
		}
		for i, f := range r.fields {
			guesses[i].see(f, r.quoted[i])
		}
		rows++
	}
	// Pieces from the middle and the end: they may begin inside a quoted
	// field, so a record that does not parse or has the wrong number of
	// fields is passed over rather than failing the open.
	for _, chunk := range spread {
		pr := newCSVReader(chunk, true, sn.delim)
		for {
			ok, err := pr.next()
			if err != nil || !ok {
				break
			}
			if len(pr.fields) != ncols {
				continue
			}
			for i, f := range pr.fields {
				guesses[i].see(f, pr.quoted[i])
			}
		}
	}
	// The types a column's data has, were the first line a header.
	types := make([]arrow.DataType, ncols)
	for i := range types {
		types[i] = guesses[i].result()
		if opts.Columns != nil {
			types[i] = opts.Columns[i].Type
		}
	}
	switch opts.Header {
	case headerYes:
		sn.header = true
	case headerNo:
		sn.header = false
	default:
		sn.header = looksLikeHeader(first, firstQuoted, types, rows)
	}
	if !sn.header {
		// The first line is data: its values count for the types too.
		for i, f := range first {
			guesses[i].see(f, firstQuoted[i])
		}
		rows++
		dataStart = 0
	}
	fields := make([]arrow.Field, ncols)
	seen := map[string]int{}
	for i := range fields {
		name := ""
		if sn.header {
			name = strings.TrimSpace(string(first[i]))
		}
		if name == "" {
			name = fmt.Sprintf("column%0*d", len(strconv.Itoa(ncols-1)), i)
		}
		if n := seen[key(name)]; n > 0 {
			name = fmt.Sprintf("%s_%d", name, n)
		}
		seen[key(name)]++
		typ := guesses[i].result()
		switch {
		case opts.Columns != nil:
			name, typ = opts.Columns[i].Name, opts.Columns[i].Type
		case opts.AllVarchar:
			typ = expr.String
		}
		for n, t := range opts.Types {
			if strings.EqualFold(n, name) {
				typ = t
			}
		}
		fields[i] = arrow.Field{Name: name, Type: typ, Nullable: true}
	}
	for n := range opts.Types {
		found := false
		for _, f := range fields {
			found = found || strings.EqualFold(f.Name, n)
		}
		if !found {
			return sn, errs.New(errs.Binding, "%s: types names a column %s the file does not have", path, n)
		}
	}
	sn.schema = arrow.NewSchema(fields, nil)
	sn.rows = rows
	if !final || r.pos < len(r.data) || len(spread) > 0 {
		switch {
		case sn.codec != "" || rows == 0 || r.pos <= dataStart:
			sn.rows = -1
		default:
			sn.rows = int64(float64(size-int64(dataStart)) * float64(rows) / float64(r.pos-dataStart))
		}
	}
	return sn, nil
}

// looksLikeHeader decides whether the first line names the columns, as
// DuckDB's sniffer does: it does unless every one of its values fits the
// type the column's data has, and some column's data is not text (a line
// of words over columns of words is taken for a header). A file of one
// line is a header.
func looksLikeHeader(first [][]byte, quoted []bool, types []arrow.DataType, rows int64) bool {
	if rows == 0 {
		return true
	}
	typed := false
	for i, f := range first {
		if types[i].ID() == arrow.STRING {
			continue
		}
		typed = true
		g := typeGuess{boolean: true, integer: true, float: true, date: true, wide: true}
		g.see(f, quoted[i])
		if len(f) > 0 && !fits(g, types[i]) {
			return true
		}
	}
	return !typed
}

// fits reports whether a value whose guess is g reads as type t.
func fits(g typeGuess, t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL:
		return g.boolean
	case arrow.INT64:
		return g.integer
	case arrow.FLOAT64:
		return g.float
	case arrow.DATE32:
		return g.date
	case arrow.TIMESTAMP:
		return !g.notTS
	case arrow.TIME64:
		return !g.notTime
	case arrow.DECIMAL128, arrow.DECIMAL64:
		return g.wide
	}
	return true
}

// sniffDelim picks the delimiter among , tab ; | that splits the leading
// records into the most columns, the same number on every record; a file
// of one column keeps the comma (tab for .tsv).
func sniffDelim(head []byte, final, tsv bool) byte {
	cands := []byte{',', '\t', ';', '|'}
	if tsv {
		cands = []byte{'\t', ',', ';', '|'}
	}
	best, bestCols := cands[0], 1
	for _, d := range cands {
		r := newCSVReader(head, final, d)
		cols, n := 0, 0
		consistent := true
		for n < csvSniffRecords {
			ok, err := r.next()
			if err != nil || !ok {
				consistent = consistent && (err == nil || err == errIncomplete)
				break
			}
			if n == 0 {
				cols = len(r.fields)
			} else if len(r.fields) != cols {
				consistent = false
				break
			}
			n++
		}
		if consistent && cols > bestCols {
			best, bestCols = d, cols
		}
	}
	return best
}

// csvSample reads path's sample: head, its first bytes (decompressed),
// and spread, whole lines from pieces through the rest of an uncompressed
// file too large to read whole. final: head is the whole file.
func csvSample(path, codec string) (head []byte, spread [][]byte, final bool, size int64, _ error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	size = st.Size()
	if codec != "" {
		rd, err := decompressor(f, codec)
		if err != nil {
			return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s", path)
		}
		defer rd.Close()
		head, err = io.ReadAll(io.LimitReader(rd, int64(csvSampleBytes)+1))
		if err != nil {
			return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s: decompressing", path)
		}
		if len(head) <= csvSampleBytes {
			return head, nil, true, size, nil
		}
		return head[:csvSampleBytes], nil, false, size, nil
	}
	n := size
	if size > int64(csvSampleBytes) {
		n = int64(csvHeadBytes)
	}
	head = make([]byte, n)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s", path)
	}
	if n == size {
		return head, nil, true, size, nil
	}
	piece := (int64(csvSampleBytes) - n) / int64(csvSpreadChunks)
	for i := 1; i <= csvSpreadChunks; i++ {
		off := n + (size-n-piece)*int64(i)/int64(csvSpreadChunks)
		buf := make([]byte, piece)
		m, err := f.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return nil, nil, false, 0, errs.Wrap(errs.IO, err, "%s", path)
		}
		buf = buf[:m]
		// Whole lines only: after the first newline, through the last.
		if j := bytes.IndexByte(buf, '\n'); j >= 0 {
			buf = buf[j+1:]
		} else {
			continue
		}
		if off+int64(m) < size {
			if j := bytes.LastIndexByte(buf, '\n'); j >= 0 {
				buf = buf[:j+1]
			} else {
				continue
			}
		}
		spread = append(spread, buf)
	}
	return head, spread, false, size, nil
}

// typeGuess tracks which types every non-NULL sample value of a column fits.
type typeGuess struct {
	seen                          bool
	boolean, integer, float, date bool
	// notTS: some value is not a timestamp; zone: some value names a
	// zone (the column is TIMESTAMPTZ). Negated, so that a zero guess
	// still allows a timestamp.
	notTS, zone bool
	notTime     bool // some value is not a TIME
	// wide: every value is plain decimal text; long: some value has more
	// than 18 digits (more than BIGINT or DOUBLE hold exactly), the widest
	// with intDigits before the point and scale after.
	wide, long       bool
	intDigits, scale int
}

func (g *typeGuess) see(f []byte, quoted bool) {
	if len(f) == 0 {
		if quoted {
			g.seen, g.boolean, g.integer, g.float, g.date, g.wide = true, false, false, false, false, false
		}
		return
	}
	g.seen = true
	if g.wide {
		d, s, ok := decimalShape(f)
		g.wide = ok
		g.intDigits, g.scale = max(g.intDigits, d), max(g.scale, s)
		g.long = g.long || d+s > expr.MaxDecimalPrecision
	}
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
	g.seeTimestamp(f)
}

func (g *typeGuess) result() arrow.DataType {
	switch {
	case !g.seen:
		return expr.String
	case g.boolean:
		return expr.Boolean
	case g.integer:
		return expr.Int64
	case g.wide && g.long && g.intDigits+g.scale <= expr.MaxWidePrecision:
		// Integers past BIGINT, decimals past DOUBLE's digits: exact.
		return expr.Decimal(expr.MaxWidePrecision, int32(g.scale))
	case g.float:
		return expr.Float64
	case g.date:
		return expr.Date
	case !g.notTS && g.zone:
		return expr.TimestampTZ
	case !g.notTS:
		return expr.Timestamp
	case !g.notTime:
		return expr.Time
	}
	return expr.String
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
			num := func(t arrow.DataType) bool {
				return t.ID() == arrow.INT64 || t.ID() == arrow.FLOAT64 || t.ID() == arrow.DECIMAL128
			}
			exact := func(t arrow.DataType) bool { return t.ID() == arrow.INT64 || t.ID() == arrow.DECIMAL128 }
			switch {
			case exact(fa.Type) && exact(fb.Type):
				// An integer and a wide decimal meet in the wide decimal
				// of the larger scale (CSV's sniffed decimals are 38 digits).
				t = expr.Decimal(expr.MaxWidePrecision, max(expr.ScaleOf(fa.Type), expr.ScaleOf(fb.Type)))
			case num(fa.Type) && num(fb.Type):
				t = expr.Float64
			default:
				t = expr.String
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

// Read parses one split and emits the requested columns. A compressed
// file is one split, decompressed and parsed a block at a time.
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
	ncols := t.schema.NumFields() - len(t.extra)
	cols := make([]csvColumn, len(columns))
	for i, c := range columns {
		cols[i].typ = t.schema.Field(c).Type
		cols[i].declared = c < len(t.declared) && t.declared[c]
	}
	out := make([]arrow.Array, len(columns))
	n := 0
	flush := func() error {
		for i, c := range columns {
			if c >= ncols {
				out[i] = t.extra[c-ncols].array(sp.file, n, mem)
			} else {
				out[i] = cols[i].finish(n, mem)
			}
		}
		b := array.NewRecordBatch(s, out, int64(n))
		releaseAll(out)
		n = 0
		return emit(b)
	}
	// parse takes r's records until its data ends; errIncomplete (a
	// block of a stream ending mid-record) leaves r at that record.
	parse := func(r *csvReader) error {
		for {
			ok, err := r.next()
			if err == errIncomplete || !ok && err == nil {
				return err
			}
			if err != nil {
				return errs.New(errs.IO, "%s:%d: %v", sp.path, r.recLine, err)
			}
			if len(r.fields) != ncols {
				return errs.New(errs.IO, "%s:%d: expected %d fields, found %d", sp.path, r.recLine, ncols, len(r.fields))
			}
			for i, c := range columns {
				if c < ncols && !cols[i].add(r.fields[c], r.quoted[c]) {
					return t.badValue(sp.path, r.recLine, c, r.fields[c])
				}
			}
			n++
			if n == batchSize {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	header := sp.start == 0 && sp.header
	if sp.codec != "" {
		err = t.readStream(ctx, sp, header, parse)
	} else {
		var data []byte
		if data, err = readCSVRange(sp); err != nil {
			return err
		}
		r := newCSVReader(data, true, sp.delim)
		r.line = sp.line
		if header {
			if _, err := r.next(); err != nil {
				return errs.New(errs.IO, "%s:%d: %v", sp.path, r.recLine, err)
			}
		}
		err = parse(r)
	}
	if err != nil {
		return err
	}
	if n > 0 {
		return flush()
	}
	return nil
}

// csvBlockBytes is how much of a compressed file's text Read parses at a
// time.
var csvBlockBytes = 8 << 20

// readStream decompresses sp's file a block at a time and parses each,
// carrying a record cut by a block's end over to the next.
func (t *csvTable) readStream(ctx context.Context, sp csvSplit, header bool, parse func(*csvReader) error) error {
	f, err := os.Open(sp.path)
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", sp.path)
	}
	defer f.Close()
	rd, err := decompressor(f, sp.codec)
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", sp.path)
	}
	defer rd.Close()
	var carry []byte
	line := 1
	for first := true; ; first = false {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf := make([]byte, len(carry)+csvBlockBytes)
		copy(buf, carry)
		m, err := io.ReadFull(rd, buf[len(carry):])
		final := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !final {
			return errs.Wrap(errs.IO, err, "%s: decompressing", sp.path)
		}
		buf = buf[:len(carry)+m]
		r := newCSVReader(buf, final, sp.delim)
		if !first {
			r.data = buf // a byte order mark only starts the file
		}
		r.line = line
		if first && header {
			if _, err := r.next(); err != nil && err != errIncomplete {
				return errs.New(errs.IO, "%s:%d: %v", sp.path, r.recLine, err)
			}
		}
		if err := parse(r); err != nil && err != errIncomplete {
			return err
		}
		if final {
			return nil
		}
		carry, line = append([]byte(nil), buf[r.pos:]...), r.line
	}
}

// badValue is the error for a value that does not read as its column's
// type: one past the sample the type was sniffed from.
func (t *csvTable) badValue(path string, line, c int, v []byte) error {
	f := t.schema.Field(c)
	if t.given || c < len(t.declared) && t.declared[c] {
		return errs.New(errs.IO, "%s:%d: column %s: cannot read %q as %s", path, line, f.Name, v, typeName(f.Type))
	}
	return errs.New(errs.IO, "%s:%d: column %s: cannot read %q as %s (the type sniffed from a sample of the file; read_csv's types or columns option sets it)",
		path, line, f.Name, v, typeName(f.Type))
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
	case arrow.TIMESTAMP, arrow.TIME64, arrow.DECIMAL128, arrow.DECIMAL64:
		return expr.TypeName(t)
	}
	return "VARCHAR"
}

var _ Table = (*csvTable)(nil)
