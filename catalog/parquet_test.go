package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/errs"
)

// writeParquet writes rec to path in row groups of at most rgRows rows.
func writeParquet(t testing.TB, path string, rec arrow.RecordBatch, rgRows int64) {
	t.Helper()
	writeParquetWith(t, path, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rgRows), parquet.WithStats(true)))
}

// writeParquetWith writes rec to path with the writer properties props.
func writeParquetWith(t testing.TB, path string, rec arrow.RecordBatch, props *parquet.WriterProperties) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sampleRecord: 10 rows of mixed file types, with NULLs in price and s.
func sampleRecord(t testing.TB, offset int) arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := 0; i < 10; i++ {
		v := i + offset
		b.Field(0).(*array.Int32Builder).Append(int32(v))
		if v%3 == 0 {
			b.Field(1).AppendNull()
			b.Field(3).AppendNull()
		} else {
			b.Field(1).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(v*100 + 5 - 1000)))
			b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("s%d", v))
		}
		b.Field(2).(*array.Date32Builder).Append(arrow.Date32(9000 + v))
		b.Field(4).(*array.Float32Builder).Append(float32(v) / 2)
		b.Field(5).(*array.Uint8Builder).Append(uint8(200 + v))
		b.Field(6).(*array.BooleanBuilder).Append(v%2 == 0)
	}
	return b.NewRecordBatch()
}

// readAll reads every split of t with the given columns into rows of
// strings (NULL as "NULL"), checking batch sizes and schemas on the way.
func readAll(t *testing.T, tb Table, columns []int, batchSize int) [][]string {
	t.Helper()
	mem := countedAllocator(t)
	var rows [][]string
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, columns, batchSize, mem, func(b arrow.RecordBatch) error {
			defer b.Release()
			if _, shared := tb.(*memTable); !shared { // a memTable's batches are the table's
				checkCounted(t, mem, b)
			}
			if int(b.NumRows()) > batchSize {
				t.Errorf("batch of %d rows > batch size %d", b.NumRows(), batchSize)
			}
			if int(b.NumCols()) != len(columns) {
				t.Fatalf("batch has %d columns, want %d", b.NumCols(), len(columns))
			}
			for i, c := range columns {
				if !arrow.TypeEqual(b.Column(i).DataType(), tb.Schema().Field(c).Type) {
					t.Errorf("column %d type %s, schema says %s", i, b.Column(i).DataType(), tb.Schema().Field(c).Type)
				}
			}
			for r := 0; r < int(b.NumRows()); r++ {
				row := make([]string, len(columns))
				for i := range columns {
					row[i] = b.Column(i).ValueStr(r)
					if b.Column(i).IsNull(r) {
						row[i] = "NULL"
					}
				}
				rows = append(rows, row)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("split %d: %v", s, err)
		}
	}
	return rows
}

