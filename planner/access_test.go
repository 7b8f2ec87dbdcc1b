package planner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
)

func bindCtx(ctx context.Context, cat *catalog.Catalog, sql string) (Plan, error) {
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		return nil, err
	}
	st, err := p.Parse(sql)
	if err != nil {
		return nil, err
	}
	return BindContext(ctx, cat, st)
}

// TestBackticksFollowPolicy: a backtick path in FROM is opened under the
// catalog's file-access policy, a server's session catalog included, and a
// glob's expansion stops with the query's context.
func TestBackticksFollowPolicy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := catalog.New()
	if err := shared.Confine([]string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	for _, cat := range []*catalog.Catalog{shared, shared.Session()} {
		if _, err := bindSQL(cat, "select x from `"+filepath.Join(dir, "a.csv")+"`"); err != nil {
			t.Errorf("allowed: %v", err)
		}
		for _, name := range []string{"/etc/passwd.csv", "/etc/nope.csv", "../../../etc/passwd.csv", "/proc/self/root/etc/passwd.csv"} {
			_, err := bindSQL(cat, "select * from `"+name+"`")
			if !errors.Is(err, errs.Binding) || !strings.HasSuffix(err.Error(), "not permitted under gq serve: "+name) {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := bindCtx(ctx, catalog.New(), "select * from `/*/*/*/*/*/*/*/*/*/*.csv`")
	if err == nil || time.Since(start) > 200*time.Millisecond+time.Second {
		t.Errorf("glob bomb: %v after %v", err, time.Since(start))
	}
}

// TestTableFuncsFollowPolicy: read_csv and read_parquet open files under
// the catalog's file-access policy exactly as a backtick path does.
func TestTableFuncsFollowPolicy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := catalog.New()
	if err := shared.Confine([]string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	for _, cat := range []*catalog.Catalog{shared, shared.Session()} {
		for _, q := range []string{
			"select x from read_csv('" + filepath.Join(dir, "a.csv") + "', header = true)",
			"select x from read_csv_auto('" + dir + "')",
			"select x from read_csv('" + filepath.Join(dir, "*.csv") + "')",
		} {
			if _, err := bindSQL(cat, q); err != nil {
				t.Errorf("allowed: %s: %v", q, err)
			}
		}
		for _, name := range []string{"/etc/passwd.csv", "../../../etc/passwd.csv", "/proc/self/root/etc/passwd.csv", "/etc/*.csv"} {
			for _, fn := range []string{"read_csv", "read_parquet", "parquet_scan"} {
				_, err := bindSQL(cat, "select * from "+fn+"('"+name+"')")
				if !errors.Is(err, errs.Binding) || !strings.HasSuffix(err.Error(), "not permitted under gq serve: "+name) {
					t.Errorf("%s(%s): %v", fn, name, err)
				}
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := bindCtx(ctx, catalog.New(), "select * from read_csv('/*/*/*/*/*/*/*/*/*/*.csv')")
	if err == nil || time.Since(start) > 200*time.Millisecond+time.Second {
		t.Errorf("glob bomb: %v after %v", err, time.Since(start))
	}
}
