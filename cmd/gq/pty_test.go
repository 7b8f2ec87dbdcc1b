package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// These tests drive the real REPL in a pseudo-terminal, as a person at a
// keyboard would: the test binary re-executes itself as gq (TestMain), so
// readline, raw mode, signals and the history file are all the real ones.

func TestMain(m *testing.M) {
	if os.Getenv("GQ_TEST_AS_GQ") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// term is a gq process on a pty, with everything it printed so far.
type term struct {
	t    *testing.T
	pty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	mark int // expect searches output after this offset
	done chan struct{}
}

func startTerm(t *testing.T, env ...string) *term {
	t.Helper()
	if testing.Short() {
		t.Skip("pty tests skipped in -short mode")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--data", "../../testdata/sql/data", "--threads", "2")
	cmd.Env = append(os.Environ(), append([]string{"GQ_TEST_AS_GQ=1", "TERM=xterm", "GQ_HISTORY=" + filepath.Join(t.TempDir(), "history")}, env...)...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 100})
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	tm := &term{t: t, pty: f, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		f.Close()
	})
	tm.expect("gq> ")
	return tm
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

// screen is everything printed after the mark, with escape sequences
// and carriage returns removed; the mark indexes this cleaned text (a
// prefix of the output cleans to a prefix of the cleaned output).
func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	clean := ansi.ReplaceAllString(tm.out.String(), "")
	return clean[min(tm.mark, len(clean)):]
}

// expect waits until want appears after the mark, moves the mark past it
// and returns the text up to and including it.
func (tm *term) expect(want string) string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		clean := ansi.ReplaceAllString(tm.out.String(), "")
		from := min(tm.mark, len(clean))
		if i := strings.Index(clean[from:], want); i >= 0 {
			tm.mark = from + i + len(want)
			tm.mu.Unlock()
			return clean[from:tm.mark]
		}
		tm.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	tm.t.Fatalf("timed out waiting for %q; screen:\n%s", want, tm.screen())
	return ""
}

func (tm *term) send(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.pty, keys); err != nil {
		tm.t.Fatal(err)
	}
}

// wait waits for gq to exit and returns its exit status.
func (tm *term) wait() int {
	tm.t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- tm.cmd.Wait() }()
	select {
	case <-ch:
		return tm.cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		tm.t.Fatalf("gq did not exit; screen:\n%s", tm.screen())
	}
	return -1
}

func TestREPLMultiLine(t *testing.T) {
	tm := startTerm(t)
	tm.send("select 1 as a,\r")
	tm.expect("..> ")
	tm.send("  'x;y' as b\r")
	tm.expect("..> ") // the ';' inside quotes does not end it
	tm.send(";\r")
	got := tm.expect("1 row")
	for _, want := range []string{"│   a    │    b    │", "│ bigint │ varchar │", "│      1 │ x;y     │"} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
	tm.expect("gq> ")
	tm.send(".quit\r")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestREPLModeSwitch(t *testing.T) {
	tm := startTerm(t)
	for _, tc := range []struct{ mode, want string }{
		{"csv", "n,s\n7,seven\n"},
		{"json", `{"n": 7, "s": "seven"}`},
		{"jsonl", `{"n":7,"s":"seven"}`},
		{"markdown", "|   n | s     |\n| --: | ----- |\n|   7 | seven |"},
		{"line", "n = 7\ns = seven\n"},
		{"table", "│      7 │ seven   │"},
	} {
		tm.send(".mode " + tc.mode + "\r")
		tm.send("select 7 as n, 'seven' as s;\r")
		tm.expect(tc.want) // readline redraws prompts as keys arrive: wait for the output itself
	}
	tm.send(".mode xml\r")
	tm.expect("usage: .mode table|csv|json|jsonl|markdown|line")
	tm.send("\x04") // Ctrl-D exits
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestREPLHistory(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "hist")
	tm := startTerm(t, "GQ_HISTORY="+hist)
	tm.send("select 40 +\r2 as answer;\r")
	tm.expect("42")
	tm.expect("gq> ")
	tm.send("\x1b[A") // Up: the whole two-line statement comes back as one
	tm.expect("select 40 + 2 as answer;")
	tm.send("\r")
	tm.expect("42")
	tm.send(".quit\r")
	tm.wait()
	b, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "select 40 + 2 as answer;\n") {
		t.Errorf("history file %q lacks the statement", b)
	}
	// A new session recalls it from the file (before it: .quit).
	tm = startTerm(t, "GQ_HISTORY="+hist)
	tm.send("\x1b[A\x1b[A\r")
	tm.expect("42")
}

func TestREPLErrorCaret(t *testing.T) {
	tm := startTerm(t)
	tm.send("select name,\r  nmae from people;\r")
	got := tm.expect("^")
	want := "Error: binding error at line 2, column 3: column \"nmae\" not found"
	if !strings.Contains(got, want) || !strings.Contains(got, "    nmae from people;\n    ^") {
		t.Errorf("want %q and a caret under nmae:\n%s", want, got)
	}
	tm.expect("gq> ")
	tm.send("select 1;\r") // the session goes on
	tm.expect("1 row")
}

func TestREPLCtrlCCancels(t *testing.T) {
	tm := startTerm(t)
	// A 6^12-row cross join: minutes of work unless cancelled.
	tm.send("select count(*) from people a, people b, people c, people d, people e, people f," +
		" people g, people h, people i, people j, people k, people l;\r")
	// After a second the progress bar appears on stderr (a terminal here).
	tm.expect("99% ▕")
	start := time.Now()
	tm.send("\x03")
	tm.expect("cancelled")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelling took %v", d)
	}
	tm.expect("gq> ")
	tm.send("select 5 as still_here;\r")
	tm.expect("still_here") // the echoed input
	tm.expect("1 row")      // the result: the query has finished
	tm.expect("gq> ")
	// Ctrl-C twice at an empty prompt exits.
	tm.send("\x03")
	tm.expect("Ctrl-C again")
	tm.send("\x03")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