func TestParquetNormalisesTypes(t *testing.T) {
	dir := t.TempDir()
	rec := sampleRecord(t, 0)
	defer rec.Release()
	path := filepath.Join(dir, "t.parquet")
	writeParquet(t, path, rec, 4)

	tb, err := OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumSplits() != 3 {
		t.Errorf("splits = %d, want 3 row groups", tb.NumSplits())
	}
	if tb.Stats().RowCount != 10 {
		t.Errorf("row count = %d", tb.Stats().RowCount)
	}
	want := []string{"id int64", "price decimal64(15, 2)", "d date32", "s utf8", "f float64", "u int64", "b bool"}
	for i, f := range tb.Schema().Fields() {
		if got := f.Name + " " + f.Type.String(); got != want[i] {
			t.Errorf("field %d = %q, want %q", i, got, want[i])
		}
	}
	if !tb.Schema().Field(1).Nullable || tb.Schema().Field(0).Nullable {
		t.Errorf("nullability not as in the file: %v", tb.Schema())
	}

	rows := readAll(t, tb, []int{3, 1, 0}, 3)
	if len(rows) != 10 {
		t.Fatalf("read %d rows", len(rows))
	}
	checks := map[int]string{0: "NULL NULL 0", 1: "s1 -8.95 1", 4: "s4 -5.95 4", 9: "NULL NULL 9"}
	for r, w := range checks {
		if got := strings.Join(rows[r], " "); got != w {
			t.Errorf("row %d = %q, want %q", r, got, w)
		}
	}
	rows = readAll(t, tb, []int{6, 5, 4, 2, 2}, 100)
	if got := strings.Join(rows[7], " "); got != "false 207 3.5 1994-08-30 1994-08-30" {
		t.Errorf("row 7 = %q", got)
	}
	// No columns: only row counts (COUNT(*)).
	if rows := readAll(t, tb, nil, 2); len(rows) != 10 {
		t.Errorf("column-less read gave %d rows", len(rows))
	}

	pt := tb.(*ParquetTable)
	st, ok := pt.RowGroupStats(1, 0) // ids 4..7
	if !ok || !st.HasMinMax || st.Min != int64(4) || st.Max != int64(7) {
		t.Errorf("stats of id in row group 1 = %+v, %v", st, ok)
	}
	st, ok = pt.RowGroupStats(0, 1) // prices of ids 1,2 (0,3 NULL)
	if !ok || st.Min != int64(-895) || st.Max != int64(-795) || st.NullCount != 2 {
		t.Errorf("stats of price in row group 0 = %+v, %v", st, ok)
	}
	st, ok = pt.RowGroupStats(2, 2)
	if !ok || st.Min != int32(9008) || st.Max != int32(9009) {
		t.Errorf("stats of d in row group 2 = %+v, %v", st, ok)
	}
}

func TestParquetGlobAndSchemaMismatch(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"a1.parquet", "a2.parquet"} {
		rec := sampleRecord(t, i*10)
		writeParquet(t, filepath.Join(dir, name), rec, 100)
		rec.Release()
	}
	tb, err := OpenFile("a", filepath.Join(dir, "a*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	rows := readAll(t, tb, []int{0}, 1024)
	if len(rows) != 20 || rows[0][0] != "0" || rows[19][0] != "19" {
		t.Errorf("glob read %v", rows)
	}

	// A third file with another schema.
	mem := memory.NewGoAllocator()
	b := array.NewInt64Builder(mem)
	b.Append(1)
	col := b.NewArray()
	other := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1)
	writeParquet(t, filepath.Join(dir, "a3.parquet"), other, 100)
	_, err = OpenFile("a", filepath.Join(dir, "a*.parquet"))
	if !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), "a1.parquet") || !strings.Contains(err.Error(), "a3.parquet") {
		t.Errorf("schema mismatch error = %v", err)
	}
	_, err = OpenFile("z", filepath.Join(dir, "zz*.parquet"))
	if !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), "no files match") {
		t.Errorf("no-match error = %v", err)
	}
}

func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	rec := sampleRecord(t, 0)
	defer rec.Release()
	good := filepath.Join(dir, "good.parquet")
	writeParquet(t, good, rec, 4)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}

	// Truncated file: the footer is gone.
	trunc := filepath.Join(dir, "trunc.parquet")
	os.WriteFile(trunc, data[:len(data)/2], 0o644)
	if _, err := OpenFile("t", trunc); !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), "trunc.parquet") {
		t.Errorf("truncated: %v", err)
	}
	// Corrupt data pages behind an intact footer: an error at Read, no panic.
	corrupt := filepath.Join(dir, "corrupt.parquet")
	bad := append([]byte(nil), data...)
	for i := 4; i < len(bad)/3; i++ {
		bad[i] ^= 0x5a
	}
	os.WriteFile(corrupt, bad, 0o644)
	if tb, err := OpenFile("t", corrupt); err == nil {
		mem := memory.NewGoAllocator()
		err = tb.Read(context.Background(), 0, []int{0, 1, 3}, 100, mem, func(b arrow.RecordBatch) error { b.Release(); return nil })
		t.Logf("corrupt read: %v", err)
		if !errors.Is(err, errs.IO) {
			t.Errorf("corrupt read: %v", err)
		}
	} else if !errors.Is(err, errs.IO) {
		t.Errorf("corrupt open: %v", err)
	}
	// Decimals past 38 digits and columns of only NULLs do not block the
	// file: they are named as unreadable (unreadable_test.go tests more).
	for _, typ := range []arrow.DataType{&arrow.Decimal256Type{Precision: 40, Scale: 2}, arrow.Null} {
		s := arrow.NewSchema([]arrow.Field{{Name: "wide", Type: typ, Nullable: true}}, nil)
		b := array.NewRecordBuilder(memory.NewGoAllocator(), s)
		b.Field(0).AppendNull()
		r := b.NewRecordBatch()
		p := filepath.Join(dir, "wide.parquet")
		writeParquet(t, p, r, 10)
		tb, err := OpenFile("w", p)
		if err != nil || tb.Schema().NumFields() != 0 || len(Unreadable(tb)) != 1 || Unreadable(tb)[0].Name != "wide" {
			t.Errorf("%s: %v", typ, err)
		}
	}
	if _, err := OpenFile("m", filepath.Join(dir, "missing.parquet")); !errors.Is(err, errs.IO) {
		t.Errorf("missing: %v", err)
	}
}

