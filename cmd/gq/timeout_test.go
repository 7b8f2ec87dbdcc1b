package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTimeoutFlag: a script past --timeout (or GQ_TIMEOUT) is cancelled
// with a message naming the limit and a failing exit status; a script
// within it runs normally.
func TestTimeoutFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--timeout", "1ns", "-c", "select 1"}, strings.NewReader(""), &out, &errOut); code != exitQuery {
		t.Fatalf("exit status %d, want %d; stderr %q", code, exitQuery, errOut.String())
	}
	if !strings.Contains(errOut.String(), "timed out after 1ns") {
		t.Errorf("stderr %q does not name the time-out", errOut.String())
	}
	t.Setenv("GQ_TIMEOUT", "1ns")
	errOut.Reset()
	if code := run([]string{"-c", "select 1"}, strings.NewReader(""), &out, &errOut); code != exitQuery {
		t.Fatalf("GQ_TIMEOUT: exit status %d, want %d", code, exitQuery)
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"--timeout", "1m", "-c", "select 41 + 1"}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.Contains(out.String(), "42") {
		t.Fatalf("within the limit: exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
}
