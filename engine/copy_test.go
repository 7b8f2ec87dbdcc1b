package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/errs"
)

// run1 runs one statement and returns its rows as resultLines gives them.
func run1(t *testing.T, e *Engine, sql string) ([]string, error) {
	t.Helper()
	var lines []string
	err := e.Exec(context.Background(), sql, func(r *Result) error {
		defer r.Release()
		lines = append(lines, resultLines(r)...)
		return nil
	})
	return lines, err
}

func mustRun(t *testing.T, e *Engine, sql string) []string {
	t.Helper()
	lines, err := run1(t, e, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return lines
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCopyToRoundTrip: COPY (query) TO and COPY table TO write Parquet,
// CSV, JSON and JSON lines that read back as the query's rows.
func TestCopyToRoundTrip(t *testing.T) {
	e := newTestEngine(t, Options{Threads: 2, BatchSize: 3})
	defer e.Close()
	dir := t.TempDir()
	q := "select id, name, age, salary, born from people order by id"
	want := strings.Join(mustRun(t, e, q), "\n")
	for _, c := range []struct{ copy, read string }{
		{"copy (" + q + ") to '%s/a.parquet'", "select * from `%s/a.parquet` order by id"},
		{"copy (" + q + ") to '%s/a.csv'", "select * from `%s/a.csv` order by id"},
		{"copy (" + q + ") to '%s/b.csv' (format csv, header true, delimiter ',')", "select * from read_csv('%s/b.csv') order by id"},
		// FORMAT wins over the extension.
		{"copy (" + q + ") to '%s/c.out' (format parquet)", "select * from read_parquet('%s/c.out') order by id"},
		{"copy (" + q + ") to '%s/d.txt' (FORMAT 'csv', DELIMITER ';')", "select * from read_csv('%s/d.txt', delim = ';') order by id"},
		{"copy (" + q + ") to '%s/e.csv' (header false)",
			"select * from read_csv('%s/e.csv', header = false, columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'age': 'BIGINT', 'salary': 'DOUBLE', 'born': 'DATE'}) order by id"},
		{"copy (" + q + ") to '%s/f.tsv' (format csv, delimiter '\\t')", "select * from read_csv('%s/f.tsv', delim = '\\t') order by id"},
		{"copy (select * from (" + q + ") p) to '%s/g.parquet'", "select * from read_parquet('%s/g.parquet') order by id"},
	} {
		copySQL := strings.ReplaceAll(c.copy, "%s", dir)
		lines, err := run1(t, e, copySQL)
		if err != nil {
			t.Errorf("%s: %v", copySQL, err)
			continue
		}
		if len(lines) != 0 {
			t.Errorf("%s returned rows %q", copySQL, lines)
		}
		readSQL := strings.ReplaceAll(c.read, "%s", dir)
		if got := strings.Join(mustRun(t, e, readSQL), "\n"); got != want {
			t.Errorf("%s then %s:\n%s\nwant\n%s", copySQL, readSQL, got, want)
		}
	}
	if s := readText(t, filepath.Join(dir, "e.csv")); !strings.HasPrefix(s, "1,Alice,30,") {
		t.Errorf("HEADER false wrote %q", s)
	}
	if s := readText(t, filepath.Join(dir, "d.txt")); !strings.HasPrefix(s, "id;name;age;salary;born\n1;Alice;30;") {
		t.Errorf("DELIMITER ';' wrote %q", s)
	}

	// A table, and the count of rows written.
	res, err := e.Query(context.Background(), "copy orders to '"+dir+"/o.parquet'")
	if err != nil || res.RowsAffected != 7 {
		t.Fatalf("copy orders: %v (%d rows)", err, res.RowsAffected)
	}
	res.Release()
	if got, want := mustRun(t, e, "select * from `"+dir+"/o.parquet` order by oid"), mustRun(t, e, "select * from orders order by oid"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("copy orders read back %q, want %q", got, want)
	}
	// JSON and JSON lines.
	mustRun(t, e, "copy (select id, name from people where id <= 2 order by id) to '"+dir+"/p.json'")
	mustRun(t, e, "copy (select id, name from people where id <= 2 order by id) to '"+dir+"/p.txt' (format jsonl)")
	if s := readText(t, filepath.Join(dir, "p.json")); !strings.Contains(s, `"name":"Alice"`) && !strings.Contains(s, `"name": "Alice"`) {
		t.Errorf("p.json: %q", s)
	}
	if s := readText(t, filepath.Join(dir, "p.txt")); strings.Count(s, "\n") != 2 || !strings.Contains(s, "Bob") {
		t.Errorf("p.txt (jsonl): %q", s)
	}
}

// TestCopyOverwritesOutfileRefuses: COPY replaces an existing file, as
// DuckDB's does; SELECT … INTO OUTFILE refuses one, as MySQL's does.
func TestCopyOverwritesOutfileRefuses(t *testing.T) {
	e := newTestEngine(t, Options{})
	defer e.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.csv")
	mustRun(t, e, "copy (select 1 as a) to '"+path+"'")
	mustRun(t, e, "copy (select 2 as a union all select 3 order by a) to '"+path+"'")
	if s := readText(t, path); s != "a\n2\n3\n" {
		t.Errorf("after the second COPY: %q", s)
	}
	if _, err := run1(t, e, "select 4 as a into outfile '"+path+"'"); !errors.Is(err, errs.IO) || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("INTO OUTFILE over a file: %v", err)
	}
	if s := readText(t, path); s != "a\n2\n3\n" {
		t.Errorf("after INTO OUTFILE: %q", s)
	}
	if _, err := run1(t, e, "copy (select 1 as a) to '"+dir+"'"); err == nil {
		t.Errorf("COPY onto a directory: no error")
	}
}

// TestCopyErrors: bad options, formats and queries fail with a clear
// error and leave no file behind.
func TestCopyErrors(t *testing.T) {
	e := newTestEngine(t, Options{})
	defer e.Close()
	dir := t.TempDir()
	for _, c := range []struct {
		sql  string
		kind *errs.Kind
		msg  string
	}{
		{"copy (select 1) to '%s/a.xml'", errs.Unsupported, "cannot tell the format"},
		{"copy (select 1) to '%s/a.csv' (format xml)", errs.Binding, "parquet, csv, json or jsonl"},
		{"copy (select 1) to '%s/a.parquet' (header false)", errs.Unsupported, "apply to CSV"},
		{"copy (select 1) to '%s/a.csv' (delimiter ';;')", errs.Binding, "one character"},
		{"copy (select 1) to '%s/a.csv' (header maybe)", errs.Binding, "true or false"},
		{"copy (select 1) to '%s/a.csv' (compression gzip)", errs.Unsupported, "COMPRESSION is not supported"},
		{"copy (select 1) to '%s/a.csv' (format csv, format csv)", errs.Binding, "twice"},
		{"copy nosuch to '%s/a.csv'", errs.Binding, "nosuch"},
		{"copy (select nosuch from people) to '%s/a.csv'", errs.Binding, "nosuch"},
		{"copy (select 1 into outfile 'x.csv') to '%s/a.csv'", errs.Binding, "INTO"},
		{"copy (select (select id from people)) to '%s/a.csv'", errs.Execution, ""},
		{"copy (select 1) to '%s/no/such/dir/a.csv'", errs.IO, "directory does not exist"},
	} {
		sql := strings.ReplaceAll(c.sql, "%s", dir)
		_, err := run1(t, e, sql)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want a %v error with %q", sql, err, c.kind, c.msg)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("failed COPYs left %v", ents)
	}
}

// TestTableFuncsEndToEnd: read_csv and read_parquet over globs and hive
// partitions written by COPY, with options, and DESCRIBE of files.
func TestTableFuncsEndToEnd(t *testing.T) {
	e := newTestEngine(t, Options{Threads: 2, BatchSize: 2})
	defer e.Close()
	dir := t.TempDir()
	for _, p := range []struct{ year, city string }{{"1994", "Paris"}, {"1999", "London"}, {"1988", "Paris"}} {
		sub := filepath.Join(dir, "people", "year="+p.year, "city="+p.city)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		mustRun(t, e, "copy (select id, name from people where year(born) = "+p.year+") to '"+sub+"/part.parquet'")
		mustRun(t, e, "copy (select id, name from people where year(born) = "+p.year+") to '"+sub+"/part.csv' (delimiter '|')")
	}
	want := "Paris\t1988\t3\nParis\t1994\t1\nLondon\t1999\t2\nLondon\t1999\t6"
	for _, q := range []string{
		"select city, year, id from read_parquet('" + dir + "/people/*/*/*.parquet', hive_partitioning = true) order by year, id",
		"select city, year, id from parquet_scan('" + dir + "/people', hive_partitioning => true) order by year, id",
		"select city, year, id from read_csv('" + dir + "/people/*/*/*.csv', delim = '|', hive_partitioning = 1) order by year, id",
		"select city, year, id from read_csv('" + dir + "/people', sep => '|', hive_partitioning = true, types = {'id': 'BIGINT'}) order by year, id",
	} {
		if got := strings.Join(mustRun(t, e, q), "\n"); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", q, got, want)
		}
	}
	got := mustRun(t, e, "describe read_parquet('"+dir+"/people/*/*/*.parquet', hive_partitioning = true)")
	if strings.Join(got, "|") != "id\tBIGINT\tYES|name\tVARCHAR\tYES|year\tBIGINT\tYES|city\tVARCHAR\tYES" {
		t.Errorf("describe read_parquet: %q", got)
	}
	got = mustRun(t, e, "desc `"+dir+"/people/year=1994/city=Paris/part.parquet`")
	if strings.Join(got, "|") != "id\tBIGINT\tYES|name\tVARCHAR\tYES" {
		t.Errorf("desc of a file: %q", got)
	}
	// Every column DuckDB writes by default reads; its UUIDs as VARCHAR.
	got = mustRun(t, e, "describe `../catalog/testdata/duckdb/duck_types.parquet`")
	if s := strings.Join(got, "\n"); strings.Contains(s, "(not readable: ") || !strings.Contains(s, "u\tVARCHAR\tYES") {
		t.Errorf("describe of duck_types.parquet:\n%s", s)
	}
	got = mustRun(t, e, "select u from `../catalog/testdata/duckdb/duck_types.parquet` where id = 0")
	if strings.Join(got, "|") != "cfcd2084-95d5-65ef-66e7-dff9f98764da" {
		t.Errorf("uuid of id 0 (DuckDB: md5('0')::uuid = cfcd2084-95d5-65ef-66e7-dff9f98764da): %q", got)
	}
	if _, err := run1(t, e, "describe `"+dir+"/nosuch.csv`"); err == nil {
		t.Errorf("describe of a missing file: no error")
	}
}

// TestCopyUnderPolicy: under gq serve's file-access policy COPY writes only
// inside the allowed paths, as INTO OUTFILE does, and read_csv reads only
// there.
func TestCopyUnderPolicy(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	cat := catalog.New()
	if err := cat.Confine([]string{in}, nil); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{})
	defer e.Close()
	mustRun(t, e, "copy (select 1 as a) to '"+in+"/a.csv'")
	if got := mustRun(t, e, "select a from read_csv('"+in+"/a.csv')"); strings.Join(got, ",") != "1" {
		t.Errorf("read back %q", got)
	}
	for _, sql := range []string{
		"copy (select 1 as a) to '" + out + "/a.csv'",
		"copy (select 1 as a) to '" + in + "/../a.csv'",
		"select * from read_csv('" + out + "/*.csv')",
		"describe read_parquet('/etc/x.parquet')",
		"describe `/etc/passwd.csv`",
	} {
		if _, err := run1(t, e, sql); !errors.Is(err, errs.Binding) || !strings.Contains(err.Error(), "not permitted under gq serve") {
			t.Errorf("%s: %v", sql, err)
		}
	}
}
