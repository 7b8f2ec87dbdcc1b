package main

import (
	"bytes"
	"flag"
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
	nopw := filepath.Join(t.TempDir(), "nopw")
	os.WriteFile(nopw, []byte("alice:secret\n\nbob:\n"), 0o600)
	users := filepath.Join(t.TempDir(), "users.ok")
	os.WriteFile(users, []byte("alice:secret\n"), 0o600)
	tokFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokFile, []byte("\n"), 0o600)
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
		// Issue 28: an empty password is refused, naming its line.
		{[]string{"--listen", "127.0.0.1:0", "--users", nopw}, "nopw:3: user bob has an empty password"},
		// Credentials off loopback need TLS.
		{[]string{"--listen", "0.0.0.0:0", "--users", users}, "plaintext: give --tls-cert"},
		{[]string{"--listen", "0.0.0.0:0", "--auth-token-file", filepath.Join(t.TempDir(), "none")}, "--auth-token-file"},
		{[]string{"--listen", "127.0.0.1:0", "--auth-token-file", tokFile}, "no token on its first line"},
		{[]string{"--listen", "127.0.0.1:0", "--auth-token", "x", "--auth-token-file", tokFile}, "not both"},
		{[]string{"--listen", "127.0.0.1:0", "--session-table-limit", "lots"}, "--session-table-limit"},
	} {
		var out, errb bytes.Buffer
		t.Setenv("RRUN_RANK", "")
		t.Setenv("RRUN_NRANKS", "")
		t.Setenv("GQ_AUTH_TOKEN", "")
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

// TestServeTokenSources: the token comes from GQ_AUTH_TOKEN or
// --auth-token-file without a warning; on the command line it works but
// is warned about (every local user can read a command line).
func TestServeTokenSources(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	os.WriteFile(file, []byte("s3cret \nignored\n"), 0o600)
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	tok := fs.String("auth-token", "from-env", "")
	tf := fs.String("auth-token-file", "", "")
	fs.Parse([]string{"--auth-token-file", file})
	var errb bytes.Buffer
	if got, err := serverToken(fs, *tok, *tf, &errb); err != nil || got != "s3cret" || errb.Len() > 0 {
		t.Errorf("--auth-token-file: %q, %v, stderr %q", got, err, errb.String())
	}
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	tok = fs.String("auth-token", "from-env", "")
	fs.Parse(nil)
	if got, err := serverToken(fs, *tok, "", &errb); err != nil || got != "from-env" || errb.Len() > 0 {
		t.Errorf("GQ_AUTH_TOKEN: %q, %v, stderr %q", got, err, errb.String())
	}
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	tok = fs.String("auth-token", "", "")
	fs.Parse([]string{"--auth-token", "visible"})
	if got, err := serverToken(fs, *tok, "", &errb); err != nil || got != "visible" || !strings.Contains(errb.String(), "Warning: --auth-token on the command line") {
		t.Errorf("--auth-token: %q, %v, stderr %q", got, err, errb.String())
	}
}
