package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// The tables of a RegisterDir directory follow their files. A table opened
// once and kept would answer from its first footer or row count: a CSV
// appended to after start-up gave its old row count with the new values,
// files added to the directory were never seen. So each lookup of such a
// table (Catalog.Table, which the planner, the engine and the Flight
// server's metadata all use) compares its files' stamps — size,
// modification time and type, one lstat each — with those taken when it
// was opened, and opens it again when they differ; the directory itself is
// listed again, when its own stamp changed, at the lookup of an unknown
// name and for Names, so that new tables appear and removed ones go. A
// query holds the table it looked up: a change during the query is seen
// by the next.

// racyWindow: a directory modified this close to the moment it was listed
// may change again within the file system's timestamp granularity and keep
// its stamp (git's "racily clean" entries); such a listing is not trusted
// and the directory is listed again at the next check.
const racyWindow = 2 * time.Second

// stamp is what a freshness check compares of one path.
type stamp struct {
	size, mtime int64
	mode        fs.FileMode // of the path itself; ModeSymlink | the target's type for a link
	link        int64       // a link's own modification time (retargeted links), 0 otherwise
}

// look stamps path: one lstat, and a stat as well for a link.
func look(path string) (stamp, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return stamp{}, err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}, nil
	}
	t, err := os.Stat(path)
	if err != nil {
		return stamp{}, err
	}
	return stamp{size: t.Size(), mtime: t.ModTime().UnixNano(), mode: t.Mode() | fs.ModeSymlink, link: fi.ModTime().UnixNano()}, nil
}

func (s stamp) isDir() bool   { return s.mode&fs.ModeDir != 0 }
func (s stamp) regular() bool { return s.mode&(fs.ModeType&^fs.ModeSymlink) == 0 }
func (s stamp) isLink() bool  { return s.mode&fs.ModeSymlink != 0 }
func (s stamp) racy(now time.Time) bool {
	return now.Sub(time.Unix(0, s.mtime)) < racyWindow
}

// listing is a directory's stamp when it was last listed.
type listing struct {
	st   stamp
	racy bool
	ok   bool
}

func (l *listing) set(fi fs.FileInfo, at time.Time) {
	l.st = stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	l.racy, l.ok = l.st.racy(at), true
}

// holds reports whether a listing taken at l still holds for fi.
func (l *listing) holds(fi fs.FileInfo) bool {
	return l.ok && !l.racy && l.st == stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}

// dirSource is a directory given to RegisterDir.
type dirSource struct {
	dir  string  // as given: the tables' paths are under it
	abs  string  // absolute and clean
	real string  // links resolved: the same directory attached twice is one
	a    *access // the policy for its entries, DIR allowed; nil: open

	mu   sync.Mutex // one listing at a time
	seen listing
	// hidden are tables dropped or replaced by DDL: listing again does
	// not bring them back (attaching the directory again does). Guarded
	// by the catalog's mu.
	hidden map[string]bool

	wmu    sync.Mutex
	warned map[string]bool
	warn   func(string) // the catalog's warner (Catalog.SetWarn)
	// bad are the entries that could not be opened, as they were then:
	// listed again only once they change (badChanged). Guarded by mu.
	bad map[string]*fileSource
}

func newDirSource(dir string, a *access) (*dirSource, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "data directory %s", dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.New(errs.IO, "data directory %s does not exist", dir)
	}
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "data directory %s", dir)
	}
	d := &dirSource{dir: dir, abs: abs, real: real, hidden: map[string]bool{}, warned: map[string]bool{}, bad: map[string]*fileSource{}}
	if a != nil {
		d.a = a.with(abs, real)
	}
	return d, nil
}

// warnf reports a skipped entry once (key: the entry and, for a bad
// one, its stamps, so that a changed file still bad is reported again).
func (d *dirSource) warnf(key, format string, args ...any) {
	if d.warn == nil {
		return
	}
	d.wmu.Lock()
	seen := d.warned[key]
	d.warned[key] = true
	d.wmu.Unlock()
	if !seen {
		d.warn(fmt.Sprintf(format, args...))
	}
}

