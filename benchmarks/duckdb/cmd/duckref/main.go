// Command duckref runs SQL files in DuckDB and writes the result of each
// file's last query in gq's canonical CSV format:
//
//	duckref --data DIR [--threads N] [--out DIR] FILE.sql...
//
// Every DIR/NAME.parquet and DIR/NAME.csv is visible as a view NAME. The
// few MySQL spellings DuckDB rejects are translated (duckdb.Translate).
// Without --out results go to stdout; with it, to DIR/NAME.csv per file.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gq/benchmarks/duckdb"
)

func main() {
	data := flag.String("data", "", "directory of NAME.parquet / NAME.csv tables")
	threads := flag.Int("threads", 0, "DuckDB threads (0: DuckDB's default)")
	out := flag.String("out", "", "write NAME.csv per input file here instead of stdout")
	flag.Parse()
	if *data == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: duckref --data DIR [--threads N] [--out DIR] FILE.sql...")
		os.Exit(2)
	}
	if err := run(*data, *threads, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "duckref:", err)
		os.Exit(1)
	}
}

func run(data string, threads int, out string, files []string) error {
	ctx := context.Background()
	db, err := duckdb.Open(data, threads)
	if err != nil {
		return err
	}
	defer db.Close()
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
	}
	for _, f := range files {
		script, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := duckdb.RunScript(ctx, db, string(script), &buf); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if out == "" {
			os.Stdout.Write(buf.Bytes())
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) + ".csv"
		if err := os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
