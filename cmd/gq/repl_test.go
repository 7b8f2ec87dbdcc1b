package main

import (
	"bytes"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
)

func TestDotCommands(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir("../../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sh := &shell{eng: engine.New(cat, engine.Options{}), mode: "table", out: &out, errOut: &errOut}
	tests := []struct {
		cmd, out, err string
		quit          bool
	}{
		{".tables", "blank\nevents\nnested\norders\npeople\n", "", false},
		{".schema people", "CREATE TABLE people (\n  id BIGINT,", "", false},
		{".schema nosuch", "", "does not exist", false},
		{".mode csv", "", "", false},
		{".mode xml", "", "usage", false},
		{".timer maybe", "", "usage", false},
		{".bogus", "", "unknown command", false},
		{".quit", "", "", true},
	}
	for _, tc := range tests {
		out.Reset()
		errOut.Reset()
		if q := sh.dotCommand(tc.cmd); q != tc.quit || !strings.HasPrefix(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%s: quit %v, out %q, err %q", tc.cmd, q, out.String(), errOut.String())
		}
	}
	if sh.mode != "csv" {
		t.Errorf(".mode csv left mode %q", sh.mode)
	}
	out.Reset()
	if !sh.exec(t.Context(), "select 1 as a;") || out.String() != "a\n1\n" {
		t.Errorf("exec after .mode csv: %q", out.String())
	}
}