// skipBad records entry f that could not be opened and warns of it. A
// later listing (quiet) does not warn of a file that changed so recently
// that it is likely still being written: it is tried again at the next
// listing (badChanged), and warned of then if still bad.
func (d *dirSource) skipBad(f *fileSource, err error, quiet bool) {
	d.bad[f.entry] = f
	now := time.Now()
	for _, st := range f.stamps {
		if quiet && st.racy(now) {
			return
		}
	}
	d.warnf(fmt.Sprint(f.paths, f.stamps), "skipping %s: %v", filepath.Join(d.dir, f.entry), err)
}

// badChanged reports whether an entry skipped as bad has changed (or
// changed so recently that its stamp cannot be trusted): the directory
// must be listed again to try it.
func (d *dirSource) badChanged() bool {
	for _, f := range d.bad {
		if stale(f) {
			return true
		}
	}
	return false
}

// stale reports whether f's stamps no longer hold or are too recent to
// be trusted.
func stale(f *fileSource) bool {
	if !f.unchanged() {
		return true
	}
	now := time.Now()
	for _, st := range f.stamps {
		if st.racy(now) {
			return true
		}
	}
	return false
}

// fileSource is where a table of a dirSource comes from: the entry
// DIR/ENTRY and the files it was opened from, with their stamps.
type fileSource struct {
	src   *dirSource
	entry string // the name in DIR
	name  string // the table's, lower-cased

	mu     sync.Mutex // one check at a time
	files  []string   // the files opened, in order
	paths  []string   // the paths watched: DIR/ENTRY, then files not the same
	stamps []stamp
	racy   bool     // a directory table listed within racyWindow of its change
	dir    string   // DIR/ENTRY for a directory table
	rel    []string // files' paths below dir, as named there
	hive   bool     // files lie in key=value folders below dir
}

// collect adds the Parquet files of a table directory (real is where it
// lies, shown how the user named it) to f, and those of its key=value
// folders, Hive's and Spark's partitioned layout, at any depth: the
// folders' keys become columns. Each folder is watched, so a partition
// added or removed is seen at the next lookup. False when a listing fails.
func (d *dirSource) collect(f *fileSource, real, shown string, depth int, budget *globLimits) bool {
	return d.collectUnder(f, real, shown, "", depth, budget)
}

// collectUnder is collect with rel, the folders below the table's
// directory as named there: the partition keys come from these only (a
// --data path, or a link's target, may hold a '=' of its own).
func (d *dirSource) collectUnder(f *fileSource, real, shown, rel string, depth int, budget *globLimits) bool {
	ents, err := os.ReadDir(real)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p, sp := filepath.Join(real, e.Name()), filepath.Join(shown, e.Name())
		if real == shown {
			p = sp
		}
		if e.Type()&fs.ModeSymlink != 0 && d.a != nil {
			r, ok := d.inside(sp, filepath.Join(real, e.Name()))
			if !ok {
				continue
			}
			p = r
		}
		k, _, isKey := strings.Cut(e.Name(), "=")
		if fileFormat(e.Name()) != "parquet" && !(isKey && k != "") {
			continue
		}
		fst, err := look(p)
		if err != nil {
			continue
		}
		switch {
		case fileFormat(e.Name()) == "parquet" && fst.regular():
			if budget.files--; budget.files < 0 {
				d.warnf(shown, "%s: more than %d files; the rest are left out", f.dir, maxGlob.files)
				return true
			}
			f.files = append(f.files, p)
			f.rel = append(f.rel, filepath.Join(rel, e.Name()))
			f.watch(p, fst)
			f.hive = f.hive || depth > 0
		case isKey && fst.isDir() && depth < maxGlob.depth:
			if budget.dirs--; budget.dirs < 0 {
				continue
			}
			f.watch(p, fst)
			if !d.collectUnder(f, p, sp, filepath.Join(rel, e.Name()), depth+1, budget) {
				return false
			}
		}
	}
	return true
}

