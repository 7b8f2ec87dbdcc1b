package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
)

func newTestShell(t *testing.T) (*shell, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cat := catalog.New()
	if err := cat.RegisterDir("../../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	return &shell{eng: engine.New(cat, engine.Options{}), mode: "csv", out: &out, errOut: &errOut}, &out, &errOut
}

func TestStatementComplete(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want bool
	}{
		{"select 1;", true},
		{"select 1", false},
		{"select 1;  \n", true},
		{"select ';'", false},
		{"select ';';", true},
		{"select 'it''s;'", false},
		{"select \"a;b\" from t;", true},
		{"select 1; -- done", true},
		{"select 1 -- no end;", false},
		{"select /* ; */ 1", false},
		{"select 1 /* unterminated ;", false},
		{"select 1; select 2", false},
	} {
		if got := statementComplete(tc.sql); got != tc.want {
			t.Errorf("statementComplete(%q) = %v, want %v", tc.sql, got, tc.want)
		}
	}
}

func TestCompleter(t *testing.T) {
	sh, _, _ := newTestShell(t)
	c := &completer{sh: sh}
	for _, tc := range []struct {
		line string
		want []string // completions (the rest of each word)
	}{
		{"SEL", []string{"ECT"}},
		{"sel", []string{"ect"}},
		{"select * from peo", []string{"ple"}},
		{"select na", []string{"me"}},
		{"select p.sal", []string{"ary"}},
		{".ti", []string{"mer "}},
		{".m", []string{"ode", "axrows"}},
		{"select 1 ", nil},
	} {
		got, n := c.Do([]rune(tc.line), len([]rune(tc.line)))
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		for _, w := range tc.want {
			found := false
			for _, g := range gs {
				found = found || strings.TrimSpace(g) == strings.TrimSpace(w)
			}
			if !found {
				t.Errorf("complete %q: got %q (len %d), want %q among them", tc.line, gs, n, w)
			}
		}
		if tc.want == nil && len(gs) > 0 {
			t.Errorf("complete %q: got %q, want none", tc.line, gs)
		}
	}
}

func TestDotOutputOnceRead(t *testing.T) {
	sh, out, errOut := newTestShell(t)
	dir := t.TempDir()
	all, once := filepath.Join(dir, "all.csv"), filepath.Join(dir, "once.csv")
	sh.dotCommand(".output " + all)
	sh.exec(t.Context(), "select 1 as a; select 2 as b;")
	sh.dotCommand(".output")
	sh.dotCommand(".once " + once)
	sh.exec(t.Context(), "select 3 as c;")
	sh.exec(t.Context(), "select 4 as d;") // back on the screen
	if b, _ := os.ReadFile(all); string(b) != "a\n1\nb\n2\n" {
		t.Errorf(".output file: %q", b)
	}
	if b, _ := os.ReadFile(once); string(b) != "c\n3\n" {
		t.Errorf(".once file: %q", b)
	}
	if out.String() != "d\n4\n" {
		t.Errorf("screen: %q", out.String())
	}
	script := filepath.Join(dir, "s.sql")
	os.WriteFile(script, []byte("select 5 as e;\nselect nosuch from people;\n"), 0o644)
	out.Reset()
	sh.dotCommand(".read " + script)
	if out.String() != "e\n5\n" || !strings.Contains(errOut.String(), `column "nosuch" not found`) {
		t.Errorf(".read: out %q err %q", out.String(), errOut.String())
	}
}

func TestDotSettings(t *testing.T) {
	sh, out, errOut := newTestShell(t)
	sh.mode = "table"
	sh.dotCommand(".maxrows 2")
	sh.exec(t.Context(), "select id from people order by id;")
	if !strings.Contains(out.String(), "6 rows (2 shown)") || !strings.Contains(out.String(), "│      6 │") {
		t.Errorf(".maxrows 2:\n%s", out.String())
	}
	errOut.Reset()
	sh.dotCommand(".stats on")
	sh.exec(t.Context(), "select id from people;")
	if !strings.Contains(errOut.String(), "Stats: 6 rows in") {
		t.Errorf(".stats on: %q", errOut.String())
	}
	for _, bad := range []string{".maxrows -1", ".maxrows x", ".stats maybe", ".device tpu", ".once", ".read", ".open"} {
		errOut.Reset()
		sh.dotCommand(bad)
		if !strings.Contains(errOut.String(), "Error:") {
			t.Errorf("%s: no error (%q)", bad, errOut.String())
		}
	}
	errOut.Reset()
	sh.dotCommand(".device cpu")
	if sh.device != "cpu" || errOut.Len() > 0 {
		t.Errorf(".device cpu: device %q, err %q", sh.device, errOut.String())
	}
	out.Reset()
	sh.dotCommand(".help")
	for _, c := range dotCommands {
		if !strings.Contains(out.String(), c.name) {
			t.Errorf(".help lacks %s", c.name)
		}
	}
}

// TestOpenAttachesDirectory checks .open adds a directory's tables.
func TestOpenAttachesDirectory(t *testing.T) {
	sh := &shell{eng: engine.New(catalog.New(), engine.Options{}), mode: "csv", out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	sh.dotCommand(".open ../../testdata/sql/data")
	if _, ok := sh.eng.Catalog().Table("people"); !ok {
		t.Errorf(".open did not attach people: %s", sh.errOut)
	}
}

// TestNoProgressOffTerminal checks progress bars and screen limits are off
// when output goes to pipes or files.
func TestNoProgressOffTerminal(t *testing.T) {
	sh, _, _ := newTestShell(t)
	sh.setTerminal(&bytes.Buffer{}, &bytes.Buffer{}, "auto")
	if sh.progress || sh.width != nil || sh.maxRows != 0 {
		t.Errorf("off a terminal: progress %v, width %v, maxrows %d", sh.progress, sh.width != nil, sh.maxRows)
	}
}

func TestHistoryEntry(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		{"select 1,\n  2;", "select 1, 2;"},
		{"select 1 -- one\n, '--x' as s -- two\n;", "select 1 , '--x' as s ;"},
	} {
		if got := historyEntry(tc.sql); got != tc.want {
			t.Errorf("historyEntry(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
}
