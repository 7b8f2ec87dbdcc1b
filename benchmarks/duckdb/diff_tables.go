package duckdb

import (
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The differential tester's generated tables. Both engines read the same
// Parquet files, so any difference in answers is a difference in query
// semantics, not in loading. Every table has the same column kinds:
//
//	k BIGINT     small domain (join and group key), NULLs
//	i BIGINT     wide values, min/max int64 in the "extreme" table
//	d DECIMAL(18,2) / e DECIMAL(18,6) (full 18-digit precision in "extreme")
//	s VARCHAR    ASCII, empty strings, unicode
//	t DATE
//	f DOUBLE
//	ts TIMESTAMP (µs; only the timestamp generator reads it, and its
//	   values come from a stream of their own, so that the other columns
//	   are what they were before it existed)
//
// t0 and t1 are random with NULLs, t_empty has no rows, t_ext holds the
// extreme values, t_nan doubles DuckDB orders specially (NaN, ±Inf, -0).

// diffColumns are the generated tables' columns in order.
var diffColumns = []arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 18, Scale: 2}, Nullable: true},
	{Name: "e", Type: &arrow.Decimal128Type{Precision: 18, Scale: 6}, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "t", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
}

var diffStrings = []string{"", "a", "A", "abc", "Abc", "b", "zz", "hello world", "naïve", "日本語", "Ünïcödé", "x%y", "under_score", "  pad  ", "😀"}

// diffRow is one generated row; a nil entry is NULL.
type diffRow [8]any