func TestReadCancelled(t *testing.T) {
	dir := t.TempDir()
	rec := sampleRecord(t, 0)
	defer rec.Release()
	path := filepath.Join(dir, "t.parquet")
	writeParquet(t, path, rec, 100)
	tb, err := OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err = tb.Read(ctx, 0, []int{0}, 2, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
		b.Release()
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("cancelled read: err %v after %d batches", err, n)
	}
}

func BenchmarkParquetRead(b *testing.B) {
	const rows = 1 << 20
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int32},
		{Name: "v", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}},
		{Name: "s", Type: arrow.BinaryTypes.String},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	for i := 0; i < rows; i++ {
		rb.Field(0).(*array.Int32Builder).Append(int32(i))
		rb.Field(1).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i % 100000)))
		rb.Field(2).(*array.StringBuilder).Append([]string{"AIR", "MAIL", "SHIP", "TRUCK"}[i%4])
	}
	rec := rb.NewRecordBatch()
	path := filepath.Join(b.TempDir(), "bench.parquet")
	writeParquet(b, path, rec, 122880)
	rec.Release()
	tb, err := OpenFile("bench", path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for s := 0; s < tb.NumSplits(); s++ {
			err := tb.Read(context.Background(), s, []int{0, 1, 2}, 8192, mem, func(r arrow.RecordBatch) error { r.Release(); return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// Splits share the cached footer: read them all concurrently (run with -race).
func TestParquetConcurrentReads(t *testing.T) {
	dir := t.TempDir()
	rec := sampleRecord(t, 0)
	defer rec.Release()
	path := filepath.Join(dir, "t.parquet")
	writeParquet(t, path, rec, 2)
	tb, err := OpenFile("t", path)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, tb.NumSplits())
	for s := 0; s < tb.NumSplits(); s++ {
		go func() {
			n := int64(0)
			err := tb.Read(context.Background(), s, []int{1, 3}, 8, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
				n += b.NumRows()
				b.Release()
				return nil
			})
			if err == nil && n != 2 {
				err = fmt.Errorf("split %d: %d rows", s, n)
			}
			errc <- err
		}()
	}
	for s := 0; s < tb.NumSplits(); s++ {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}

// TestDataBytes checks the catalog's data size is its Parquet tables'
// column chunks: more than nothing, no more than the files, summed over
// tables.
func TestDataBytes(t *testing.T) {
	dir := t.TempDir()
	var files int64
	for i, name := range []string{"a.parquet", "b.parquet"} {
		rec := sampleRecord(t, 10*i)
		writeParquet(t, filepath.Join(dir, name), rec, 4)
		rec.Release()
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files += st.Size()
	}
	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	a, _ := c.Table("a")
	b, _ := c.Table("b")
	got := c.DataBytes()
	if want := a.(*ParquetTable).fileBytes() + b.(*ParquetTable).fileBytes(); got != want || got <= 0 || got > files {
		t.Fatalf("DataBytes %d: want the tables' %d, positive, at most the files' %d bytes", got, want, files)
	}
}
