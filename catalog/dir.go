package catalog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gq/errs"
)

// OpenFile opens a Parquet or CSV file, or a glob of them (one table), as
// a table named name — what a backtick-quoted path in FROM resolves to.
// Format follows the extension: .parquet, .csv, .tsv (tab-delimited).
func OpenFile(name, pathOrGlob string) (Table, error) {
	var paths []string
	if st, err := os.Stat(pathOrGlob); err == nil && st.IsDir() {
		paths, _ = filepath.Glob(filepath.Join(pathOrGlob, "*.parquet"))
	} else if err == nil {
		paths = []string{pathOrGlob} // an existing file, even if its name has glob characters
	} else if strings.ContainsAny(pathOrGlob, "*?[") {
		m, err := filepath.Glob(pathOrGlob)
		if err != nil {
			return nil, errs.Wrap(errs.IO, err, "bad file pattern %s", pathOrGlob)
		}
		paths = m
	} else if os.IsNotExist(err) {
		return nil, errs.New(errs.IO, "file %s does not exist", pathOrGlob)
	} else {
		return nil, errs.Wrap(errs.IO, err, "%s", pathOrGlob)
	}
	if len(paths) == 0 {
		return nil, errs.New(errs.IO, "no files match %s", pathOrGlob)
	}
	sort.Strings(paths)
	return openPaths(name, paths)
}

// openPaths opens files (sorted, at least one) of one format as a table.
func openPaths(name string, paths []string) (Table, error) {
	format := fileFormat(paths[0])
	for _, p := range paths {
		if f := fileFormat(p); f != format || f == "" {
			if f == "" {
				return nil, errs.New(errs.IO, "%s: unknown file format (expected .parquet, .csv or .tsv)", p)
			}
			return nil, errs.New(errs.IO, "%s and %s are of different formats", paths[0], p)
		}
	}
	switch format {
	case "parquet":
		return openParquet(name, paths)
	case "tsv":
		return openCSV(name, paths, '\t')
	default:
		return openCSV(name, paths, ',')
	}
}

func fileFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet":
		return "parquet"
	case ".csv":
		return "csv"
	case ".tsv":
		return "tsv"
	}
	return ""
}

// RegisterDir registers every DIR/NAME.parquet, DIR/NAME/*.parquet (one
// table over many files, in name order), DIR/NAME.csv and DIR/NAME.tsv as
// table NAME (lower-cased). Other entries are ignored.
func (c *Catalog) RegisterDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return errs.New(errs.IO, "data directory %s does not exist", dir)
	}
	if err != nil {
		return errs.Wrap(errs.IO, err, "data directory %s", dir)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		var name string
		var paths []string
		if e.IsDir() {
			// Listed, not globbed: the directory name may contain glob characters.
			sub, err := os.ReadDir(path)
			if err != nil {
				return errs.Wrap(errs.IO, err, "%s", path)
			}
			for _, f := range sub {
				if !f.IsDir() && fileFormat(f.Name()) == "parquet" {
					paths = append(paths, filepath.Join(path, f.Name()))
				}
			}
			if len(paths) == 0 {
				continue
			}
			name = e.Name()
			sort.Strings(paths)
		} else if fileFormat(e.Name()) != "" {
			name, paths = strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), []string{path}
		} else {
			continue
		}
		t, err := openPaths(strings.ToLower(name), paths)
		if err != nil {
			return err
		}
		if err := c.Register(t, false); err != nil {
			return err
		}
	}
	return nil
}
