package catalog

import (
	"errors"
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
)

// Files out: what COPY … TO, SELECT … INTO OUTFILE and the tables of a
// --db directory write. A file appears whole or not at all: it is written
// beside its final name and renamed into place when complete, so a reader
// never sees half a file, nor a failed write a truncated one.

// WritePath is where a statement may write the file it names: the absolute
// path, judged by c's file-access policy as a read of it would be (a
// confined catalog writes only under its allowed prefixes, and its refusal
// does not say whether the path exists). The directory must exist.
func (c *Catalog) WritePath(name string) (string, error) {
	a := c.policy()
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", errs.Wrap(errs.IO, err, "%s", name)
	}
	if a != nil {
		if _, err := a.checkName(name); err != nil {
			return "", err
		}
		dir, _, err := a.resolve(filepath.Dir(abs))
		if errors.Is(err, errOutside) {
			return "", refused(name)
		}
		if err != nil {
			return "", errs.Wrap(errs.IO, err, "directory of %s", name)
		}
		abs = filepath.Join(dir, filepath.Base(abs))
		if !a.allows(abs) {
			return "", refused(name)
		}
	}
	if st, err := os.Stat(filepath.Dir(abs)); err != nil || !st.IsDir() {
		return "", errs.New(errs.IO, "cannot write %s: its directory does not exist", name)
	}
	return abs, nil
}

// parquetWriteProps are the properties of the Parquet files gq writes:
// snappy, dictionaries, statistics (row-group pruning reads them), and
// row groups of a size other readers split well.
func parquetWriteProps() *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithStoreDecimalAsInteger(true),
		parquet.WithMaxRowGroupLength(1<<20),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
	)
}

// ParquetWriter writes record batches into one Parquet file.
type ParquetWriter struct {
	path, tmp string
	schema    *arrow.Schema // as written: decimals widened
	fw        *pqarrow.FileWriter
	mem       memory.Allocator
	rows      int64
}

// CreateParquet starts the Parquet file path (created by Close) for
// batches of schema. gq's DECIMAL up to 18 digits (Arrow decimal64) is
// written as decimal128, the width every Parquet reader knows; the values
// are the same. DECIMAL(19..38) columns are decimal128 already and go as
// they are.
func CreateParquet(path string, schema *arrow.Schema) (*ParquetWriter, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "cannot write %s", path)
	}
	w := &ParquetWriter{path: path, tmp: f.Name(), schema: wideDecimalSchema(schema), mem: memory.NewGoAllocator()}
	w.fw, err = pqarrow.NewFileWriter(w.schema, f, parquetWriteProps(), pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		os.Remove(w.tmp)
		return nil, errs.Wrap(errs.IO, err, "cannot write %s", path)
	}
	return w, nil
}

// Write appends b's rows (b is the caller's still).
func (w *ParquetWriter) Write(b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	wide, err := wideDecimals(b, w.schema, w.mem)
	if err != nil {
		return err
	}
	defer wide.Release()
	if err := w.fw.WriteBuffered(wide); err != nil {
		return errs.Wrap(errs.IO, err, "writing %s", w.path)
	}
	w.rows += b.NumRows()
	return nil
}

// Rows is how many rows were written.
func (w *ParquetWriter) Rows() int64 { return w.rows }

// Close finishes the file and moves it into place.
func (w *ParquetWriter) Close() error {
	err := w.fw.Close() // closes the temporary file too
	if err == nil {
		err = os.Chmod(w.tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(w.tmp, w.path)
	}
	if err != nil {
		os.Remove(w.tmp)
		return errs.Wrap(errs.IO, err, "writing %s", w.path)
	}
	return nil
}

// Abort discards the file.
func (w *ParquetWriter) Abort() {
	w.fw.Close()
	os.Remove(w.tmp)
}

// wideDecimalSchema is s with its decimal64 fields as decimal128 of the
// same precision and scale.
func wideDecimalSchema(s *arrow.Schema) *arrow.Schema {
	fields := s.Fields()
	changed := false
	for i, f := range fields {
		if d, ok := f.Type.(*arrow.Decimal64Type); ok {
			fields[i].Type = &arrow.Decimal128Type{Precision: d.Precision, Scale: d.Scale}
			changed = true
		}
		if f.Type.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			fields[i].Type = newParquetIntervalType() // Parquet's INTERVAL (interval_parquet.go)
			changed = true
		}
	}
	if !changed {
		return s
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// wideDecimals is b under wide (wideDecimalSchema of b's schema): its
// decimal64 columns copied into decimal128, the others shared. The
// caller releases the result.
func wideDecimals(b arrow.RecordBatch, wide *arrow.Schema, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range b.Columns() {
		if iv, ok := c.(*array.MonthDayNanoInterval); ok && wide.Field(i).Type.ID() == arrow.EXTENSION {
			out, err := parquetIntervals(wide.Field(i).Name, iv, mem)
			if err != nil {
				return nil, err
			}
			cols[i] = out
			continue
		}
		d, ok := c.(*array.Decimal64)
		if !ok {
			c.Retain()
			cols[i] = c
			continue
		}
		bld := array.NewDecimal128Builder(mem, wide.Field(i).Type.(*arrow.Decimal128Type))
		bld.Reserve(d.Len())
		for r := range d.Len() {
			if d.IsNull(r) {
				bld.AppendNull()
			} else {
				bld.UnsafeAppend(decimal128.FromI64(int64(d.Value(r))))
			}
		}
		cols[i] = bld.NewArray()
		bld.Release()
	}
	return array.NewRecordBatch(wide, cols, b.NumRows()), nil
}
