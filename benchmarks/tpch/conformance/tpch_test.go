package conformance

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

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// openEngine returns an engine over the SF 0.1 tables, or skips.
func openEngine(t *testing.T) *engine.Engine {
	dir := os.Getenv("GQ_TPCH_DATA")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "data", "tpch-sf0.1")
	}
	if _, err := os.Stat(filepath.Join(dir, "lineitem.parquet")); err != nil {
		t.Skipf("no TPC-H SF 0.1 data in %s (see package doc)", dir)
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
	return engine.New(cat, engine.Options{})
}

func TestTPCH(t *testing.T) {
	eng := openEngine(t)
	for _, set := range []struct{ queries, expected string }{
		{"queries", "sf0.1"},
		{"queries_alt", "sf0.1-alt"},
	} {
		for n := 1; n <= 22; n++ {
			name := fmt.Sprintf("q%02d", n)
			t.Run(set.queries+"/"+name, func(t *testing.T) {
				base := filepath.Join(repoRoot(), "testdata", "tpch")
				sql, err := os.ReadFile(filepath.Join(base, set.queries, name+".sql"))
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(base, set.expected, name+".csv"))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res, err := eng.Query(ctx, string(sql))
				if err != nil {
					t.Fatal(err)
				}
				defer res.Release()
				var got bytes.Buffer
				if err := format.WriteCSV(&got, res.Schema, res.Batches); err != nil {
					t.Fatal(err)
				}
				// Every query's ORDER BY fixes the order of the expected rows
				// (checked: no ties), so order is compared too.
				if err := tpch.CompareCSV(got.Bytes(), want, true); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
