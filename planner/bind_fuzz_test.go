package planner_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/errs"
	"gq/parser"
	"gq/physical"
	"gq/planner"
)

// FuzzBind runs arbitrary SQL through parse → bind → optimise → lower over
// the sqllogictest tables (testdata/sql/data: people, orders, blank).
// Nothing may panic, and every error must carry a kind other than
// Internal (an Internal error is a gq bug too). The engine recovers
// planning panics as a last resort; this test calls the planner directly so
// that a panic fails here. Seeds: every statement of testdata/sql/*.test
// plus testdata/fuzz/FuzzBind. Long runs:
//
//	go test ./planner -run '^$' -fuzz FuzzBind -fuzztime 5m
func FuzzBind(f *testing.F) {
	cat := catalog.New()
	if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/sql/*.test")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, sql := range testStatements(string(data)) {
			f.Add(sql)
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := parser.Split(sql)
		if err != nil {
			return // parser fuzzing covers syntax errors
		}
		for _, st := range stmts {
			switch st.AST.(type) {
			case nil:
				continue
			}
			p, err := planner.Bind(cat, st.AST)
			if err == nil {
				p, err = planner.Optimize(p)
			}
			if err == nil {
				_, err = physical.Lower(p)
			}
			if err != nil && (errs.KindOf(err) == errs.Internal || !errors.As(err, new(*errs.Error))) {
				t.Fatalf("%q: error without a proper kind: %v", st.Text, err)
			}
		}
	})
}

// testStatements returns the SQL of each record of a sqllogictest file:
// the lines after a "statement" or "query" header up to "----" or a blank
// line.
func testStatements(text string) []string {
	var out, cur []string
	in := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
		}
		cur, in = nil, false
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "statement ") || strings.HasPrefix(t, "query "):
			flush()
			in = true
		case t == "" || t == "----":
			flush()
		case in:
			cur = append(cur, l)
		}
	}
	flush()
	return out
}
