package parser

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"gq/errs"
)

// FuzzParse (beside split_test.go's FuzzSplit, which checks only error
// positions) feeds arbitrary scripts to Split and Locate. Whatever the
// input, Split must return (never panic), every error must be a Syntax
// error with a position inside the script, and every statement's position
// must lie inside the script. Run it for a while with
//
//	go test ./parser -run '^$' -fuzz FuzzParse -fuzztime 5m
//
// (or `make fuzz`); plain `go test` replays the seeds below and
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"select 1",
		"select 1; select 2;",
		"select 'a;b', `x;y` from t -- c;\n; # d\n select /* ; */ 3",
		"selec 1",
		"select (1 + 2",
		"select 'unterminated",
		"select \"x\" from `t` where a = 'İstanbul' and b = 'ß'",
		"with c as (select 1 as x) select x from c union all select 2",
		"select * from t where a in (1,2,3) order by 1 desc limit 5",
		";;;",
		"/* open comment",
		"select 1\n;\nselect\n  nosuch(",
		"\xff\xfe select 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := Split(sql)
		lines := strings.Count(sql, "\n") + 1
		if err != nil {
			if !errors.Is(err, errs.Syntax) {
				t.Fatalf("error without Syntax kind: %v", err)
			}
			var ge *errs.Error
			if !errors.As(err, &ge) || ge.Line < 1 || ge.Line > lines || ge.Col < 1 {
				t.Fatalf("syntax error with bad position: %#v", err)
			}
		}
		for _, st := range stmts {
			if st.AST == nil {
				t.Fatalf("statement %q without AST", st.Text)
			}
			if st.Line < 1 || st.Line > lines || st.Col < 1 {
				t.Fatalf("statement %q at bad position %d:%d", st.Text, st.Line, st.Col)
			}
			// Locate any token of the statement (and one that is absent):
			// the answer must stay inside the script.
			for _, near := range append(strings.Fields(st.Text), "no such token") {
				if !utf8.ValidString(near) {
					continue
				}
				l, c := Locate(st, near)
				if l < 1 || l > lines || c < 1 {
					t.Fatalf("Locate(%q) = %d:%d outside the script", near, l, c)
				}
			}
		}
	})
}
