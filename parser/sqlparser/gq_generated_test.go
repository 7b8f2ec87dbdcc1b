package sqlparser

// gq: this file is gq's, not upstream's (see UPSTREAM.md).

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// wantConflicts is the number of shift/reduce conflicts goyacc reports for
// sql.y. Upstream's grammar has 5; a change that adds one must be understood
// (goyacc resolves it by shifting) and this number raised with a comment.
// gq's one: in `(VALUES (a)`, where an expression may start, `)` after a
// bare column is shifted, so that is MySQL's VALUES(a) function (ON
// DUPLICATE KEY UPDATE's), not a one-row VALUES table whose one value is
// a column; rows of constants or expressions are unaffected.
const wantConflicts = 6

// TestGeneratedParserIsCurrent regenerates sql.go from sql.y the way
// scripts/gen-grammar.sh does and fails when the committed sql.go differs:
// an edit to sql.y without a regeneration, or a hand edit to sql.go.
func TestGeneratedParserIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds goyacc and goimports; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	tmp := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GONOSUMDB=*", "GOSUMDB=off")
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	// Built from this module, so at the versions go.mod pins.
	run(".", goBin, "build", "-o", filepath.Join(tmp, "goyacc"), "vitess.io/vitess/go/vt/sqlparser/goyacc")
	run(".", goBin, "build", "-o", filepath.Join(tmp, "goimports"), "golang.org/x/tools/cmd/goimports")

	src, err := os.ReadFile("sql.y")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "sql.y"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same arguments as the script: goyacc records them in line one.
	out := run(tmp, filepath.Join(tmp, "goyacc"), "-fo", "sql.go", "sql.y")
	run(tmp, filepath.Join(tmp, "goimports"), "-w", "sql.go")

	m := regexp.MustCompile(`conflicts: (\d+) shift/reduce`).FindStringSubmatch(out)
	got := "0"
	if m != nil {
		got = m[1]
	}
	if got != strconv.Itoa(wantConflicts) {
		t.Errorf("goyacc reports %s shift/reduce conflicts in sql.y, want %d\n%s", got, wantConflicts, out)
	}
	if regexp.MustCompile(`reduce/reduce`).MatchString(out) {
		t.Errorf("sql.y has reduce/reduce conflicts:\n%s", out)
	}

	want, err := os.ReadFile(filepath.Join(tmp, "sql.go"))
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("sql.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("sql.go is not what goyacc makes from sql.y: run scripts/gen-grammar.sh")
	}
}
