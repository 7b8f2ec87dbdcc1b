package duckdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
	"gq/format"
)

// TestOutfileRoundTrip: what gq writes with SELECT … INTO OUTFILE and
// with COPY (query) TO, Parquet and CSV, reads back the same in gq and in
// DuckDB: every generated
// table (BIGINT, DECIMAL(18,2) and (18,6) at full precision, VARCHAR with
// unicode and empty strings, DATE, DOUBLE, NULLs, no rows), an
// aggregate's result and INTERVALs.
func TestOutfileRoundTrip(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	if err := WriteDiffTables(dir, 7); err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{Threads: 2, BatchSize: 7}.WithEnv(os.LookupEnv))
	defer e.Close()
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := WidenDiffDecimals(db, dir); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	queries := map[string]string{
		"agg": "select k, count(*) as n, sum(d) as sd, min(s) as ms, max(t) as mt, avg(f) as af from t0 group by k",
		// INTERVALs Parquet's INTERVAL holds (months, days, whole ms).
		"intervals": "select k, date_trunc('second', ts) - timestamp '1990-01-01 00:00:00' as iv, " +
			"case when k % 3 = 0 then cast('1 year 2 months 3 days 04:05:06.789' as interval) end as c from t0",
	}
	for _, name := range []string{"t0", "t1", "t_empty", "t_ext"} {
		queries[name] = "select * from " + name
	}
	for name, q := range queries {
		want := RunGQ(ctx, e, q)
		if want.Err != nil {
			t.Fatalf("%s: %v", q, want.Err)
		}
		for _, w := range []struct{ ext, how string }{
			{"parquet", "%s into outfile '%s'"},
			{"csv", "%s into outfile '%s'"},
			// COPY … TO writes through the same sinks; FORMAT names the
			// format whatever the extension, and COPY replaces a file.
			{"parquet", "copy (%s) to '%s.copy' (format parquet)"},
			{"csv", "copy (%s) to '%s.copy' (format csv, header true)"},
		} {
			ext := w.ext
			path := filepath.Join(out, name+"."+ext)
			write := fmt.Sprintf(w.how, q, path)
			if strings.HasPrefix(write, "copy") {
				path += ".copy"
				for range 2 {
					if r := RunGQ(ctx, e, write); r.Err != nil {
						t.Fatalf("%s: %v", write, r.Err)
					}
				}
			} else if r := RunGQ(ctx, e, write); r.Err != nil {
				t.Fatalf("%s into %s: %v", q, path, r.Err)
			}
			back := RunGQ(ctx, e, fmt.Sprintf("select * from read_%s('%s')", ext, path))
			if v, why := Compare(back, want); v != Agree {
				t.Errorf("gq reading its %s: %s", path, why)
			}
			read := fmt.Sprintf("read_parquet('%s')", path)
			if ext == "csv" {
				// CSV holds no types: DuckDB is told them (as a user
				// reading the file would), and that "" is an empty
				// string, not NULL.
				schema, err := e.Schema(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				cols := ""
				for i, f := range schema.Fields() {
					if i > 0 {
						cols += ", "
					}
					cols += fmt.Sprintf("'%s': '%s'", f.Name, strings.ToUpper(format.TypeName(f.Type)))
				}
				read = fmt.Sprintf("read_csv('%s', header = true, allow_quoted_nulls = false, columns = {%s})", path, cols)
			}
			duck := RunDuck(ctx, db, "select * from "+read)
			if v, why := Compare(want, duck); v != Agree {
				t.Errorf("DuckDB reading gq's %s: %s", path, why)
			}
		}
	}
}
