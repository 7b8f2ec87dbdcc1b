package duckdb

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gq/catalog"
	"gq/engine"
)

// TestTimeColumnsOfDuckDBFiles: a Parquet file DuckDB writes with its own
// writer — TIMESTAMP (timestamp[us]), TIMESTAMPTZ (timestamp[us, UTC]),
// TIME (time64[us]), TIMESTAMP_MS and TIMESTAMP_NS columns, NULLs among
// them — opens in gq, and queries over every column give DuckDB's answers
// (the same file read by both).
func TestTimeColumnsOfDuckDBFiles(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(dir, "tt.parquet")
	if _, err := db.Exec(`COPY (SELECT i,
		CASE WHEN i % 11 = 0 THEN NULL ELSE TIMESTAMP '1999-12-31 00:00:00' + i * INTERVAL 7 HOUR + i * INTERVAL 123457 MICROSECOND END AS ts,
		TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 5 HOUR AS tstz,
		CASE WHEN i % 13 = 0 THEN NULL ELSE TIME '00:00:00' + i * INTERVAL 1234567 MICROSECOND END AS tm,
		CAST(TIMESTAMP '1969-05-01 12:00:00' + i * INTERVAL 1 DAY + i * INTERVAL 1 MILLISECOND AS TIMESTAMP_MS) AS tms,
		CAST(TIMESTAMP '2023-05-01 12:00:00.123456' + i * INTERVAL 1 DAY AS TIMESTAMP_NS) AS tns
		FROM range(0, 500) t(i)) TO '` + path + `' (FORMAT parquet)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE VIEW tt AS SELECT * FROM read_parquet('` + path + `')`); err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	if u := catalog.Unreadable(mustTable(t, cat, "tt")); len(u) != 0 {
		t.Fatalf("unreadable columns: %+v", u)
	}
	e := engine.New(cat, engine.Options{Threads: 2, BatchSize: 64}.WithEnv(os.LookupEnv))
	ctx := context.Background()
	for _, q := range []string{
		"select i, ts, tstz, tm, tms, tns from tt",
		"select min(ts), max(ts), count(ts), min(tstz), max(tstz), min(tm), max(tm), count(tm), min(tms), max(tns) from tt",
		"select date_trunc('day', ts), count(*), min(tm) from tt group by 1",
		"select extract(hour from ts), extract(microsecond from tns), extract(year from tms), date_part('dow', tstz) from tt",
		"select a.i, b.i from tt a join tt b on date_trunc('day', a.ts) = date_trunc('day', b.ts + interval 1 day) and a.i < 40",
		"select i from tt where ts between timestamp '2000-01-15 00:00:00' and timestamp '2000-02-01 12:00:00.5'",
		"select i, tstz from tt where tstz >= date '2024-01-20'",
		"select count(*) from tt where tm > time '00:05:00'",
		"select strftime(tns, '%Y-%m-%d %H:%M:%S.%f'), date_diff('day', tms, tns) from tt",
	} {
		g, d := RunGQ(ctx, e, q), RunDuck(ctx, db, q)
		if d.Err != nil {
			t.Fatalf("%s: DuckDB: %v", q, d.Err)
		}
		if v, why := Compare(g, d); v != Agree {
			t.Errorf("%s: %s (gq err %v)", q, why, g.Err)
		} else if len(d.Cells) == 0 {
			t.Errorf("%s: no rows", q)
		}
	}
}

func mustTable(t *testing.T, c *catalog.Catalog, name string) catalog.Table {
	t.Helper()
	tb, ok := c.Table(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	return tb
}
