package engine

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"gq/catalog"
	"gq/format"
)

// rewrite regenerates the expected rows of every query record from gq's
// output. Review the diff: a rewrite blesses whatever gq answers.
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/sql/*.test expected output")

// record is one sqllogictest record.
type record struct {
	kind    string // "statement" or "query"
	wantErr bool
	errText string // substring the error must contain (case-insensitive)
	types   string // query column types, e.g. "ITR"
	sortRow bool   // rowsort
	sql     string
	want    []string // expected result lines (tab-separated values)
	line    int      // line of the record's header in the file
	// start and end are the file's line range (0-based, end exclusive) of
	// the expected rows, for -rewrite.
	start, end int
}

// parseTest reads DuckDB-style sqllogictest text.
func parseTest(text string) ([]record, error) {
	lines := strings.Split(text, "\n")
	var recs []record
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		r := record{line: i + 1}
		switch {
		case f[0] == "statement" && len(f) >= 2 && f[1] == "ok":
			r.kind = "statement"
		case f[0] == "statement" && len(f) >= 2 && f[1] == "error":
			r.kind, r.wantErr = "statement", true
			r.errText = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(l, "statement")), "error"))
		case f[0] == "query" && len(f) >= 2:
			r.kind, r.types = "query", f[1]
			r.sortRow = len(f) >= 3 && f[2] == "rowsort"
		default:
			return nil, fmt.Errorf("line %d: unknown record %q", i+1, l)
		}
		var sql []string
		i++
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			sql = append(sql, lines[i])
		}
		r.sql = strings.Join(sql, "\n")
		if r.kind == "query" {
			if i >= len(lines) || lines[i] != "----" {
				return nil, fmt.Errorf("line %d: query without ----", r.line)
			}
			i++
			r.start = i
			for ; i < len(lines) && lines[i] != ""; i++ {
				r.want = append(r.want, lines[i])
			}
			r.end = i
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// resultLines renders a result as sqllogictest lines.
func resultLines(res *Result) []string {
	var out []string
	for _, b := range res.Batches {
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c, col := range b.Columns() {
				switch v := format.Value(col, r); {
				case format.IsNull(col, r):
					vals[c] = "NULL"
				case v == "":
					vals[c] = "(empty)"
				default:
					vals[c] = v
				}
			}
			out = append(out, strings.Join(vals, "\t"))
		}
	}
	return out
}

func newTestEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	cat := catalog.New()
	if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	return testNew(cat, opts)
}

func TestSQLLogic(t *testing.T) {
	files, err := filepath.Glob("../testdata/sql/*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, opts := range []Options{{}, {Threads: 3, BatchSize: 2}} {
		for _, file := range files {
			name := fmt.Sprintf("%s/threads=%d,batch=%d", filepath.Base(file), opts.Threads, opts.BatchSize)
			t.Run(name, func(t *testing.T) {
				runTestFile(t, file, opts, *rewrite && opts.BatchSize == 0)
			})
		}
	}
}

func runTestFile(t *testing.T, file string, opts Options, rewriting bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := parseTest(string(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	e := newTestEngine(t, opts)
	lines := strings.Split(string(data), "\n")
	type edit struct {
		start, end int
		rows       []string
	}
	var edits []edit
	before := runtime.NumGoroutine()
	for _, r := range recs {
		where := fmt.Sprintf("%s:%d", filepath.Base(file), r.line)
		checkNoHeldMemory(t, e, where)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := e.Query(ctx, r.sql)
		cancel()
		switch {
		case r.wantErr:
			if err == nil {
				res.Release()
				t.Errorf("%s: expected error %q, got success\n%s", where, r.errText, r.sql)
			} else if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(r.errText)) {
				t.Errorf("%s: error %q does not contain %q\n%s", where, err, r.errText, r.sql)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v\n%s", where, err, r.sql)
			continue
		case r.kind == "statement":
			res.Release()
			continue
		}
		got := resultLines(res)
		if res.Schema != nil && res.Schema.NumFields() != len(r.types) {
			t.Errorf("%s: %d columns, query header says %d (%s)", where, res.Schema.NumFields(), len(r.types), r.types)
		}
		res.Release()
		if r.sortRow {
			sort.Strings(got)
		}
		if rewriting {
			edits = append(edits, edit{r.start, r.end, got})
			continue
		}
		if strings.Join(got, "\n") != strings.Join(r.want, "\n") {
			t.Errorf("%s: wrong result\n%s\n--- got\n%s\n--- want\n%s", where, r.sql, strings.Join(got, "\n"), strings.Join(r.want, "\n"))
		}
	}
	checkNoHeldMemory(t, e, filepath.Base(file)+": end")
	checkGoroutines(t, before)
	if rewriting && len(edits) > 0 {
		for i := len(edits) - 1; i >= 0; i-- {
			ed := edits[i]
			lines = append(lines[:ed.start], append(append([]string{}, ed.rows...), lines[ed.end:]...)...)
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkGoroutines fails if goroutines started during the test outlive it
// (after a grace period for exiting ones).
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("goroutine leak: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestParseTest(t *testing.T) {
	recs, err := parseTest("# c\nstatement ok\nselect 1\n\nstatement error binding\nselect x\n\nquery IT rowsort\nselect 1,\n 'a'\n----\n1\ta\n2\tb\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[1].errText != "binding" || !recs[2].sortRow || recs[2].sql != "select 1,\n 'a'" || len(recs[2].want) != 2 {
		t.Fatalf("parsed %+v", recs)
	}
}