// open opens f's files as its table, with partition columns from the
// key=value folders of a partitioned directory.
func (f *fileSource) open() (Table, error) {
	if !f.hive {
		return openPaths(f.name, f.files)
	}
	t, err := openParquet(f.name, f.files)
	if err != nil {
		return nil, err
	}
	if t.extra, err = hivePartitions(f.rel); err != nil {
		return nil, err
	}
	t.schema, err = withPartitions(t.schema, t.extra)
	return t, err
}

// unchanged reports whether f's stamps still hold: the cheap check made at
// every lookup.
func (f *fileSource) unchanged() bool {
	if f.racy {
		return false
	}
	for i, p := range f.paths {
		if st, err := look(p); err != nil || st != f.stamps[i] {
			return false
		}
	}
	return true
}

// sameFiles reports whether g found the same files with the same stamps.
func (f *fileSource) sameFiles(g *fileSource) bool {
	if len(f.paths) != len(g.paths) {
		return false
	}
	for i := range f.paths {
		if f.paths[i] != g.paths[i] || f.stamps[i] != g.stamps[i] {
			return false
		}
	}
	return true
}

// watch adds path, stamped st, to the paths f checks.
func (f *fileSource) watch(path string, st stamp) {
	f.paths = append(f.paths, path)
	f.stamps = append(f.stamps, st)
}

// locate finds the files of DIR's entry as a table — a Parquet, CSV or TSV
// file, or a directory of Parquet files — and stamps them before anything
// is read from them (a change while they are read shows at the next
// check). ok is false for an entry that is no table, has gone, or is a
// link the policy skips.
func (d *dirSource) locate(entry string) (*fileSource, bool) {
	path := filepath.Join(d.dir, entry)
	st, err := look(path)
	if err != nil {
		return nil, false
	}
	f := &fileSource{src: d, entry: entry}
	f.watch(path, st)
	target := path
	if st.isLink() && d.a != nil {
		real, ok := d.inside(path, filepath.Join(d.abs, entry))
		if !ok {
			return nil, false
		}
		target = real
	}
	if st.isDir() {
		f.name = strings.ToLower(entry)
		f.racy = st.racy(time.Now())
		f.dir = path
		budget := maxGlob
		if !d.collect(f, target, path, 0, &budget) {
			return nil, false
		}
		return f, len(f.files) > 0
	}
	if fileFormat(entry) == "" || !st.regular() {
		return nil, false
	}
	f.name = strings.ToLower(tableName(entry))
	f.files = []string{target}
	if target != path {
		tst, err := look(target)
		if err != nil {
			return nil, false
		}
		f.watch(target, tst)
	}
	return f, true
}

// inside resolves a link among d's entries (shown as written, abs its
// absolute form) under d's confined policy; a link out of DIR and the
// allowed prefixes is skipped with a warning naming it.
func (d *dirSource) inside(shown, abs string) (string, bool) {
	real, _, err := d.a.resolve(filepath.Clean(abs))
	if errors.Is(err, errOutside) {
		d.warnf(shown, "skipping %s: a link out of %s and the allowed paths", shown, d.dir)
		return "", false
	}
	if err != nil {
		return "", false
	}
	return real, true
}

// fresh is the table under key k, from f, t as last seen: the same while
// its files are unchanged, opened again when they changed, gone (ok false)
// when they have.
func (c *Catalog) fresh(k string, f *fileSource) (Table, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c.mu.RLock()
	t, ok := c.tables[k]
	cur := c.files[k]
	c.mu.RUnlock()
	if cur != f { // dropped, replaced or re-attached meanwhile
		return c.lookup(k)
	}
	if f.unchanged() || !ok {
		return t, ok
	}
	g, found := f.src.locate(f.entry)
	if !found {
		c.mu.Lock()
		if c.files[k] == f {
			delete(c.files, k)
			delete(c.tables, k)
		}
		c.mu.Unlock()
		return nil, false
	}
	if f.sameFiles(g) {
		f.racy = g.racy
		return t, ok
	}
	nt, err := g.open()
	if err != nil {
		// Being written, say: this query fails with the reason, and the
		// next one tries again (the stamps are left as they were).
		nt = &brokenTable{name: t.Name(), schema: t.Schema(), err: err}
	} else {
		f.files, f.rel, f.paths, f.stamps, f.racy, f.hive = g.files, g.rel, g.paths, g.stamps, g.racy, g.hive
	}
	c.mu.Lock()
	if c.files[k] == f {
		c.tables[k] = nt
	}
	c.mu.Unlock()
	return nt, true
}

