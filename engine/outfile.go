package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/format"
	"gq/parser"
)

// Query results written to a file: SELECT … INTO OUTFILE 'name'. The
// file's format follows its extension (.parquet, .csv, .json, .jsonl); it is written as the query streams and appears whole when the
// query has succeeded, never in part. As in MySQL, an existing file is
// not overwritten.

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
		return nil, errs.New(errs.Unsupported, "INTO OUTFILE options (FIELDS, LINES, CHARACTER SET, FORMAT) are not supported: the file's format follows its extension")
	}
	name, err := parser.StringValue(into.FileName)
	if err != nil {
		return nil, err
	}
	path, err := e.catalog(ctx).WritePath(name)
	if err != nil {
		return nil, err
	}
	kind, err := outFormat(name)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path); err == nil {
		return nil, errs.NewNear(errs.IO, name, "file %s already exists", name)
	}
	s, err := e.stream(ctx, withoutInto(ast))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// Every rank runs the query; rank 0, which holds the rows, writes.
	var sink rowSink
	if e.Rank() == 0 {
		if sink, err = openSink(kind, path, s.Schema); err != nil {
			return nil, err
		}
	}
	var rows int64
	for {
		b, ok := s.Next()
		if !ok {
			break
		}
		rows += b.NumRows()
		if sink != nil && err == nil {
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
		return nil, err
	}
	return &Result{RowsAffected: rows}, nil
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

func openSink(kind, path string, schema *arrow.Schema) (rowSink, error) {
	if kind == "parquet" {
		return catalog.CreateParquet(path, schema)
	}
	return newTextSink(kind, path, schema)
}

// textSink writes a text format through format's row writers into a
// temporary file renamed into place by Close.
type textSink struct {
	f    *os.File
	path string
	rw   format.RowWriter
}

func newTextSink(kind, path string, schema *arrow.Schema) (*textSink, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot write %s", path)
	}
	return &textSink{f: f, path: path, rw: format.NewRowWriter(kind, f, schema, format.Options{})}, nil
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
