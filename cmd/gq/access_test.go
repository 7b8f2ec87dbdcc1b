package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gq/catalog"
	"gq/engine"
)

// TestServeReadsOnlyAllowedFiles starts a real `gq serve --data DIR
// --allow-path PREFIX` and queries it as a Flight SQL client would: the
// --data tables and files under the prefix are read, any other path is
// refused with one message whether it exists or not, and a link in DIR
// leading out of it is no table.
func TestServeReadsOnlyAllowedFiles(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	data, allowed, secret := filepath.Join(root, "data"), filepath.Join(root, "allowed"), filepath.Join(root, "secret")
	for path, text := range map[string]string{
		filepath.Join(data, "t.csv"):    "x\n1\n2\n",
		filepath.Join(allowed, "a.csv"): "y\n5\n",
		filepath.Join(secret, "s.csv"):  "pw\nhunter2\n",
	} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(secret, "s.csv"), filepath.Join(data, "leak.csv")); err != nil {
		t.Fatal(err)
	}
	addr := freePort(t)
	srv := exec.Command(exe, "serve", "--listen", addr, "--data", data, "--allow-path", allowed, "--threads", "2")
	srv.Env = append(os.Environ(), "GQ_TEST_AS_GQ=1", "RRUN_RANK=", "RRUN_NRANKS=")
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl := dialServer(ctx, t, addr, &stderr)

	if got := string(queryCSV(ctx, t, cl, "select sum(x) as s from t")); !strings.Contains(got, "3") {
		t.Errorf("t: %q", got)
	}
	if got := string(queryCSV(ctx, t, cl, "select y from `"+filepath.Join(allowed, "a.csv")+"`")); !strings.Contains(got, "5") {
		t.Errorf("allowed file: %q", got)
	}
	refusedAs := func(name string) string {
		_, err := cl.Execute(ctx, "select * from `"+name+"`")
		if err == nil {
			t.Errorf("%s: read", name)
			return ""
		}
		msg := err.Error()
		if !strings.Contains(msg, "file access outside the allowed paths is not permitted under gq serve: "+name) {
			t.Errorf("%s: %v", name, err)
		}
		return strings.ReplaceAll(msg, name, "NAME")
	}
	// Existing and missing paths are refused alike.
	for _, pair := range [][2]string{
		{"/etc/passwd", "/etc/no-such-file"},
		{filepath.Join(secret, "s.csv"), filepath.Join(secret, "nope.csv")},
		{allowed + "/../secret/s.csv", allowed + "/../secret/nope.csv"},
		{"/proc/self/root" + filepath.Join(secret, "s.csv"), "/proc/self/root/nope.csv"},
		{filepath.Join(secret, "*.csv"), filepath.Join(secret, "*.nope")},
		{"/*/*/*/*/*/*/*/*/*/*.csv", filepath.Join(data, "*.csv")},
	} {
		if a, b := refusedAs(pair[0]), refusedAs(pair[1]); a != b {
			t.Errorf("refusals differ:\n%s\n%s", a, b)
		}
	}
	if _, err := cl.Execute(ctx, "select * from leak"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("a link out of --data is a table: %v", err)
	}
	if w := stderr.String(); !strings.Contains(w, "leak.csv") || strings.Contains(w, "hunter2") {
		t.Errorf("server log: %s", w)
	}
}

// TestOpenAgain: .open of a directory already open replaces its tables
// (it failed with "table … already exists"), picking up what changed.
func TestOpenAgain(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.csv"), []byte("x\n1\n"), 0o644)
	var errOut bytes.Buffer
	sh := &shell{eng: engine.New(catalog.New(), engine.Options{}), mode: "csv", out: &bytes.Buffer{}, errOut: &errOut}
	sh.dotCommand(".open " + dir)
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte("x\n1\n"), 0o644)
	sh.dotCommand(".open " + dir)
	if got := errOut.String(); strings.Contains(got, "Error") || !strings.Contains(got, ": 2 tables") {
		t.Errorf(".open twice: %s", got)
	}
	if _, ok := sh.eng.Catalog().Table("d"); !ok {
		t.Error("no table d")
	}
}

// TestAllowPathFlag: an --allow-path that cannot be allowed is a usage
// error.
func TestAllowPathFlag(t *testing.T) {
	for _, p := range []string{"/proc", "/dev/shm", filepath.Join(t.TempDir(), "missing")} {
		var out, errb bytes.Buffer
		t.Setenv("RRUN_RANK", "")
		t.Setenv("RRUN_NRANKS", "")
		code := run([]string{"serve", "--listen", "127.0.0.1:0", "--allow-path", p}, strings.NewReader(""), &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "--allow-path") {
			t.Errorf("%s: exit %d, %s", p, code, errb.String())
		}
	}
}
