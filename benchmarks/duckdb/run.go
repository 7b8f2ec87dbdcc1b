package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver
)

// Materialize replaces each named view of db with an in-memory table of
// its rows, so queries read DuckDB's own storage rather than Parquet files
// (hot runs).
func Materialize(db *sql.DB, names []string) error {
	for _, n := range names {
		q := strings.ReplaceAll(n, `"`, `""`)
		for _, st := range []string{
			fmt.Sprintf(`CREATE TABLE "%s_mem" AS SELECT * FROM "%s"`, q, q),
			fmt.Sprintf(`DROP VIEW "%s"`, q),
			fmt.Sprintf(`ALTER TABLE "%s_mem" RENAME TO "%s"`, q, q),
		} {
			if _, err := db.Exec(st); err != nil {
				return fmt.Errorf("materialize %s: %w", n, err)
			}
		}
	}
	return nil
}

// Open starts an in-memory DuckDB with every dataDir/NAME.parquet and
// dataDir/NAME.csv registered as view NAME, and threads worker threads
// (0 keeps DuckDB's default). The pool is pinned to one connection so
// session state (views, settings) is shared by all statements.
func Open(dataDir string, threads int) (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if threads > 0 {
		if _, err := db.Exec(fmt.Sprintf("SET threads TO %d", threads)); err != nil {
			db.Close()
			return nil, err
		}
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		db.Close()
		return nil, err
	}
	for _, e := range entries {
		name, ext := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), filepath.Ext(e.Name())
		if strings.HasPrefix(name, ".") {
			continue
		}
		abs, _ := filepath.Abs(filepath.Join(dataDir, e.Name()))
		if e.IsDir() {
			// A folder of Parquet parts is one table, as in gq's --data.
			if parts, _ := filepath.Glob(filepath.Join(abs, "*.parquet")); len(parts) == 0 {
				continue
			}
			name, ext, abs = e.Name(), ".parquet", filepath.Join(abs, "*.parquet")
		}
		lit := "'" + strings.ReplaceAll(abs, "'", "''") + "'"
		var src string
		switch ext {
		case ".parquet":
			src = "read_parquet(" + lit + ")"
		case ".csv":
			src = "read_csv_auto(" + lit + ")"
		default:
			continue
		}
		q := fmt.Sprintf(`CREATE VIEW "%s" AS SELECT * FROM %s`, strings.ReplaceAll(name, `"`, `""`), src)
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("register %s: %w", e.Name(), err)
		}
	}
	return db, nil
}

// RunScript translates and runs script's statements in order and writes the
// result of its last query (a statement returning rows) to w as canonical
// CSV; later DDL (e.g. drop view) still runs.
func RunScript(ctx context.Context, db *sql.DB, script string, w io.Writer) error {
	stmts := SplitStatements(Translate(script))
	last := -1
	for i, s := range stmts {
		if IsQuery(s) {
			last = i
		}
	}
	if last < 0 {
		return fmt.Errorf("no query in script")
	}
	for i, s := range stmts {
		if i != last {
			if _, err := db.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("statement %d: %w", i+1, err)
			}
			continue
		}
		rows, err := db.QueryContext(ctx, s)
		if err != nil {
			return fmt.Errorf("statement %d: %w", i+1, err)
		}
		err = WriteCSV(w, rows)
		rows.Close()
		if err != nil {
			return fmt.Errorf("statement %d: %w", i+1, err)
		}
	}
	return nil
}