// WriteDiffTables writes t0, t1, t_empty and t_ext as Parquet files into
// dir, drawn from seed.
func WriteDiffTables(dir string, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	tables := map[string][]diffRow{
		"t0":      withTimestamps(randomRows(r, 24), seed, 0),
		"t1":      withTimestamps(randomRows(r, 16), seed, 1),
		"t_empty": nil,
		"t_ext":   extremeRows(),
		"t_nan":   nanRows(),
	}
	for name, rows := range tables {
		if err := writeDiffParquet(filepath.Join(dir, name+".parquet"), rows); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func randomRows(r *rand.Rand, n int) []diffRow {
	rows := make([]diffRow, n)
	for i := range rows {
		var row diffRow
		row[0] = int64(r.IntN(5))
		row[1] = r.Int64N(2001) - 1000
		row[2] = r.Int64N(2000001) - 1000000 // unscaled, scale 2
		row[3] = r.Int64N(20000001) - 10000000
		row[4] = diffStrings[r.IntN(len(diffStrings))]
		row[5] = int32(9000 + r.IntN(2000))     // 1994..1999
		row[6] = float64(r.IntN(2001)-1000) / 8 // exact in binary
		for c := range row[:7] {
			if r.IntN(6) == 0 {
				row[c] = nil
			}
		}
		rows[i] = row
	}
	return rows
}

func extremeRows() []diffRow {
	const max18 = 999_999_999_999_999_999
	return []diffRow{
		{int64(0), int64(math.MaxInt64), int64(max18), int64(max18), "", int32(0), 0.0, int64(0)},
		{int64(1), int64(math.MinInt64), int64(-max18), int64(-max18), "日本語😀", int32(-1), -0.0, int64(-2208988800_000000)}, // 1900-01-01
		{int64(2), int64(0), int64(1), int64(1), "Ünïcödé", int32(2932896), 1e300, int64(4102444799_999999)},               // 2099-12-31 23:59:59.999999
		{int64(3), int64(-1), int64(-1), int64(-1), " ", int32(11016), -1e-300, int64(951825600_500000)},                   // 2000-02-29 12:00:00.5
		{nil, nil, nil, nil, nil, nil, nil, nil},
	}
}

// nanRows are t_nan's: NaN twice (it equals itself and is above every
// number in DuckDB's order), ±Inf, ±0 and ordinary values, keys shared
// with the other tables.
func nanRows() []diffRow {
	return []diffRow{
		{int64(4), int64(7), int64(150), int64(-2500000), "a", int32(10000), math.NaN(), nil},
		{int64(0), nil, int64(-150), nil, "b", nil, math.NaN(), nil},
		{int64(1), int64(-7), nil, int64(1), "abc", int32(10001), math.Inf(1), nil},
		{int64(2), int64(1), int64(0), int64(0), "", int32(10002), math.Inf(-1), nil},
		{int64(3), int64(0), int64(1), int64(1), "a", int32(10000), math.Copysign(0, -1), nil},
		{int64(1), int64(2), int64(250), int64(3), "zz", int32(10003), 2.5, nil},
		{nil, nil, nil, nil, nil, nil, nil, nil},
	}
}

func writeDiffParquet(path string, rows []diffRow) error {
	out := make([][]any, len(rows))
	for i := range rows {
		out[i] = rows[i][:]
	}
	return writeRowsParquet(path, diffColumns, out, 7)
}

// writeRowsParquet writes rows of Go values (nil: NULL; a decimal as its
// unscaled int64 or *big.Int) as a Parquet file of the given columns,
// rowGroup rows per row group.
func writeRowsParquet(path string, fields []arrow.Field, rows [][]any, rowGroup int64) error {
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for _, row := range rows {
		for c, v := range row {
			fb := b.Field(c)
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.Int64Builder:
				fb.Append(v.(int64))
			case *array.Decimal128Builder:
				if x, ok := v.(*big.Int); ok {
					fb.Append(decimal128.FromBigInt(x))
				} else {
					fb.Append(decimal128.FromI64(v.(int64)))
				}
			case *array.StringBuilder:
				fb.Append(v.(string))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(v.(int32)))
			case *array.Float64Builder:
				fb.Append(v.(float64))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(v.(int64)))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	// No statistics for DOUBLE columns: their min and max leave NaN out,
	// as the Parquet format says, and DuckDB 1.5.6 prunes with them all the
	// same ("where f > 1e308" loses the NaN rows that "where f + 0 > 1e308"
	// keeps). DuckDB's own writer leaves such a column's statistics out.
	opts := []parquet.WriterProperty{parquet.WithMaxRowGroupLength(rowGroup)}
	for _, fl := range fields {
		if fl.Type.ID() == arrow.FLOAT64 {
			opts = append(opts, parquet.WithStatsFor(fl.Name, false))
		}
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// WidenDiffDecimals redefines the generated tables' DuckDB views with
// their DECIMAL columns as DECIMAL(20,s). gq's DECIMAL arithmetic is exact
// up to the int64 range (19 digits) where MySQL's goes to 65 digits;
// DuckDB's DECIMAL(18) arithmetic stays 18 digits and overflows first, so
// widened, DuckDB computes what MySQL would and gq must agree or fail with
// a range error (counted apart, never a wrong value). Not wider: where the
// common type of two decimals (COALESCE, CASE) would need more than 38
// digits DuckDB drops scale (1.984755 becomes 1.98), and DECIMAL(30,s)
// operands reach that after one multiplication.
func WidenDiffDecimals(db *sql.DB, dir string) error {
	for _, name := range []string{"t0", "t1", "t_empty", "t_ext"} {
		abs, err := filepath.Abs(filepath.Join(dir, name+".parquet"))
		if err != nil {
			return err
		}
		q := fmt.Sprintf(`CREATE OR REPLACE VIEW %s AS SELECT k, i, d::DECIMAL(20,2) AS d, e::DECIMAL(20,6) AS e, s, t, f, ts FROM read_parquet('%s')`,
			name, strings.ReplaceAll(abs, "'", "''"))
		if _, err := db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// withTimestamps fills the ts column of rows from a stream of its own
// (seed, table): 1994..1999 like t, to the µs but mostly on whole
// seconds, hours or days so that truncations and equalities meet, with
// NULLs.
func withTimestamps(rows []diffRow, seed uint64, table uint64) []diffRow {
	r := rand.New(rand.NewPCG(seed, 0x7157+table))
	for i := range rows {
		if r.IntN(6) == 0 {
			continue
		}
		day := int64(9000 + r.IntN(2000))
		us := day * 86_400_000_000
		switch r.IntN(4) {
		case 0: // midnight
		case 1:
			us += int64(r.IntN(24)) * 3_600_000_000
		case 2:
			us += int64(r.IntN(86400)) * 1_000_000
		default:
			us += r.Int64N(86_400_000_000)
		}
		rows[i][7] = us
	}
	return rows
}
