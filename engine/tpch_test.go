package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/format"
)

// tpchDir is where the TPC-H SF 0.1 data is cached between test runs (the
// repository's data/ directory, shared with make data).
const tpchDir = "../data/tpch-sf0.1"

// tpchData returns the cached SF 0.1 data directory, generating it first
// when absent.
func tpchData(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("TPC-H SF 0.1 skipped under -short")
	}
	if err := tpch.EnsureGenerated(0.1, tpchDir); err != nil {
		t.Fatalf("generating TPC-H data: %v", err)
	}
	return tpchDir
}

func TestTPCH(t *testing.T) {
	dir := tpchData(t)
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	// The standard queries, q15 as a view script, and the alternative
	// phrasings of queries_alt (expected results in sf0.1-alt).
	type tq struct{ name, sql, csv string }
	var qs []tq
	for n := 1; n <= 22; n++ {
		q := fmt.Sprintf("q%02d", n)
		qs = append(qs, tq{q, "queries/" + q + ".sql", "sf0.1/" + q + ".csv"})
	}
	qs = append(qs, tq{"q15_view", "queries/q15_view.sql", "sf0.1/q15_view.csv"})
	alts, _ := filepath.Glob("../testdata/tpch/sf0.1-alt/q*.csv")
	for _, a := range alts {
		q := strings.TrimSuffix(filepath.Base(a), ".csv")
		qs = append(qs, tq{"alt_" + q, "queries_alt/" + q + ".sql", "sf0.1-alt/" + q + ".csv"})
	}
	for _, opts := range []Options{{}, {BatchSize: 1000}} {
		e := testNew(cat, opts)
		for _, q := range qs {
			t.Run(fmt.Sprintf("%s/batch=%d", q.name, opts.BatchSize), func(t *testing.T) {
				runTPCHQuery(t, e, "../testdata/tpch/"+q.sql, "../testdata/tpch/"+q.csv)
			})
		}
	}
}

// runTPCHQuery runs the script sqlPath and compares its last result with
// the CSV file csvPath.
func runTPCHQuery(t *testing.T, e *Engine, sqlPath, csvPath string) {
	sql, err := os.ReadFile(sqlPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var got bytes.Buffer
	err = e.Exec(ctx, string(sql), func(res *Result) error {
		defer res.Release()
		got.Reset()
		return format.WriteCSV(&got, res.Schema, res.Batches)
	})
	if err != nil {
		t.Fatalf("%s: %v", sqlPath, err)
	}
	ordered := strings.Contains(strings.ToLower(string(sql)), "order by")
	if err := tpch.CompareCSV(got.Bytes(), want, ordered); err != nil {
		t.Errorf("%s: %v", sqlPath, err)
	}
	checkNoHeldMemory(t, e, sqlPath)
	checkGoroutines(t, before)
}
