package catalog

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gq/errs"
)

// globLimits bound one expansion of a path a query names. filepath.Glob
// has none: a pattern of ten "*" levels from "/" walks every directory of
// the machine (and /proc's views of every process), holding every match,
// and does not see the query's cancellation.
type globLimits struct {
	files   int // files matched
	dirs    int // directories listed
	entries int // directory entries read, over all directories
	depth   int // path components below the pattern's literal directory
}

var maxGlob = globLimits{files: 10000, dirs: 10000, entries: 1000000, depth: 32}

// globber expands one path: a file, a directory (its *.parquet files) or
// a glob, under a policy (nil: open) and limits, checking ctx between
// directory reads.
type globber struct {
	ctx  context.Context
	a    *access
	name string // as the query wrote it, for errors
	lim  globLimits

	dirs, entries int
	out           []string
}

// hasMeta reports whether a path component is a pattern for filepath.Match.
func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

// splitGlob splits a pattern into its literal directory (the components
// before the first one with a wildcard) and the components from there on.
func splitGlob(pattern string) (base string, rest []string) {
	comps := strings.Split(pattern, "/")
	i := 0
	for i < len(comps) && !hasMeta(comps[i]) {
		i++
	}
	base = strings.Join(comps[:i], "/")
	if base == "" {
		base = "."
		if strings.HasPrefix(pattern, "/") {
			base = "/"
		}
	}
	for _, c := range comps[i:] {
		if c != "" {
			rest = append(rest, c)
		}
	}
	return base, rest
}

// literalPrefix is pattern up to its first component with a wildcard; a
// path without one is itself.
func literalPrefix(pattern string) string {
	base, _ := splitGlob(pattern)
	return base
}

// expandFiles lists the files name stands for: itself when it is a file
// (even if it has glob characters), a directory's *.parquet files, or the
// matches of a glob, sorted. Under a confined policy name is judged before
// anything is looked up, links are followed only within the allowed
// prefixes, and the paths returned are resolved.
func expandFiles(ctx context.Context, a *access, name string, lim globLimits) ([]string, error) {
	path := name
	if a != nil {
		abs, err := a.checkName(name)
		if err != nil {
			return nil, err
		}
		path = abs
	}
	g := &globber{ctx: ctx, a: a, name: name, lim: lim}
	real, fi, err := a.stat(path)
	switch {
	case err == nil && fi.IsDir():
		if err := g.walk(real, []string{"*.parquet"}); err != nil {
			return nil, err
		}
	case err == nil:
		if a != nil && !fi.Mode().IsRegular() {
			return nil, errs.New(errs.IO, "%s is not a regular file", name)
		}
		return []string{real}, nil
	case errors.Is(err, errOutside):
		return nil, refused(name)
	case hasMeta(path):
		if err := g.glob(path); err != nil {
			return nil, err
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, errs.New(errs.IO, "file %s does not exist", name)
	default:
		return nil, errs.Wrap(errs.IO, err, "%s", name)
	}
	if len(g.out) == 0 {
		return nil, errs.New(errs.IO, "no files match %s", name)
	}
	sort.Strings(g.out)
	return g.out, nil
}

// glob walks pattern's matches from its literal directory.
func (g *globber) glob(pattern string) error {
	base, rest := splitGlob(pattern)
	for _, c := range rest {
		if _, err := filepath.Match(c, ""); err != nil {
			return errs.Wrap(errs.Binding, err, "bad file pattern %s", g.name)
		}
	}
	if len(rest) > g.lim.depth {
		return errs.New(errs.ResourcesExhausted, "the pattern %s has more than %d levels below %s", g.name, g.lim.depth, base)
	}
	real, fi, err := g.a.stat(base)
	if errors.Is(err, errOutside) {
		return refused(g.name)
	}
	if err != nil || !fi.IsDir() {
		return nil // no matches
	}
	return g.walk(real, rest)
}

// walk matches comps below dir (a directory, resolved where confined).
func (g *globber) walk(dir string, comps []string) error {
	if err := g.ctx.Err(); err != nil {
		return g.cancelled()
	}
	comp, rest := comps[0], comps[1:]
	if !hasMeta(comp) {
		return g.visit(filepath.Join(dir, comp), nil, rest)
	}
	if g.dirs++; g.dirs > g.lim.dirs {
		return errs.New(errs.ResourcesExhausted, "the pattern %s lists more than %d directories", g.name, g.lim.dirs)
	}
	matched, err := g.list(dir, comp)
	if err != nil {
		return err
	}
	for _, e := range matched {
		if err := g.visit(filepath.Join(dir, e.Name()), e, rest); err != nil {
			return err
		}
	}
	return nil
}

// list reads dir a chunk at a time, keeping the entries that match pat.
// A directory that cannot be read has no matches, as for filepath.Glob.
func (g *globber) list(dir, pat string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	var out []fs.DirEntry
	for {
		ents, err := f.ReadDir(256)
		if g.entries += len(ents); g.entries > g.lim.entries {
			return nil, errs.New(errs.ResourcesExhausted, "the pattern %s reads more than %d directory entries", g.name, g.lim.entries)
		}
		for _, e := range ents {
			if ok, _ := filepath.Match(pat, e.Name()); ok {
				out = append(out, e)
			}
		}
		if err != nil || len(ents) == 0 {
			break
		}
		if g.ctx.Err() != nil {
			return nil, g.cancelled()
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// visit takes path, a match of one component (e its directory entry; nil
// for a literal component), as a file when rest is empty or else as a
// directory to walk on. Only regular files match: a named pipe would block
// the reader, a device never end. Under a confined policy only paths
// within it match: a link among the matches that leads out is passed
// over, not followed, so a broad allowed prefix (one whose tree has links
// into /proc or /dev) still globs.
func (g *globber) visit(path string, e fs.DirEntry, rest []string) error {
	real := path
	var isDir, regular bool
	if e != nil && e.Type()&fs.ModeSymlink == 0 {
		// Within a resolved directory, an entry that is not a link is
		// what its path says, and its type needs no stat. Its text is
		// judged all the same: with "/" allowed, /proc is one of its
		// entries, and is not there for a confined catalog.
		if g.a != nil && !g.a.allows(path) {
			return nil
		}
		isDir, regular = e.IsDir(), e.Type().IsRegular()
	} else {
		r, fi, err := g.a.stat(path)
		if err != nil {
			// A link out of the allowed paths (judged before it was
			// followed), a dangling link or a vanished entry: no match,
			// as RegisterDir skips such links.
			return nil
		}
		real, isDir, regular = r, fi.IsDir(), fi.Mode().IsRegular()
	}
	if len(rest) == 0 {
		if regular {
			if g.out = append(g.out, real); len(g.out) > g.lim.files {
				return errs.New(errs.ResourcesExhausted, "the pattern %s matches more than %d files", g.name, g.lim.files)
			}
		}
		return nil
	}
	if isDir {
		return g.walk(real, rest)
	}
	return nil
}

func (g *globber) cancelled() error {
	return errs.Wrap(errs.Cancelled, context.Cause(g.ctx), "query cancelled while listing the files of %s", g.name)
}
