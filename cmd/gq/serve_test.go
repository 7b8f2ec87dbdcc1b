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

func TestServeUnderRanks(t *testing.T) {
	t.Setenv("RRUN_RANK", "0")
	t.Setenv("RRUN_NRANKS", "2")
	var out, errb bytes.Buffer
	if code := run([]string{"serve", "--listen", "127.0.0.1:0"}, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "not supported yet") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
