package duckdb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

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
// choices), so its own files' conformance says nothing about them.
func TestTPCHOnDuckDBFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("generates TPC-H SF 0.1 and runs 44 queries in two engines")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	src := filepath.Join(root, "data", "tpch-sf0.1")
	if err := tpch.EnsureGenerated(0.1, src); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteParquet(src, dir, tpch.Tables); err != nil {
		t.Fatal(err)
	}
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
	for _, set := range []string{"queries", "queries_alt"} {
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
