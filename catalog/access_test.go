package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gq/errs"
)

// accessTree is a directory a server allows and, beside it, one it does
// not, with links from the first into the second.
//
//	allowed/a.csv  allowed/in.csv -> a.csv  allowed/sub/{b,c}.csv
//	allowed/pq/1.parquet
//	allowed/out.csv -> ../secret/s.csv  allowed/outdir -> ../secret
//	secret/s.csv  secret/p.parquet
func accessTree(t *testing.T) (allowed, secret string) {
	t.Helper()
	root := t.TempDir()
	allowed, secret = filepath.Join(root, "allowed"), filepath.Join(root, "secret")
	writeFile(t, filepath.Join(allowed, "a.csv"), "x\n1\n2\n")
	writeFile(t, filepath.Join(allowed, "sub", "b.csv"), "x\n3\n")
	writeFile(t, filepath.Join(allowed, "sub", "c.csv"), "x\n4\n")
	writeFile(t, filepath.Join(secret, "s.csv"), "pw\nhunter2\n")
	os.MkdirAll(filepath.Join(allowed, "pq"), 0o755)
	for _, p := range []string{filepath.Join(allowed, "pq", "1.parquet"), filepath.Join(secret, "p.parquet")} {
		rec := sampleRecord(t, 0)
		writeParquet(t, p, rec, 4)
		rec.Release()
	}
	for link, target := range map[string]string{"in.csv": "a.csv", "out.csv": "../secret/s.csv", "outdir": "../secret"} {
		if err := os.Symlink(target, filepath.Join(allowed, link)); err != nil {
			t.Fatal(err)
		}
	}
	return allowed, secret
}

