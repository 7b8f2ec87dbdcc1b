package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The scan benchmarks read a lineitem-like file written as gq's TPC-H
// generator writes it (Snappy, dictionaries, decimals as INT64, row groups
// of 122880): 1M rows of orderkey, quantity, extendedprice, discount,
// shipdate, returnflag, shipmode and comment.
const scanBenchRows = 1 << 20

var (
	scanBenchOnce sync.Once
	scanBenchPath string
	scanBenchErr  error
)

func scanBenchFile(b *testing.B) *ParquetTable {
	scanBenchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gq-scan-bench")
		if err != nil {
			scanBenchErr = err
			return
		}
		scanBenchPath = filepath.Join(dir, "lineitem.parquet")
		scanBenchErr = writeScanBench(scanBenchPath)
	})
	if scanBenchErr != nil {
		b.Fatal(scanBenchErr)
	}
	tb, err := OpenFile("lineitem", scanBenchPath)
	if err != nil {
		b.Fatal(err)
	}
	return tb.(*ParquetTable)
}

func writeScanBench(path string) error {
	money := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "l_orderkey", Type: arrow.PrimitiveTypes.Int64},
		{Name: "l_quantity", Type: money},
		{Name: "l_extendedprice", Type: money},
		{Name: "l_discount", Type: money},
		{Name: "l_shipdate", Type: arrow.FixedWidthTypes.Date32},
		{Name: "l_returnflag", Type: arrow.BinaryTypes.String},
		{Name: "l_shipmode", Type: arrow.BinaryTypes.String},
		{Name: "l_comment", Type: arrow.BinaryTypes.String},
	}, nil)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy), parquet.WithStoreDecimalAsInteger(true),
		parquet.WithMaxRowGroupLength(122880), parquet.WithDictionaryDefault(true), parquet.WithStats(true)),
		pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer bld.Release()
	x := uint64(88172645463325252)
	next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	words := []string{"furiously", "green", "slyly", "ironic", "deposits", "carefully", "final", "requests"}
	modes := []string{"MAIL", "SHIP", "AIR", "RAIL", "TRUCK", "REG AIR", "FOB"}
	for i := 0; i < scanBenchRows; i++ {
		bld.Field(0).(*array.Int64Builder).Append(int64(i / 4))
		bld.Field(1).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(next()%50+1) * 100))
		bld.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(next()%10_000_000 + 90_000)))
		bld.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(next() % 11)))
		bld.Field(4).(*array.Date32Builder).Append(arrow.Date32(8036 + next()%2526))
		bld.Field(5).(*array.StringBuilder).Append([]string{"A", "N", "R"}[next()%3])
		bld.Field(6).(*array.StringBuilder).Append(modes[next()%7])
		bld.Field(7).(*array.StringBuilder).Append(fmt.Sprintf("%s %s %s", words[next()%8], words[next()%8], words[next()%8]))
		if (i+1)%122880 == 0 || i == scanBenchRows-1 {
			rec := bld.NewRecordBatch()
			err := w.WriteBuffered(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
	}
	return w.Close()
}

// benchScan reads columns of every split, with filter when not nil,
// reporting decoded rows per second.
func benchScan(b *testing.B, t *ParquetTable, columns []int, filter *RowFilter) {
	mem := memory.NewGoAllocator()
	b.ResetTimer()
	for range b.N {
		for s := 0; s < t.NumSplits(); s++ {
			err := t.ReadFiltered(context.Background(), s, columns, 1<<16, mem, filter, func(r arrow.RecordBatch) error {
				r.Release()
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(scanBenchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkParquetScanInt64(b *testing.B)    { benchScan(b, scanBenchFile(b), []int{0}, nil) }
func BenchmarkParquetScanDecimals(b *testing.B) { benchScan(b, scanBenchFile(b), []int{1, 2, 3}, nil) }
func BenchmarkParquetScanDate(b *testing.B)     { benchScan(b, scanBenchFile(b), []int{4}, nil) }
func BenchmarkParquetScanDictStrings(b *testing.B) {
	benchScan(b, scanBenchFile(b), []int{5, 6}, nil)
}
func BenchmarkParquetScanComment(b *testing.B) { benchScan(b, scanBenchFile(b), []int{7}, nil) }

// BenchmarkParquetScanFilteredQ6 is Q6's scan: a date range that keeps
// about 1/7 of the rows, the other columns copied out only for those.
func BenchmarkParquetScanFilteredQ6(b *testing.B) {
	benchScan(b, scanBenchFile(b), []int{4, 1, 2, 3}, &RowFilter{Columns: []int{0}, Select: func(r arrow.RecordBatch, _, sel []int32) ([]int32, error) {
		d := r.Column(0).(*array.Date32).Date32Values()
		for i, v := range d {
			if v >= 8766 && v < 9131 {
				sel = append(sel, int32(i))
			}
		}
		return sel, nil
	}})
}

// BenchmarkParquetScanPqarrow is the decimals through pqarrow, the path
// the direct reader replaced, for comparison.
func BenchmarkParquetScanPqarrow(b *testing.B) {
	t := scanBenchFile(b)
	t.direct = nil
	benchScan(b, t, []int{1, 2, 3}, nil)
}
