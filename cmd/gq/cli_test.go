package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

func runGQ(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"--data", "../../testdata/sql/data"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelpListsEveryFlag checks that --help names every flag gq defines
// and, for settings, the GQ_* variable that sets it.
func TestHelpListsEveryFlag(t *testing.T) {
	var names []string
	flagSetHook = func(fs *flag.FlagSet) {
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	}
	defer func() { flagSetHook = nil }()
	code, out, _ := runGQ(t, "--help")
	if code != 0 || len(names) < 8 {
		t.Fatalf("--help exit status %d, flags %v", code, names)
	}
	for _, name := range names {
		dashes := "--"
		if len(name) == 1 {
			dashes = "-"
		}
		var found bool
		for _, line := range strings.Split(out, "\n") {
			fields := strings.Fields(line)
			if len(fields) > 0 && fields[0] == dashes+name {
				found = true
				if !noEnv[name] && !strings.Contains(line, envName(name)) {
					t.Errorf("help line for %s lacks %s: %q", name, envName(name), line)
				}
			}
		}
		if !found {
			t.Errorf("--help does not list %s%s:\n%s", dashes, name, out)
		}
	}
	if !strings.Contains(out, "Exit status: 0 success, 1 a statement failed, 2 bad flags") {
		t.Errorf("--help lacks the exit statuses")
	}
}

func TestEnvironmentSetsFlags(t *testing.T) {
	t.Setenv("GQ_FORMAT", "jsonl")
	if code, out, _ := runGQ(t, "-c", "select 1 as a"); code != 0 || out != "{\"a\":1}\n" {
		t.Errorf("GQ_FORMAT=jsonl: code %d, out %q", code, out)
	}
	// A flag given wins over the variable.
	if code, out, _ := runGQ(t, "--format", "csv", "-c", "select 1 as a"); code != 0 || out != "a\n1\n" {
		t.Errorf("--format csv over GQ_FORMAT: code %d, out %q", code, out)
	}
	t.Setenv("GQ_THREADS", "many")
	if code, _, errOut := runGQ(t, "-c", "select 1"); code != exitUsage || !strings.Contains(errOut, "GQ_THREADS") {
		t.Errorf("bad GQ_THREADS: code %d, stderr %q", code, errOut)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"-c", "select 1"}, 0},
		{[]string{"-c", "select nosuch from people"}, exitQuery},
		{[]string{"-c", "select 1", "-f", "x.sql"}, exitUsage},
		{[]string{"extra"}, exitUsage},
		{[]string{"--format", "yaml", "-c", "select 1"}, exitUsage},
		{[]string{"-f", "/nonexistent/q.sql"}, exitQuery},
	} {
		if code, _, errOut := runGQ(t, tc.args...); code != tc.code {
			t.Errorf("%v: exit status %d, want %d (stderr %q)", tc.args, code, tc.code, errOut)
		}
	}
}

// TestHintInError checks the binder's closest-name hint reaches the user
// with the caret.
func TestHintInError(t *testing.T) {
	_, _, errOut := runGQ(t, "-c", "select nmae from people")
	want := "Error: binding error at line 1, column 8: column \"nmae\" not found (did you mean \"name\"?)\n  select nmae from people\n         ^\n"
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
	_, _, errOut = runGQ(t, "-c", "select * from peple")
	if !strings.Contains(errOut, `table "peple" not found (did you mean "people"?)`) {
		t.Errorf("stderr: %s", errOut)
	}
}

// TestExplainPrintsTree checks that table mode prints plan text as a tree,
// not as a boxed cell with escaped newlines.
func TestExplainPrintsTree(t *testing.T) {
	code, out, _ := runGQ(t, "--format", "table", "-c", "explain select name from people where id > 2 order by name")
	if code != 0 || !strings.HasPrefix(out, "Sort [name ASC]\n") || !strings.Contains(out, "└─ ") || strings.Contains(out, "│ plan") {
		t.Errorf("code %d, out:\n%s", code, out)
	}
	code, out, _ = runGQ(t, "--format", "table", "-c", "explain analyze select count(*) from people")
	if code != 0 || !strings.Contains(out, "Scan people") || !strings.Contains(out, "1 row returned") {
		t.Errorf("explain analyze: code %d, out:\n%s", code, out)
	}
}
