package tpch

import (
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/errs"
	"gq/expr"
)

// rowGroupRows is the Parquet row group size; gq's scan parallelises by
// row group, so it is also the unit of parallel work.
const rowGroupRows = 122880

// tableWriter streams rows into Arrow builders and hands each full row
// group to a goroutine that encodes it, so generation and encoding overlap.
// It writes to a temp file renamed into place by close, so an interrupted
// run never leaves a partial table.
type tableWriter struct {
	path, tmp string
	f         *os.File
	b         *array.RecordBuilder
	ints      []*array.Int64Builder
	strs      []*array.StringBuilder
	decs      []*array.Decimal128Builder
	dates     []*array.Date32Builder
	rows      int
	recs      chan arrow.RecordBatch
	done      chan error
}

func newTableWriter(dir, name string, schema *arrow.Schema) (*tableWriter, error) {
	w := &tableWriter{path: filepath.Join(dir, name+".parquet")}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "tpch: create temp file for %s", name)
	}
	w.f, w.tmp = f, f.Name()
	// CreateTemp makes the file private (0600); the data is meant to be
	// read by other users and tools, as a file written by os.Create is.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(w.tmp)
		return nil, errs.Wrap(errs.IO, err, "tpch: %s", w.tmp)
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithStoreDecimalAsInteger(true),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
	)
	fw, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		os.Remove(w.tmp)
		return nil, errs.Wrap(errs.IO, err, "tpch: parquet writer for %s", name)
	}
	w.b = array.NewRecordBuilder(memory.DefaultAllocator, schema)
	n := schema.NumFields()
	w.ints = make([]*array.Int64Builder, n)
	w.strs = make([]*array.StringBuilder, n)
	w.decs = make([]*array.Decimal128Builder, n)
	w.dates = make([]*array.Date32Builder, n)
	for i, fb := range w.b.Fields() {
		switch b := fb.(type) {
		case *array.Int64Builder:
			w.ints[i] = b
		case *array.StringBuilder:
			w.strs[i] = b
		case *array.Decimal128Builder:
			w.decs[i] = b
		case *array.Date32Builder:
			w.dates[i] = b
		}
	}
	w.recs = make(chan arrow.RecordBatch, 2)
	w.done = make(chan error, 1)
	go func() {
		var werr error
		for rec := range w.recs {
			if werr == nil {
				werr = fw.Write(rec)
			}
			rec.Release()
		}
		if cerr := fw.Close(); werr == nil {
			werr = cerr
		}
		w.done <- werr
	}()
	return w, nil
}

func (w *tableWriter) int(col int, v int64)   { w.ints[col].Append(v) }
func (w *tableWriter) str(col int, v string)  { w.strs[col].Append(v) }
func (w *tableWriter) money(col int, v int64) { w.decs[col].Append(decimal128.FromI64(v)) }
func (w *tableWriter) date(col int, v string) { w.dates[col].Append(arrow.Date32(parseDate(v))) }

// endRow counts a finished row and ships a full row group.
func (w *tableWriter) endRow() {
	w.rows++
	if w.rows == rowGroupRows {
		w.flush()
	}
}

func (w *tableWriter) flush() {
	if w.rows == 0 {
		return
	}
	w.recs <- w.b.NewRecordBatch()
	w.rows = 0
}

// close finishes the file; with ok false (generation failed) it discards it.
func (w *tableWriter) close(ok bool) error {
	if ok {
		w.flush()
	}
	close(w.recs)
	err := <-w.done
	w.b.Release()
	// fw.Close closed w.f (pqarrow closes an io.Closer sink).
	if err == nil && ok {
		err = os.Rename(w.tmp, w.path)
	}
	if err != nil || !ok {
		os.Remove(w.tmp)
	}
	if err != nil {
		return errs.Wrap(errs.IO, err, "tpch: write %s", w.path)
	}
	return nil
}

// parseDate converts dbgen's "YYYY-MM-DD" to days since 1970-01-01.
func parseDate(s string) int32 {
	y := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	m := int(s[5]-'0')*10 + int(s[6]-'0')
	d := int(s[8]-'0')*10 + int(s[9]-'0')
	return expr.DaysFromCivil(int32(y), int32(m), int32(d))
}
