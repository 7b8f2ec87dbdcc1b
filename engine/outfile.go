package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/format"
	"gq/parser"
)

// Query results written to a file: SELECT … INTO OUTFILE 'name' (MySQL's)
// and COPY (query) TO 'name' [(options)] (DuckDB's), both through
// writeQuery. The file's format follows its extension (.parquet, .csv,
// .json, .jsonl) or COPY's FORMAT option; it is written as the query
// streams and appears whole when the query has succeeded, never in part.
// As in MySQL, INTO OUTFILE does not overwrite an existing file; as in
// DuckDB, COPY replaces it.

// intoOf is the INTO clause of a row-returning statement, nil if none.
func intoOf(ast sqlparser.Statement) *sqlparser.SelectInto {
	switch s := ast.(type) {
	case *sqlparser.Select:
		return s.Into
	case *sqlparser.Union:
		return s.Into
	}
	return nil
}

// withoutInto is ast without its INTO clause (a copy; ast is unchanged).
func withoutInto(ast sqlparser.Statement) sqlparser.Statement {
	switch s := ast.(type) {
	case *sqlparser.Select:
		c := *s
		c.Into = nil
		return &c
	case *sqlparser.Union:
		c := *s
		c.Into = nil
		return &c
	}
	return ast
}

// rowSink writes a result to a file.
type rowSink interface {
	Write(arrow.RecordBatch) error
	Close() error // finishes the file
	Abort()       // discards it
}

func (e *Engine) intoOutfile(ctx context.Context, ast sqlparser.Statement, into *sqlparser.SelectInto) (*Result, error) {
	if into.Type != sqlparser.IntoOutfile {
		return nil, errs.New(errs.Unsupported, "SELECT … INTO DUMPFILE, INTO OUTFILE S3 and INTO variables are not supported (INTO OUTFILE is)")
	}
	if strings.TrimSpace(into.ExportOption) != "" || into.Charset.Name != "" || into.FormatOption != "" {
		return nil, errs.New(errs.Unsupported, "INTO OUTFILE options (FIELDS, LINES, CHARACTER SET, FORMAT) are not supported: the file's format follows its extension (COPY (query) TO 'file' (FORMAT csv, DELIMITER ';') takes options)")
	}
	name, err := parser.StringValue(into.FileName)
	if err != nil {
		return nil, err
	}
	return e.writeQuery(ctx, withoutInto(ast), name, outOptions{})
}

// outOptions say how writeQuery writes its file.
type outOptions struct {
	format    string // "" follows the file's extension
	csv       format.CSVOptions
	overwrite bool // replace an existing file (COPY), or refuse (INTO OUTFILE)
}

// writeQuery runs query and writes its rows to the file name, under the
// catalog's file-access policy for writes; it returns the number of rows.
func (e *Engine) writeQuery(ctx context.Context, query sqlparser.Statement, name string, o outOptions) (*Result, error) {
	path, err := e.catalog(ctx).WritePath(name)
	if err != nil {
		return nil, err
	}
	kind := o.format
	if kind == "" {
		if kind, err = outFormat(name); err != nil {
			return nil, err
		}
	}
	if o.csv != (format.CSVOptions{}) && kind != "csv" {
		return nil, errs.NewNear(errs.Unsupported, name, "HEADER and DELIMITER apply to CSV, not to %s", kind)
	}
	if fi, err := os.Lstat(path); err == nil {
		if !o.overwrite {
			return nil, errs.NewNear(errs.IO, name, "file %s already exists", name)
		}
		if fi.IsDir() {
			return nil, errs.NewNear(errs.IO, name, "%s is a directory", name)
		}
	}
	s, err := e.stream(ctx, query)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// Every rank runs the query; rank 0, which holds the rows, writes.
	var sink rowSink
	if e.Rank() == 0 {
		if sink, err = openSink(kind, path, s.Schema, o.csv); err != nil {
			return nil, err
		}
	}
	rows, err := drain(s, sink, nil)
	if err != nil {
		return nil, err
	}
	return &Result{RowsAffected: rows}, nil
}

// drain reads a stream to its end into sink (nil: the rows are only
// counted), each batch first passing check (nil: none), and finishes the
// sink, or discards it when the query, check or a write fails: a file
// appears whole or not at all. It returns the rows read.
func drain(s *Stream, sink rowSink, check func(arrow.RecordBatch) error) (int64, error) {
	var rows int64
	var err error
	for {
		b, ok := s.Next()
		if !ok {
			break
		}
		rows += b.NumRows()
		if err == nil && check != nil {
			err = check(b)
		}
		if err == nil && sink != nil {
			err = sink.Write(b)
		}
		b.Release()
		if err != nil {
			s.Close()
		}
	}
	if err == nil {
		err = s.Err()
	}
	if sink != nil {
		if err != nil {
			sink.Abort()
		} else {
			err = sink.Close()
		}
	}
	if err != nil {
		return 0, err
	}
	return rows, nil
}

