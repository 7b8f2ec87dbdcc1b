package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gq/errs"
)

// OpenFile opens a Parquet or CSV file, a directory's Parquet files, or a
// glob of them (one table), as a table named name, reading any path the
// process can: for tools and tests. A query's backtick path goes through
// Catalog.OpenFile, under its catalog's policy and its context.
// Format follows the extension: .parquet, .csv, .tsv (tab-delimited).
func OpenFile(name, pathOrGlob string) (Table, error) {
	return openFile(context.Background(), nil, name, pathOrGlob)
}

// OpenFile opens pathOrGlob as OpenFile does, under c's file-access policy
// (Confine): what a backtick-quoted path in FROM resolves to. Expanding a
// glob stops with ctx's error when ctx is done, and at bounds on the files
// and directories it visits.
func (c *Catalog) OpenFile(ctx context.Context, name, pathOrGlob string) (Table, error) {
	return openFile(ctx, c.policy(), name, pathOrGlob)
}

func openFile(ctx context.Context, a *access, name, pathOrGlob string) (Table, error) {
	paths, err := expandFiles(ctx, a, pathOrGlob, maxGlob)
	if err != nil {
		return nil, err
	}
	return openPaths(name, paths)
}

// openPaths opens files (sorted, at least one) of one format as a table.
func openPaths(name string, paths []string) (Table, error) {
	format := fileFormat(paths[0])
	for _, p := range paths {
		if f := fileFormat(p); f != format || f == "" {
			if f == "" {
				return nil, errs.New(errs.IO, "%s: unknown file format (expected .parquet, .csv or .tsv, the last two also .gz or .zst)", p)
			}
			return nil, errs.New(errs.IO, "%s and %s are of different formats", paths[0], p)
		}
	}
	switch format {
	case "parquet":
		return openParquet(name, paths)
	default:
		return openCSV(name, paths, csvOptions{})
	}
}

// fileFormat is the format path's name gives: "parquet", "csv" or "tsv"
// (also for a compressed .csv.gz, .csv.zst, .tsv.gz, .tsv.zst), or "".
func fileFormat(path string) string {
	base, _ := splitCodec(path)
	switch strings.ToLower(filepath.Ext(base)) {
	case ".parquet":
		if base == path {
			return "parquet"
		}
	case ".csv":
		return "csv"
	case ".tsv":
		return "tsv"
	}
	return ""
}

// splitCodec splits a compression suffix (.gz, .zst) off path: codec is
// "gzip", "zstd" or "".
func splitCodec(path string) (base, codec string) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz":
		return path[:len(path)-3], "gzip"
	case ".zst":
		return path[:len(path)-4], "zstd"
	}
	return path, ""
}

// tableName is the table a directory entry holds: its name less its
// format and compression suffixes.
func tableName(entry string) string {
	base, _ := splitCodec(entry)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// RegisterDir registers every DIR/NAME.parquet, DIR/NAME/*.parquet (one
// table over many files, in name order), DIR/NAME.csv and DIR/NAME.tsv
// (each also compressed: .gz, .zst) as table NAME (lower-cased); other
// entries are ignored. The tables follow their files from then on
// (fresh.go). Registering a directory again replaces its tables. An entry
// that cannot be opened (corrupt, unreadable, not what its name says) is
// skipped with a warning naming it and the reason, and tried again when it
// changes; so is a second entry for a name already taken (a.csv after
// a.csv.gz). Under a confined policy, entries that are links leading out
// of DIR and the allowed prefixes are skipped with a warning.
func (c *Catalog) RegisterDir(dir string) error {
	_, err := c.AttachDir(dir)
	return err
}

// AttachDir is RegisterDir, returning the number of tables dir holds.
func (c *Catalog) AttachDir(dir string) (int, error) {
	d, err := newDirSource(dir, c.policy())
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return 0, errs.Wrap(errs.IO, err, "data directory %s", dir)
	}
	listedAt := time.Now()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, errs.Wrap(errs.IO, err, "data directory %s", dir)
	}
	d.seen.set(fi, listedAt)
	d.warn = c.warner()
	type opened struct {
		f *fileSource
		t Table
	}
	var tabs []opened
	names := map[string]bool{}
	for _, e := range entries {
		f, ok := d.locate(e.Name())
		if !ok {
			continue
		}
		if names[f.name] {
			d.warnf(filepath.Join(dir, e.Name()), "skipping %s: table %s comes from an entry before it", filepath.Join(dir, e.Name()), f.name)
			continue
		}
		t, err := f.open()
		if err != nil {
			// One bad file (a corrupt footer, a permission error, a
			// CSV that does not parse) must not keep the REPL or a
			// server from starting with the directory's other tables.
			d.skipBad(f, err, false)
			continue
		}
		names[f.name] = true
		tabs = append(tabs, opened{f, t})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Tables of this directory attached before are replaced; any other
	// object of a name it holds is a conflict, found before anything
	// changes.
	for _, o := range tabs {
		k := key(o.f.name)
		if err := c.sharedName(o.f.name); err != nil {
			return 0, err
		}
		if f, ok := c.files[k]; ok && f.src.real == d.real {
			continue
		}
		if _, ok := c.tables[k]; ok {
			return 0, errs.NewNear(errs.Binding, o.f.name, "table %s already exists", o.f.name)
		}
		if _, ok := c.views[k]; ok {
			return 0, errs.NewNear(errs.Binding, o.f.name, "a view named %s already exists", o.f.name)
		}
	}
	kept := c.dirs[:0]
	for _, old := range c.dirs {
		if old.real != d.real {
			kept = append(kept, old)
		}
	}
	c.dirs = append(kept, d)
	for k, f := range c.files {
		if f.src.real == d.real {
			delete(c.files, k)
			delete(c.tables, k)
		}
	}
	for _, o := range tabs {
		k := key(o.f.name)
		c.tables[k] = o.t
		c.files[k] = o.f
	}
	return len(tabs), nil
}
