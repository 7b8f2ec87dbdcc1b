package duckdb

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParquetTestingCorpus runs apache/parquet-testing's data and bad_data
// files (vendored under testdata/parquet-testing, Apache-2.0) through gq
// and DuckDB. No file may block a --data directory, gq must open every
// file DuckDB reads, and every column gq reads must give DuckDB's values.
// Files from two other writers get the same checks, in their own sections:
// catalog/testdata/duckdb/duck_types.parquet, written by DuckDB through npm
// @duckdb/node-api, and CSV files exported by Debian's sqlite3.
// GQ_CORPUS_OUT=path writes the table (benchmarks/results/parquet-testing.md).
func TestParquetTestingCorpus(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/parquet-testing")
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
	files, err := CheckCorpus(context.Background(), root, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	duckRoot, _ := filepath.Abs("../../catalog/testdata")
	duckFiles, err := CheckFiles(context.Background(), duckRoot, []string{filepath.Join(duckRoot, "duckdb/duck_types.parquet")}, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var csvFiles []CorpusFile
	if _, err := exec.LookPath("sqlite3"); err == nil {
		dir := t.TempDir()
		var paths []string
		for _, tb := range writeSQLiteCSV(t, dir) {
			paths = append(paths, filepath.Join(dir, tb+".csv"))
		}
		if csvFiles, err = CheckFiles(context.Background(), dir, paths, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		for i := range csvFiles {
			csvFiles[i].File = "sqlite3/" + csvFiles[i].File
		}
	} else if os.Getenv("GQ_CORPUS_OUT") != "" {
		t.Fatal("sqlite3 not installed: the table needs its CSV section (scripts/install-test-deps.sh)")
	} else {
		t.Log("sqlite3 not installed: its CSV files are not checked")
	}
	if out := os.Getenv("GQ_CORPUS_OUT"); out != "" {
		md := "# Files written by other tools, read by gq and by DuckDB\n\n" +
			"Regenerate: `cd benchmarks/duckdb && GQ_CORPUS_OUT=$PWD/../results/parquet-testing.md go test . -run TestParquetTestingCorpus -count=1`\n\n" +
			"All writers together: " + strings.SplitAfter(CorpusMarkdown(slices.Concat(files, duckFiles, csvFiles)), "\n\n")[0] +
			"\n## apache/parquet-testing (data/, bad_data/)\n\n" + CorpusMarkdown(files) +
			"\n## DuckDB (npm @duckdb/node-api, catalog/testdata/duckdb/write_duck_types.mjs)\n\n" + CorpusMarkdown(duckFiles) +
			"\n## Debian sqlite3 (`sqlite3 -csv -header`, tables of TestSQLiteCSVExport)\n\n" + CorpusMarkdown(csvFiles)
		if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files = slices.Concat(files, duckFiles, csvFiles)
	// Files DuckDB reads that gq does not open yet: arrow-go refuses
	// their schema as a whole before gq sees a column. The test fails
	// when one starts to open, so that this list stays true.
	known := map[string]string{
		"data/incorrect_map_schema.parquet": "arrow-go: MAP keys must be required",
		"data/unknown-logical-type.parquet": "arrow-go panics on a logical type it does not know",
	}
	// Columns gq refuses to read, with the error's words: a map holding
	// a 1 GiB string, in a page above arrow-go's 256 MiB page limit (a
	// guard against hostile page headers that gq keeps).
	knownRefused := map[string]string{
		"data/large_string_map.brotli.parquet": "exceeds configured limit",
		// Its last value is a year-290000 timestamp Spark overflowed on
		// write: gq refuses the Julian day, DuckDB wraps it to 226414 BC.
		"data/int96_from_spark.parquet": "out of the TIMESTAMP range",
	}
	for _, f := range files {
		if why, ok := known[f.File]; ok {
			if f.OpenErr == "" {
				t.Errorf("%s opens now (was a known gap: %s): take it off the list", f.File, why)
			}
			continue
		}
		if f.Blocks {
			t.Errorf("%s blocks a --data directory", f.File)
		}
		// bad_data holds files that break the format's rules; DuckDB
		// reads some of them leniently, gq may refuse them cleanly.
		if f.DuckErr == "" && f.OpenErr != "" && !strings.HasPrefix(f.File, "bad_data/") {
			t.Errorf("%s: DuckDB reads it, gq does not open it: %s", f.File, f.OpenErr)
		}
		// A data/ file's column gq refuses must be a known gap; bad_data
		// files may be refused cleanly.
		for _, c := range f.Refused {
			if why, ok := knownRefused[f.File]; ok {
				if !strings.Contains(c, why) {
					t.Errorf("%s: %s refused for another reason than %q", f.File, c, why)
				}
				continue
			}
			if !strings.HasPrefix(f.File, "bad_data/") {
				t.Errorf("%s: DuckDB reads it, gq refuses column %s", f.File, c)
			}
		}
		if _, ok := knownRefused[f.File]; ok && len(f.Refused) == 0 {
			t.Errorf("%s reads now (was a known refusal): take it off the list", f.File)
		}
		for _, m := range f.Mismatches {
			t.Errorf("%s: column %s", f.File, m)
		}
		if why, ok := knownRefused[f.File]; f.Rows != "" && !(ok && strings.Contains(f.Rows, why)) {
			t.Errorf("%s: rows %s", f.File, f.Rows)
		}
	}
}