// copyTo runs COPY (query) TO 'file' [(options)] and COPY table TO 'file'
// [(options)] (DuckDB's): FORMAT parquet|csv|json|jsonl, and for CSV
// HEADER [true|false] and DELIMITER 'c'. An existing file is replaced.
func (e *Engine) copyTo(ctx context.Context, s *sqlparser.CopyTo) (*Result, error) {
	var query sqlparser.Statement = s.Query
	if s.Query == nil {
		query = &sqlparser.Select{
			SelectExprs: &sqlparser.SelectExprs{Exprs: []sqlparser.SelectExpr{&sqlparser.StarExpr{}}},
			From:        []sqlparser.TableExpr{&sqlparser.AliasedTableExpr{Expr: s.Table}},
		}
	} else if intoOf(s.Query) != nil {
		return nil, errs.New(errs.Binding, "COPY's query cannot have an INTO clause")
	}
	o, err := copyOptions(s.Options)
	if err != nil {
		return nil, err
	}
	return e.writeQuery(ctx, query, s.File, o)
}

// copyOptions reads COPY's options.
func copyOptions(opts []*sqlparser.CopyOption) (outOptions, error) {
	o := outOptions{overwrite: true}
	seen := map[string]bool{}
	for _, opt := range opts {
		name := strings.ToLower(opt.Name.String())
		if seen[name] {
			return o, errs.NewNear(errs.Binding, name, "COPY option %s is given twice", name)
		}
		seen[name] = true
		val, isName := "", false
		switch v := opt.Value.(type) {
		case nil:
		case *sqlparser.ColName:
			val, isName = v.Name.String(), true
		case *sqlparser.Literal:
			val = v.Val
		case sqlparser.BoolVal:
			val = strconv.FormatBool(bool(v))
		}
		bad := func(want string) error {
			return errs.NewNear(errs.Binding, name, "COPY option %s must be %s, not %s", strings.ToUpper(name), want, sqlparser.String(opt.Value))
		}
		switch name {
		case "format":
			switch f := strings.ToLower(val); f {
			case "parquet", "csv", "json", "jsonl":
				o.format = f
			case "ndjson":
				o.format = "jsonl"
			default:
				return o, bad("parquet, csv, json or jsonl")
			}
		case "header":
			h := true
			if opt.Value != nil {
				b, err := strconv.ParseBool(strings.ToLower(val))
				if err != nil || isName {
					return o, bad("true or false")
				}
				h = b
			}
			o.csv.NoHeader = !h
		case "delimiter", "delim", "sep":
			if val == `\t` {
				val = "\t"
			}
			if isName || len(val) != 1 || val == "\"" || val == "\n" || val == "\r" {
				return o, bad("one character, as ';'")
			}
			if val != "," {
				o.csv.Delim = val[0]
			}
		default:
			return o, errs.NewNear(errs.Unsupported, name, "COPY option %s is not supported (FORMAT, HEADER and DELIMITER are)", strings.ToUpper(name))
		}
	}
	return o, nil
}

// outFormat is the output format a file name's extension names.
func outFormat(name string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".parquet":
		return "parquet", nil
	case ".csv":
		return "csv", nil
	case ".json":
		return "json", nil
	case ".jsonl", ".ndjson":
		return "jsonl", nil
	}
	return "", errs.NewNear(errs.Unsupported, name, "cannot tell the format of %s: name it .parquet, .csv, .json or .jsonl", name)
}

func openSink(kind, path string, schema *arrow.Schema, csv format.CSVOptions) (rowSink, error) {
	if kind == "parquet" {
		return catalog.CreateParquet(path, schema)
	}
	return newTextSink(kind, path, schema, csv)
}

// textSink writes a text format through format's row writers into a
// temporary file renamed into place by Close.
type textSink struct {
	f    *os.File
	path string
	rw   format.RowWriter
}

func newTextSink(kind, path string, schema *arrow.Schema, csv format.CSVOptions) (*textSink, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot write %s", path)
	}
	rw := format.NewRowWriter(kind, f, schema, format.Options{})
	if kind == "csv" {
		rw = format.NewCSVWriter(f, schema, csv)
	}
	return &textSink{f: f, path: path, rw: rw}, nil
}

func (t *textSink) Write(b arrow.RecordBatch) error {
	if err := t.rw.Write(b); err != nil {
		return errs.Wrap(errs.IO, err, "writing %s", t.path)
	}
	return nil
}

func (t *textSink) Close() error {
	err := t.rw.Close()
	if err == nil {
		err = t.f.Chmod(0o644)
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(t.f.Name(), t.path)
	}
	if err != nil {
		os.Remove(t.f.Name())
		return errs.Wrap(errs.IO, err, "writing %s", t.path)
	}
	return nil
}

func (t *textSink) Abort() {
	t.f.Close()
	os.Remove(t.f.Name())
}
