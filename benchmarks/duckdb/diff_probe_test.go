package duckdb

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
)

// TestProbe runs the queries in $DIFF_PROBE (one per line) in both engines
// over the generated tables and prints both answers: a debugging aid for
// mismatches the differential test reports. Skipped when unset.
// DIFF_PROBE_RANKS=n runs gq as n ranks (leadRanks), as the
// differential's 3-rank slices do.
func TestProbe(t *testing.T) {
	qs := os.Getenv("DIFF_PROBE")
	if qs == "" {
		t.Skip("DIFF_PROBE not set")
	}
	dir := t.TempDir()
	if err := WriteDiffTables(dir, *diffSeed); err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := AvoidDuckDBBugs(db); err != nil {
		t.Fatal(err)
	}
	if err := WidenDiffDecimals(db, dir); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{Threads: 2, BatchSize: 5}.WithEnv(os.LookupEnv))
	if n, _ := strconv.Atoi(os.Getenv("DIFF_PROBE_RANKS")); n > 1 {
		e = leadRanks(t, dir, n, 5)
	}
	for _, q := range strings.Split(qs, "\n") {
		if strings.TrimSpace(q) == "" {
			continue
		}
		g, d := RunGQ(context.Background(), e, q), RunDuck(context.Background(), db, q)
		v, why := Compare(g, d)
		t.Logf("%s\n  gq: %v %q\n  duckdb: %v %q\n  verdict %d %s", q, g.Err, g.Cells, d.Err, d.Cells, v, why)
	}
}
