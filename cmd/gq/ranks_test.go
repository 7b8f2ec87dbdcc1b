package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestLocalRanks: --ranks 3 prints one answer (rank 0's), reads stdin
// once for every rank, and reports a failing statement once per rank
// with a non-zero status.
func TestLocalRanks(t *testing.T) {
	tests := []struct {
		args       []string
		stdin      string
		code       int
		out, errIn string
	}{
		{[]string{"-c", "select count(*) as n, sum(id) as s from people"}, "", 0, "n,s\n", ""},
		{nil, "select 1 as a;\nselect 2 as b;", 0, "a\n1\nb\n2\n", ""},
		{[]string{"-c", "select nosuch from people"}, "", 1, "", "[rank 2] Error: binding error"},
		{[]string{"--cluster-info"}, "", 0, "rank,host,pid,gpu,comm\n0,", ""},
		{[]string{"--comm", "tcp", "--cluster-info"}, "", 0, "rank,host,pid,gpu,comm\n0,", ",tcp\n"},
		{[]string{"--comm", "tcp", "-c", "select count(*) as n, sum(id) as s from people"}, "", 0, "n,s\n", ""},
	}
	for _, tc := range tests {
		var single, out, errOut bytes.Buffer
		run(append([]string{"--data", "../../testdata/sql/data"}, tc.args...), strings.NewReader(tc.stdin), &single, &errOut)
		errOut.Reset()
		code := run(append([]string{"--ranks", "3", "--data", "../../testdata/sql/data"}, tc.args...), strings.NewReader(tc.stdin), &out, &errOut)
		if code != tc.code || !strings.HasPrefix(out.String(), tc.out) || !strings.Contains(out.String()+errOut.String(), tc.errIn) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
		if tc.code == 0 && strings.Contains(strings.Join(tc.args, " "), "-c ") && out.String() != single.String() {
			t.Errorf("%v: 3 ranks printed %q, one rank %q", tc.args, out.String(), single.String())
		}
	}
}
