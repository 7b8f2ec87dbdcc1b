package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/format"
)

// TestStorePersists: tables of a --db directory outlive their process.
// CREATE TABLE (columns or AS), INSERT (VALUES and SELECT) and DROP write
// and remove Parquet files; another catalog opening the directory sees the
// same rows and the NOT NULL column; a failing INSERT leaves no file.
func TestStorePersists(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	open := func() *Engine {
		cat := catalog.New()
		if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.AttachStore(dir); err != nil {
			t.Fatal(err)
		}
		e := testNew(cat, Options{Threads: 2, BatchSize: 3})
		t.Cleanup(func() { e.Close() })
		return e
	}
	run := func(e *Engine, sql string) (string, error) {
		var out bytes.Buffer
		err := e.Exec(context.Background(), sql, func(r *Result) error {
			defer r.Release()
			return format.WriteCSV(&out, r.Schema, r.Batches)
		})
		return out.String(), err
	}
	must := func(e *Engine, sql string) string {
		t.Helper()
		out, err := run(e, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	e := open()
	must(e, "create table t (id int not null, name varchar(10), amount decimal(10,2), day date)")
	must(e, "insert into t values (1, 'a', 1.25, '2024-01-01'), (2, null, -2, null)")
	must(e, "insert into t select id + 10, name, amount * 3, day from t")
	must(e, "create table p as select id, name from people where age > 28")
	want := must(e, "select * from t order by id") + must(e, "select * from p order by id")
	if _, err := run(e, "insert into t (name) values ('no id')"); err == nil || !strings.Contains(err.Error(), "cannot be NULL") {
		t.Fatalf("NULL into a NOT NULL column: %v", err)
	}
	if _, err := run(e, "insert into t (id) select cast(name as signed) from people"); err == nil {
		t.Fatal("a failing INSERT … SELECT succeeded")
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "t", "*"))
	if len(parts) != 3 {
		t.Fatalf("table t has %d files after 3 statements that wrote it and 2 that failed: %v", len(parts), parts)
	}

	e2 := open() // another process, say
	if got := must(e2, "select * from t order by id") + must(e2, "select * from p order by id"); got != want {
		t.Fatalf("reopened:\n%s\nwant:\n%s", got, want)
	}
	if _, err := run(e2, "insert into t (name) values ('no id')"); err == nil || !strings.Contains(err.Error(), "cannot be NULL") {
		t.Fatalf("NOT NULL did not persist: %v", err)
	}
	must(e2, "drop table p")
	if _, err := os.Stat(filepath.Join(dir, "p")); !os.IsNotExist(err) {
		t.Fatalf("dropped table's files: %v", err)
	}
	must(e2, "create table p (x bigint)")
	must(e2, "insert into p values (7)")
	if got := must(e2, "select * from p"); got != "x\n7\n" {
		t.Fatalf("a table created again after a drop: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), ".") {
			t.Errorf("left in the store: %s", en.Name())
		}
	}
}
