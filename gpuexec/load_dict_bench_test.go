package gpuexec

import (
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
)

// BenchmarkLoadHostStrings is the host's share of loading lineitem's
// string columns of TPC-H q01, q12 and q19 (l_returnflag, l_linestatus,
// l_shipinstruct, l_shipmode) at SF1 onto a device, on one goroutine:
// every split read and each column's chunk encoded — from strings (Read)
// or from the file's dictionary indices (ReadDictionaries). The device's
// part (the upload and the gather of the strings) is not in it. Needs
// data/tpch-sf1 and data/tpch-sf1-duckdb (`gq gen tpch`, DuckDB's COPY).
func BenchmarkLoadHostStrings(b *testing.B) {
	for _, dir := range []string{"tpch-sf1", "tpch-sf1-duckdb"} {
		path := "../data/" + dir + "/lineitem.parquet"
		if _, err := os.Stat(path); err != nil {
			b.Logf("skipping %s: %v", dir, err)
			continue
		}
		tb, err := catalog.OpenFile("lineitem", path)
		if err != nil {
			b.Fatal(err)
		}
		dr, ok := tb.(dictReader)
		if !ok {
			b.Fatalf("%T is not a dictReader", tb)
		}
		var cols []int
		for _, name := range []string{"l_returnflag", "l_linestatus", "l_shipinstruct", "l_shipmode"} {
			cols = append(cols, tb.Schema().FieldIndices(name)[0])
		}
		for _, how := range []string{"strings", "dictionaries"} {
			read := tb.Read
			if how == "dictionaries" {
				read = dr.ReadDictionaries
			}
			b.Run(dir+"/"+how, func(b *testing.B) {
				for range b.N {
					for s := range tb.NumSplits() {
						var bs []arrow.RecordBatch
						rows := 0
						err := read(context.Background(), s, cols, 1<<17, memory.DefaultAllocator, func(r arrow.RecordBatch) error {
							bs = append(bs, r)
							rows += int(r.NumRows())
							return nil
						})
						if err != nil {
							b.Fatal(err)
						}
						for j := range cols {
							arrs := make([]arrow.Array, len(bs))
							for i, r := range bs {
								arrs[i] = r.Column(j)
							}
							ld, err := encodeChunk(arrs, rows, memory.DefaultAllocator)
							if err != nil || ld == nil {
								b.Fatalf("encoding %d: %v", cols[j], err)
							}
							ld.release()
						}
						for _, r := range bs {
							r.Release()
						}
					}
				}
			})
		}
	}
}