// lookup is c's own table under k, made fresh.
func (c *Catalog) lookup(k string) (Table, bool) {
	c.mu.RLock()
	t, ok := c.tables[k]
	f := c.files[k]
	c.mu.RUnlock()
	if f != nil {
		return c.fresh(k, f)
	}
	return t, ok
}

// relist lists every attached directory whose stamp changed: tables whose
// entries have gone go, new entries become tables (unless their name is
// taken or was dropped). It reports whether a table was added.
func (c *Catalog) relist() bool {
	c.mu.RLock()
	dirs := append([]*dirSource(nil), c.dirs...)
	c.mu.RUnlock()
	added := false
	for _, d := range dirs {
		if c.relistDir(d) {
			added = true
		}
	}
	return added
}

func (c *Catalog) relistDir(d *dirSource) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, err := os.Stat(d.dir)
	if err == nil && d.seen.holds(fi) && !d.badChanged() {
		return false
	}
	at := time.Now()
	var entries []fs.DirEntry
	if err == nil {
		entries, err = os.ReadDir(d.dir)
	}
	if err == nil {
		d.seen.set(fi, at)
	} else {
		d.seen = listing{}
	}
	present := map[string]bool{}
	var fresh []string
	c.mu.RLock()
	for _, e := range entries {
		// Present: the names the entry may stand for (locate decides
		// which, after following a link); candidates: those not taken.
		name := e.Name()
		k := key(name)
		if fileFormat(name) != "" {
			present[k] = true
			if !e.IsDir() {
				k = key(tableName(name))
			}
		} else if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		present[k] = true
		_, t := c.tables[k]
		_, v := c.views[k]
		if !t && !v && !d.hidden[k] {
			fresh = append(fresh, name)
		}
	}
	c.mu.RUnlock()
	// Gone: the file tables of d whose entry is no longer listed.
	c.mu.Lock()
	for k, f := range c.files {
		if f.src == d && !present[k] {
			delete(c.files, k)
			delete(c.tables, k)
		}
	}
	c.mu.Unlock()
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.Name()] = true
	}
	for entry := range d.bad {
		if !listed[entry] {
			delete(d.bad, entry)
		}
	}
	added := false
	for _, entry := range fresh {
		if b := d.bad[entry]; b != nil && !stale(b) {
			continue
		}
		f, ok := d.locate(entry)
		if !ok {
			delete(d.bad, entry)
			continue
		}
		t, err := f.open()
		if err != nil {
			// Perhaps being written: tried again once it changes.
			d.skipBad(f, err, true)
			continue
		}
		delete(d.bad, entry)
		c.mu.Lock()
		k := key(f.name)
		_, taken := c.tables[k]
		_, view := c.views[k]
		if !taken && !view && !d.hidden[k] {
			c.tables[k], c.files[k] = t, f
			added = true
		}
		c.mu.Unlock()
	}
	return added
}

// forget is DDL taking name from its directory: a dropped or replaced file
// table stays away until its directory is attached again. Called with c.mu
// held.
func (c *Catalog) forget(k string) {
	if f, ok := c.files[k]; ok {
		delete(c.files, k)
		f.src.hidden[k] = true
	}
}

// brokenTable stands for a file table whose changed files could not be
// opened again: reading it fails with the reason.
type brokenTable struct {
	name   string
	schema *arrow.Schema
	err    error
}

func (t *brokenTable) Name() string          { return t.name }
func (t *brokenTable) Schema() *arrow.Schema { return t.schema }
func (t *brokenTable) Stats() Stats          { return Stats{RowCount: -1} }
func (t *brokenTable) NumSplits() int        { return 1 }
func (t *brokenTable) Read(context.Context, int, []int, int, memory.Allocator, func(arrow.RecordBatch) error) error {
	return t.err
}
