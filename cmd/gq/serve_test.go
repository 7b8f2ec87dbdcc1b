package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeFlags: bad serve settings are usage errors, before any
// listening.
func TestServeFlags(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "users")
	os.WriteFile(empty, []byte("# nobody\n"), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "reachable from other hosts"},
		{[]string{"--listen", "127.0.0.1:0", "--tls-cert", "x.pem"}, "--tls-cert and --tls-key together"},
		{[]string{"--listen", "127.0.0.1:0", "--tls-cert", "x.pem", "--tls-key", "y.pem"}, "TLS"},
		{[]string{"--listen", "127.0.0.1:0", "--users", empty}, "no users"},
		{[]string{"--listen", "127.0.0.1:0", "--log-format", "xml"}, "unknown --log-format"},
		{[]string{"--listen", "127.0.0.1:0", "extra"}, "unexpected argument"},
		{[]string{"--listen", "127.0.0.1:0", "--query-memory-limit", "4XB"}, "--query-memory-limit"},
	} {
		var out, errb bytes.Buffer
		t.Setenv("RRUN_RANK", "")
		t.Setenv("RRUN_NRANKS", "")
		code := run(append([]string{"serve"}, tc.args...), strings.NewReader(""), &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errb.String(), exitUsage, tc.want)
		}
	}
}

func TestParseQueryLimit(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "0": 0, "512MiB": 512 << 20, "1048576": 1 << 20} {
		if got, err := parseQueryLimit(in); err != nil || got != want {
			t.Errorf("parseQueryLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if got, err := parseQueryLimit("10%"); err != nil || got <= 0 {
		t.Errorf("parseQueryLimit(10%%) = %d, %v; want a tenth of RAM", got, err)
	}
}