func confined(t *testing.T, allow ...string) *Catalog {
	t.Helper()
	c := New()
	if err := c.Confine(allow, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// refusal is the error a confined catalog gives for name.
func refusal(name string) string {
	return "binding error: file access outside the allowed paths is not permitted under gq serve: " + name
}

// TestConfinedRefuses: a confined catalog opens nothing outside its
// allowed prefixes — absolute and relative paths, "..", globs,
// directories, /proc's views of the file system, links leading out — and
// its refusal is the same whether the path exists or not.
func TestConfinedRefuses(t *testing.T) {
	allowed, secret := accessTree(t)
	c := confined(t, allowed)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(secret, "s.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		filepath.Join(secret, "s.csv"),
		filepath.Join(secret, "nope.csv"), // the same answer: no existence oracle
		allowed + "/../secret/s.csv",
		allowed + "/sub/../../secret/nope.csv",
		rel,
		"testdata",
		"/etc/passwd.csv",
		"/etc/shadow",
		"/etc/no-such-file",
		secret,
		filepath.Join(secret, "*.csv"), // a glob: names none of its matches
		filepath.Join(secret, "*"),
		filepath.Dir(allowed) + "/*/s.csv",
		"/*/*/*/*/*/*/*/*/*/*.csv",
		"/proc/self/root" + filepath.Join(allowed, "a.csv"), // inside, seen through /proc
		"/proc/self/cwd/a.csv",
		"/proc/1/cwd",
		"/proc/*/cwd/*.csv",
		"/sys/kernel/notes",
		"/dev/zero",
		filepath.Join(allowed, "out.csv"),          // a link out
		filepath.Join(allowed, "outdir", "s.csv"),  // through a linked directory
		filepath.Join(allowed, "outdir", "no.csv"), // ... the same when missing
		filepath.Join(allowed, "outdir"),           // a linked directory itself
		filepath.Join(allowed, "outdir", "*.csv"),  // a glob through it
	} {
		_, err := c.OpenFile(context.Background(), "t", name)
		if err == nil {
			t.Errorf("%s: opened", name)
			continue
		}
		if got := err.Error(); got != refusal(name) || !errors.Is(err, errs.Binding) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A server's session catalogs follow its policy.
	if _, err := c.Session().OpenFile(context.Background(), "t", filepath.Join(secret, "s.csv")); err == nil || !strings.Contains(err.Error(), "not permitted") {
		t.Errorf("session: %v", err)
	}
	// With "/" allowed, a glob's walk does not enter /proc, /sys or /dev.
	if _, err := confined(t, "/").OpenFile(context.Background(), "t", "/pro[c]/[1]/statu[s]"); err == nil || !strings.Contains(err.Error(), "no files match") {
		t.Errorf("a glob into /proc: %v", err)
	}
	for _, p := range []string{"/proc", "/proc/self", "/sys/fs", "/dev"} {
		if err := New().Confine([]string{p}, nil); err == nil {
			t.Errorf("--allow-path %s accepted", p)
		}
	}
}

// TestConfinedAllows: paths under an allowed prefix open as before, links
// and globs within it included; an unconfined catalog (the CLI's) reads any
// path.
func TestConfinedAllows(t *testing.T) {
	allowed, secret := accessTree(t)
	c := confined(t, allowed)
	for name, rows := range map[string]int{
		filepath.Join(allowed, "a.csv"):          2,
		filepath.Join(allowed, "in.csv"):         2,
		filepath.Join(allowed, "sub", "*.csv"):   2,
		filepath.Join(allowed, "s*", "[bc].csv"): 2,
		filepath.Join(allowed, "pq"):             10,
		allowed + "/sub/../a.csv":                2,
		// Globs pass over the links out among their matches.
		filepath.Join(allowed, "*.csv"):          4,
		filepath.Join(allowed, "*", "*.parquet"): 10,
	} {
		tb, err := c.OpenFile(context.Background(), "t", name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := len(readAll(t, tb, []int{0}, 100)); got != rows {
			t.Errorf("%s: %d rows, want %d", name, got, rows)
		}
	}
	// A relative path and a prefix given through a link resolve too.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(allowed, link); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, filepath.Join(allowed, "a.csv"))
	for _, name := range []string{rel, filepath.Join(link, "a.csv"), filepath.Join(link, "sub", "*.csv")} {
		if _, err := confined(t, link).OpenFile(context.Background(), "t", name); err != nil {
			t.Errorf("allowed through a link: %s: %v", name, err)
		}
		if _, err := c.OpenFile(context.Background(), "t", name); err != nil && !strings.Contains(name, "link") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Inside, a missing file may say so.
	if _, err := c.OpenFile(context.Background(), "t", filepath.Join(allowed, "nope.csv")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing inside: %v", err)
	}
	// The CLI reads any path, as DuckDB does.
	for _, name := range []string{filepath.Join(secret, "s.csv"), filepath.Join(allowed, "out.csv"), filepath.Join(allowed, "outdir", "*.parquet")} {
		if _, err := New().OpenFile(context.Background(), "t", name); err != nil {
			t.Errorf("unconfined %s: %v", name, err)
		}
		if _, err := OpenFile("t", name); err != nil {
			t.Errorf("OpenFile %s: %v", name, err)
		}
	}
}

// TestRegisterDirConfined: links among a --data directory's entries that
// lead out of it are skipped under a confined policy, with a warning
// naming them; links within it, and everything for the CLI, are kept.
func TestRegisterDirConfined(t *testing.T) {
	root := t.TempDir()
	data, secret := filepath.Join(root, "data"), filepath.Join(root, "secret")
	writeFile(t, filepath.Join(data, "t.csv"), "x\n1\n")
	writeFile(t, filepath.Join(secret, "s.csv"), "pw\nhunter2\n")
	writeFile(t, filepath.Join(secret, "d", "1.parquet"), "")
	rec := sampleRecord(t, 0)
	writeParquet(t, filepath.Join(secret, "d", "1.parquet"), rec, 4)
	rec.Release()
	os.MkdirAll(filepath.Join(data, "part"), 0o755)
	for link, target := range map[string]string{
		"inlink.csv": "t.csv", "leak.csv": "../secret/s.csv", "leakdir": "../secret/d",
		"part/1.parquet": "../../secret/d/1.parquet",
	} {
		if err := os.Symlink(target, filepath.Join(data, link)); err != nil {
			t.Fatal(err)
		}
	}
	var warnings []string
	c := New()
	if err := c.Confine(nil, func(m string) { warnings = append(warnings, m) }); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterDir(data); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "inlink,t" {
		t.Errorf("confined tables %s", got)
	}
	w := strings.Join(warnings, "\n")
	for _, name := range []string{"leak.csv", "leakdir", "part/1.parquet"} {
		if !strings.Contains(w, filepath.Join(data, name)) {
			t.Errorf("no warning names %s: %q", name, w)
		}
	}
	if strings.Contains(w, "hunter2") || strings.Count(w, "\n") != 2 {
		t.Errorf("warnings %q", w)
	}
	c.Names() // a warning is given once
	if len(warnings) != 3 {
		t.Errorf("%d warnings", len(warnings))
	}
	open := New()
	if err := open.RegisterDir(data); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(open.Names(), ","); got != "inlink,leak,leakdir,part,t" {
		t.Errorf("unconfined tables %s", got)
	}
}

// TestGlobBounds: a glob's expansion stops at its limits with an error
// naming the limit, and with its context.
func TestGlobBounds(t *testing.T) {
	root := t.TempDir()
	for _, a := range []string{"a", "b", "c"} {
		for _, b := range []string{"x", "y", "z"} {
			for _, f := range []string{"1", "2", "3"} {
				writeFile(t, filepath.Join(root, a, b, f+".csv"), "x\n1\n")
			}
		}
	}
	pattern := filepath.Join(root, "*", "*", "*.csv")
	big := globLimits{files: 1000, dirs: 1000, entries: 1000, depth: 32}
	if paths, err := expandFiles(context.Background(), nil, pattern, big); err != nil || len(paths) != 27 {
		t.Fatalf("%d paths, %v", len(paths), err)
	}
	for _, tc := range []struct {
		lim  globLimits
		want string
	}{
		{globLimits{files: 10, dirs: 1000, entries: 1000, depth: 32}, "matches more than 10 files"},
		{globLimits{files: 1000, dirs: 5, entries: 1000, depth: 32}, "lists more than 5 directories"},
		{globLimits{files: 1000, dirs: 1000, entries: 20, depth: 32}, "reads more than 20 directory entries"},
		{globLimits{files: 1000, dirs: 1000, entries: 1000, depth: 2}, "has more than 2 levels"},
	} {
		_, err := expandFiles(context.Background(), nil, pattern, tc.lim)
		if !errors.Is(err, errs.ResourcesExhausted) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v", tc.lim, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := expandFiles(ctx, nil, pattern, big); !errors.Is(err, errs.Cancelled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := expandFiles(context.Background(), nil, filepath.Join(root, "[", "*.csv"), big); !errors.Is(err, errs.Binding) {
		t.Errorf("bad pattern: %v", err)
	}
}

// TestGlobBomb: the pattern that grew a server to 5 GB at full CPU, past
// its deadline, stops within a second of its context's deadline however
// far its limits are, and at its limits without a deadline, confined or
// not.
func TestGlobBomb(t *testing.T) {
	const bomb = "/*/*/*/*/*/*/*/*/*/*.csv"
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	huge := globLimits{files: 1 << 30, dirs: 1 << 30, entries: 1 << 40, depth: 32}
	_, err := expandFiles(ctx, nil, bomb, huge)
	took := time.Since(start)
	if !errors.Is(err, errs.Cancelled) || took > 300*time.Millisecond+time.Second {
		t.Errorf("bomb under a 300ms deadline: %v after %v", err, took)
	}
	for _, c := range []*Catalog{New(), confined(t, "/")} {
		start = time.Now()
		_, err = c.OpenFile(context.Background(), "t", bomb)
		t.Logf("bomb (confined %v): %v after %v", c.confined(), err, time.Since(start))
		if !errors.Is(err, errs.ResourcesExhausted) {
			t.Errorf("bomb: %v", err)
		}
	}
}
