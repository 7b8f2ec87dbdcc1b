package parser

import (
	"errors"
	"strings"
	"testing"

	"gq/errs"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		sql   string
		texts []string
		pos   [][2]int
	}{
		{"select 1", []string{"select 1"}, [][2]int{{1, 1}}},
		{"select 1; select 2;", []string{"select 1", "select 2"}, [][2]int{{1, 1}, {1, 11}}},
		{";;  \n  select ';' ; ", []string{"select ';'"}, [][2]int{{2, 3}}},
		{"-- c;\nselect 1 # x;\n;\n/* a; */ select `a;b` from t", []string{"select 1 # x;", "select `a;b` from t"}, [][2]int{{2, 1}, {4, 10}}},
		{"select 'it''s;', \"x\\\";\"", []string{"select 'it''s;', \"x\\\";\""}, [][2]int{{1, 1}}},
		{"  -- only a comment\n", nil, nil},
	}
	for _, tc := range tests {
		got, err := Split(tc.sql)
		if err != nil {
			t.Errorf("%q: %v", tc.sql, err)
			continue
		}
		if len(got) != len(tc.texts) {
			t.Errorf("%q: got %d statements, want %d", tc.sql, len(got), len(tc.texts))
			continue
		}
		for i, st := range got {
			if st.Text != tc.texts[i] || st.Line != tc.pos[i][0] || st.Col != tc.pos[i][1] || st.AST == nil {
				t.Errorf("%q #%d: got %q at %d:%d", tc.sql, i, st.Text, st.Line, st.Col)
			}
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		sql       string
		line, col int
	}{
		{"select 1;\nselect * fromm t", 2, 10},
		{"select 1;\n  selec 2", 2, 3},
		{"select (1", 1, 10},
		// vitess skips "//" to the end of the line: "select 7 // 2, 5"
		// was "select 7", one column.
		{"select 7 // 2, 5", 1, 10},
		{"select 1;\nselect r, r // 3, n from t", 2, 13},
		{"// a comment?\nselect 1", 1, 1},
	}
	for _, tc := range tests {
		_, err := Split(tc.sql)
		var ge *errs.Error
		if !errors.As(err, &ge) || !errors.Is(err, errs.Syntax) {
			t.Errorf("%q: got %v, want syntax error", tc.sql, err)
			continue
		}
		if ge.Line != tc.line || ge.Col != tc.col {
			t.Errorf("%q: got %d:%d (%v), want %d:%d", tc.sql, ge.Line, ge.Col, err, tc.line, tc.col)
		}
	}
}

// TestSlashesInQuotesAndComments: "//" in strings, identifiers and
// comments is text, not an error.
func TestSlashesInQuotesAndComments(t *testing.T) {
	for _, sql := range []string{
		"select 'http://x'", "select `a//b` from t", "select 1 -- see http://x", "select 1 # //", "select /* // */ 1", "select 4 / 2 / 1",
	} {
		if _, err := Split(sql); err != nil {
			t.Errorf("%q: %v", sql, err)
		}
	}
}

func TestLocate(t *testing.T) {
	sts, err := Split("select 1;\n  select a,\n   Bogus from t where paid = id")
	if err != nil {
		t.Fatal(err)
	}
	st := sts[1]
	for _, tc := range []struct {
		near      string
		line, col int
	}{{"bogus", 3, 4}, {"a", 2, 10}, {"id", 3, 30}, {"ai", 3, 24}, {"", 2, 3}, {"zzz", 2, 3}} {
		if l, c := Locate(st, tc.near); l != tc.line || c != tc.col {
			t.Errorf("Locate(%q) = %d:%d, want %d:%d", tc.near, l, c, tc.line, tc.col)
		}
	}
}

// FuzzSplit checks that no script makes Split panic and that every syntax
// error it reports has a position inside the script.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"select 1; select 'a;b'", "select `x` -- c\n; /* ; */", "select (", "'unterminated", "#;\n;;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		_, err := Split(sql)
		var ge *errs.Error
		if errors.As(err, &ge) && (ge.Line < 1 || ge.Col < 1 || ge.Line > strings.Count(sql, "\n")+1) {
			t.Errorf("%q: bad position %d:%d", sql, ge.Line, ge.Col)
		}
	})
}

// TestDialectNotes: a syntax error at a DuckDB construct gq lacks says so;
// the same words elsewhere get no note.
func TestDialectNotes(t *testing.T) {
	tests := []struct{ sql, note string }{
		{"CREATE MACRO m(a) AS a + 1", "CREATE MACRO (DuckDB's) is not supported"},
		{"create or replace macro m(a) as a", "CREATE MACRO (DuckDB's) is not supported"},
		{"create table t (c BITSTRING)", "the BITSTRING type (DuckDB's) is not supported"},
		{"prepare p as select 1", "MySQL's form is PREPARE name FROM 'query'"},
		{"select 1 from t where macro macro", ""},
		{"create table t (c int, d int) as", ""},
	}
	for _, tc := range tests {
		_, err := Split(tc.sql)
		if err == nil || !errors.Is(err, errs.Syntax) {
			t.Errorf("%q: got %v, want a syntax error", tc.sql, err)
			continue
		}
		if got := err.Error(); tc.note == "" && strings.Contains(got, "supported") || !strings.Contains(got, tc.note) {
			t.Errorf("%q: got %v, want the note %q", tc.sql, err, tc.note)
		}
	}
}
