package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		args       []string
		stdin      string
		code       int
		out, errIn string
	}{
		{[]string{"-c", "select 1 as a, 'x' as b"}, "", 0, "a,b\n1,x\n", ""},
		{[]string{"--format", "json", "-c", "select 2 as n"}, "", 0, "[\n  {\"n\": 2}\n]\n", ""},
		{nil, "select 1 as a;\nselect 2 as b;", 0, "a\n1\nb\n2\n", ""},
		{[]string{"-c", "select 1;\nselect nosuch from\n people"}, "", 1, "", "select nosuch from\n"},
		{[]string{"-c", "selec 1"}, "", 1, "", "Error: syntax error at line 1, column 1"},
		{[]string{"--format", "xml", "-c", "select 1"}, "", 2, "", "unknown format"},
		{[]string{"--bogus"}, "", 2, "", "flag provided but not defined"},
		{[]string{"--version"}, "", 0, "gq ", ""},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := run(append([]string{"--data", "../../testdata/sql/data"}, tc.args...), strings.NewReader(tc.stdin), &out, &errOut)
		if code != tc.code || !strings.HasPrefix(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.errIn) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
	}
}

func TestCaret(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--data", "../../testdata/sql/data", "-c", "select 1;\nselect nosuch from people"}, strings.NewReader(""), &out, &errOut)
	want := "  select nosuch from people\n         ^\n"
	// The first statement's result is printed before the second fails.
	if code != 1 || !strings.HasSuffix(errOut.String(), want) || out.Len() == 0 {
		t.Errorf("code %d stderr %q stdout %q", code, errOut.String(), out.String())
	}
}
