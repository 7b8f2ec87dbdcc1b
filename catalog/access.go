package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gq/errs"
)

// access is a catalog's file-access policy: which files a query may open
// by path (a backtick name in FROM) and which entries of a RegisterDir
// directory become tables. A catalog without one (the CLI's) reads any
// path the process can, as DuckDB does; a server's is confined.
//
// A confined policy judges a path before anything is asked of the file
// system about it, so its refusal is the same whether the path exists or
// not, and it follows symbolic links one step at a time, judging each
// target before looking at it (resolve): a link cannot lead a query out of
// the allowed paths, nor tell it whether what lies beyond exists.
type access struct {
	// given and resolved are the allowed prefixes, absolute and clean, as
	// given and with their symbolic links evaluated (the same index is
	// the same prefix): a query writes paths in the first form, the walk
	// reaches them in the second.
	given, resolved []string
	// warn reports entries RegisterDir skips; nil discards them.
	warn func(msg string)
}

// never are the trees a confined catalog reads under no prefix: their
// files describe and reach into processes and devices (/proc/self/root is
// the whole file system again, /proc/PID/cwd another process's directory).
var never = []string{"/proc", "/sys", "/dev"}

// Confine makes c a server's catalog: a query opens files by path only
// under the allow prefixes (directories; symbolic links resolved, both in
// the prefixes and in each file opened), never under /proc, /sys or /dev,
// and a refused path's error does not say whether it exists. RegisterDir
// then skips entries whose links lead out of their directory and the
// allowed prefixes, telling warn. Call it before RegisterDir. Session
// catalogs of c follow c's policy.
func (c *Catalog) Confine(allow []string, warn func(msg string)) error {
	a := &access{warn: warn}
	for _, p := range allow {
		abs, err := filepath.Abs(p)
		if err != nil {
			return errs.Wrap(errs.IO, err, "allowed path %s", p)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return errs.Wrap(errs.IO, err, "allowed path %s", p)
		}
		// An ancestor of them ("/") is allowed: allows excludes them.
		for _, n := range never {
			if under(abs, n) || under(real, n) {
				return errs.New(errs.Binding, "allowed path %s: nothing under /proc, /sys or /dev can be allowed", p)
			}
		}
		a.given = append(a.given, abs)
		a.resolved = append(a.resolved, real)
	}
	c.mu.Lock()
	c.access = a
	c.mu.Unlock()
	return nil
}

// policy is the access policy c's queries follow: a session's is its
// shared catalog's. nil is open.
func (c *Catalog) policy() *access {
	if c.shared != nil {
		return c.shared.policy()
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.access
}

// Confined reports whether c's queries may open only allowed paths.
func (c *Catalog) confined() bool { return c.policy() != nil }

// refused is the error for a path a confined catalog does not open. It
// names the path as the query wrote it and nothing the file system said.
func refused(name string) error {
	return errs.NewNear(errs.Binding, name, "file access outside the allowed paths is not permitted under gq serve: %s", name)
}

// errOutside is resolve's refusal, turned into refused(name as written)
// by its callers.
var errOutside = errors.New("outside the allowed paths")

// under reports whether path (absolute, clean) is prefix or inside it.
func under(path, prefix string) bool {
	return path == prefix || prefix == "/" || strings.HasPrefix(path, prefix+"/")
}

// allows reports whether a confined catalog may open path (absolute,
// clean), judging the path's text alone.
func (a *access) allows(path string) bool {
	for _, n := range never {
		if under(path, n) {
			return false
		}
	}
	for i := range a.given {
		if under(path, a.given[i]) || under(path, a.resolved[i]) {
			return true
		}
	}
	return false
}

// mayLook reports whether resolve may stat path: an allowed path, or a
// directory on the way down to an allowed prefix.
func (a *access) mayLook(path string) bool {
	if a.allows(path) {
		return true
	}
	for _, n := range never {
		if under(path, n) {
			return false
		}
	}
	for i := range a.given {
		if under(a.given[i], path) || under(a.resolved[i], path) {
			return true
		}
	}
	return false
}

// with is a adding dir (and its resolved form) to the allowed prefixes:
// the policy for the entries of a --data directory.
func (a *access) with(dir, real string) *access {
	b := *a
	b.given = append(append([]string(nil), a.given...), dir)
	b.resolved = append(append([]string(nil), a.resolved...), real)
	return &b
}

// maxLinks bounds the symbolic links one resolve follows (a loop of links
// would otherwise never end); Linux gives up after 40.
const maxLinks = 40

// resolve evaluates the symbolic links of path (absolute, clean) as
// filepath.EvalSymlinks does, but looks only where a allows: each link's
// target is judged by its text before it is looked at, and a path leading
// out of the allowed prefixes is errOutside. It returns the resolved path
// and its Lstat (not a link).
func (a *access) resolve(path string) (string, fs.FileInfo, error) {
	dest, rest := "/", strings.TrimPrefix(path, "/")
	var fi fs.FileInfo
	for links := 0; rest != ""; {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case "", ".":
			continue
		case "..":
			dest = filepath.Dir(dest)
			fi = nil
			continue
		}
		next := filepath.Join(dest, comp)
		if !a.mayLook(next) {
			return "", nil, errOutside
		}
		st, err := os.Lstat(next)
		if err != nil {
			return "", nil, err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			dest, fi = next, st
			continue
		}
		if links++; links > maxLinks {
			return "", nil, &fs.PathError{Op: "resolve", Path: path, Err: errors.New("too many levels of symbolic links")}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, err
		}
		if filepath.IsAbs(target) {
			dest = "/"
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = strings.TrimPrefix(target, "/")
	}
	if !a.allows(dest) {
		return "", nil, errOutside
	}
	if fi == nil { // path ended at "/" or in ".."
		st, err := os.Lstat(dest)
		if err != nil {
			return "", nil, err
		}
		fi = st
	}
	return dest, fi, nil
}

// stat is os.Stat under the policy: path absolute and clean when a is
// confined. It returns the path to open (resolved where confined) and the
// file's information.
func (a *access) stat(path string) (string, fs.FileInfo, error) {
	if a == nil {
		fi, err := os.Stat(path)
		return path, fi, err
	}
	return a.resolve(path)
}

// checkName is a confined catalog's first judgement of a path as a query
// wrote it, before anything is looked up: the absolute, clean path (of a
// glob, its part before the first wildcard) must lie under an allowed
// prefix. It returns the absolute, clean path.
func (a *access) checkName(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil || !a.allows(literalPrefix(abs)) {
		return "", refused(name)
	}
	return abs, nil
}
