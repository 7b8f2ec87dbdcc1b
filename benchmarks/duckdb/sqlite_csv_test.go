package duckdb

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
)

// TestSQLiteCSVExport reads CSV files exported by Debian's sqlite3
// (`sqlite3 -csv -header`) in gq and in DuckDB, letting each sniff the
// dialect and the types, and compares every column: quoted commas,
// doubled quotes, line breaks and unicode inside fields, "" against an
// empty (NULL) field, BIGINT extremes, 1.0e+300-style reals, ISO dates as
// text, and a larger generated table with NULLs spread through it.
func TestSQLiteCSVExport(t *testing.T) {
	dir := t.TempDir()
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 not installed (Debian package sqlite3; scripts/install-test-deps.sh installs it)")
	}
	tables := writeSQLiteCSV(t, dir)
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{Threads: 2}.WithEnv(os.LookupEnv))
	defer e.Close()
	duck, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	ctx := context.Background()
	for _, tb := range tables {
		// sqlite3 writes an empty string as "" and NULL as nothing; gq
		// reads them so (as PostgreSQL's COPY does), while DuckDB by
		// default reads a quoted empty field as NULL too: it is told
		// not to.
		src := "read_csv_auto('" + filepath.Join(dir, tb+".csv") + "', allow_quoted_nulls = false)"
		desc := runDuck(ctx, duck, "DESCRIBE SELECT * FROM "+src)
		if desc.Err != nil {
			t.Fatal(desc.Err)
		}
		for _, row := range desc.Cells {
			col := row[0]
			g := RunGQ(ctx, e, "select `"+col+"` from "+tb)
			d := runDuck(ctx, duck, `SELECT "`+col+`" FROM `+src)
			if v, why := Compare(g, d); v != Agree {
				t.Errorf("%s.%s (DuckDB type %s): %s", tb, col, row[1], why)
			}
		}
		g := RunGQ(ctx, e, "select count(*) from "+tb)
		d := runDuck(ctx, duck, "SELECT count(*) FROM "+src)
		if v, why := Compare(g, d); v != Agree {
			t.Errorf("%s: count: %s", tb, strings.TrimSpace(why))
		}
	}
}

// writeSQLiteCSV has Debian's sqlite3 build two tables and export each as
// dir/<table>.csv with `sqlite3 -csv -header`; it returns the table names.
func writeSQLiteCSV(t *testing.T, dir string) []string {
	t.Helper()
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "s.db")
	setup := `
create table edge(i integer, r real, s text, d text, b integer, n numeric);
insert into edge values
 (1, 1.5, 'plain', '2024-01-02', 1, 12.50),
 (-9223372036854775808, -0.0001, 'comma, and "quote"', '1999-12-31', 0, NULL),
 (NULL, NULL, NULL, NULL, NULL, NULL),
 (42, 1e300, '', '2000-02-29', 1, 7),
 (9223372036854775807, 3.14159, 'line
break', '2024-06-30', 0, -3.25),
 (8, 2.0, 'ünïcode ✓', '2024-07-01', 1, 0);
create table gen(id integer, k integer, v real, name text, day text);
with recursive n(x) as (select 1 union all select x + 1 from n where x < 5000)
insert into gen select x,
  case when x % 17 = 0 then null else (x * 7919) % 101 - 50 end,
  case when x % 13 = 0 then null else (x * 104729 % 100000) / 1000.0 end,
  case when x % 11 = 0 then null when x % 7 = 0 then '' else 'n' || (x * 31 % 997) end,
  case when x % 19 = 0 then null else date('2020-01-01', '+' || (x % 1500) || ' days') end
from n;
`
	if out, err := exec.Command(sqlite, db, setup).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v: %s", err, out)
	}
	tables := []string{"edge", "gen"}
	for _, tb := range tables {
		out, err := exec.Command(sqlite, "-csv", "-header", db, "select * from "+tb).Output()
		if err != nil {
			t.Fatalf("sqlite3 export %s: %v", tb, err)
		}
		if err := os.WriteFile(filepath.Join(dir, tb+".csv"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tables
}
