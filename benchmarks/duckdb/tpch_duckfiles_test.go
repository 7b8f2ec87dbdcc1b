package duckdb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	pqfile "github.com/apache/arrow-go/v18/parquet/file"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/engine"
	"gq/format"
)

// TestTPCHOnDuckDBFiles: the 22 TPC-H queries (both substitution sets)
// over Parquet files that DuckDB wrote (WriteParquet: its defaults, every
// column optional, PLAIN_DICTIONARY and PLAIN pages, snappy) answer in gq
// as they do in DuckDB over the same files. gq's reader takes other paths
// on these files than on its own (optional columns, DuckDB's dictionary
// choices), so its own files' conformance says nothing about them. Then
// the first set again over files DuckDB wrote with each other codec it
// offers: the 22 queries read every column of every table.
func TestTPCHOnDuckDBFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("generates TPC-H SF 0.1 and runs 154 queries in two engines")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	src := filepath.Join(root, "data", "tpch-sf0.1")
	if err := tpch.EnsureGenerated(0.1, src); err != nil {
		t.Fatal(err)
	}
	for _, codec := range []string{"", "uncompressed", "gzip", "zstd", "lz4", "brotli"} {
		sets := []string{"queries"}
		name := codec
		if codec == "" {
			sets, name = []string{"queries", "queries_alt"}, "snappy"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tables := tpch.Tables
			if codec == "brotli" {
				// DuckDB's brotli writer takes minutes over the large
				// tables: only the three smallest are brotli.
				tables = []string{"nation", "region", "supplier"}
				others := slices.DeleteFunc(slices.Clone(tpch.Tables), func(n string) bool { return slices.Contains(tables, n) })
				if err := WriteParquetCodec(src, dir, others, ""); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteParquetCodec(src, dir, tables, codec); err != nil {
				t.Fatal(err)
			}
			// The files hold the codec asked for (DuckDB's lz4 is LZ4_RAW).
			rdr, err := pqfile.OpenParquetFile(filepath.Join(dir, tables[len(tables)-1]+".parquet"), false)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := rdr.MetaData().RowGroup(0).ColumnChunk(0)
			rdr.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.ToLower(cc.Compression().String()); !strings.HasPrefix(got, name) {
				t.Fatalf("%s: DuckDB wrote codec %s", name, got)
			}
			tpchOnFiles(t, root, dir, sets)
		})
	}
}

// tpchOnFiles runs the TPC-H query sets over dir's tables in gq and in
// DuckDB and compares the answers.
func tpchOnFiles(t *testing.T, root, dir string, sets []string) {
	cat := catalog.New()
	for _, name := range tpch.Tables {
		tbl, err := catalog.OpenFile(name, filepath.Join(dir, name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := cat.Register(tbl, false); err != nil {
			t.Fatal(err)
		}
	}
	eng := engine.New(cat, engine.Options{Threads: 2}.WithEnv(os.LookupEnv))
	defer eng.Close()
	db, err := Open(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, set := range sets {
		for n := 1; n <= 22; n++ {
			name := fmt.Sprintf("q%02d", n)
			t.Run(set+"/"+name, func(t *testing.T) {
				sql, err := os.ReadFile(filepath.Join(root, "testdata", "tpch", set, name+".sql"))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				var want bytes.Buffer
				if err := RunScript(ctx, db, string(sql), &want); err != nil {
					t.Fatalf("DuckDB: %v", err)
				}
				res, err := eng.Query(ctx, string(sql))
				if err != nil {
					t.Fatalf("gq: %v", err)
				}
				defer res.Release()
				var got bytes.Buffer
				if err := format.WriteCSV(&got, res.Schema, res.Batches); err != nil {
					t.Fatal(err)
				}
				if err := tpch.CompareCSV(got.Bytes(), want.Bytes(), true); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
