package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gq/catalog"
	"gq/engine"
	"gq/errs"
)

// A file corpus check asks, for every Parquet file written by some other
// tool, what a user asks first: does gq open it, which of its columns can
// it read, and are the values it reads DuckDB's? DuckDB is the reference:
// a file DuckDB cannot read either (apache/parquet-testing's bad_data) must
// still fail cleanly in gq, and never block the rest of a --data directory.

// CorpusFile is the verdict on one file.
type CorpusFile struct {
	File       string   // relative to the corpus root
	DuckErr    string   // DuckDB's error reading it, "" when it reads it
	OpenErr    string   // gq's error opening it, "" when it opens
	Blocks     bool     // a --data directory holding it loses its other tables
	Rows       string   // "gq=N duck=M" when the counts differ, else ""
	Cols       int      // columns DuckDB sees
	Readable   int      // of those, columns gq reads
	Agree      int      // readable columns whose values equal DuckDB's
	Mismatches []string // "col: why" for readable columns that differ
	Unreadable []string // "col (type)" gq lists as unreadable
	NoOracle   []string // readable columns DuckDB cannot read or the harness cannot print
	// Refused are "col: why" for readable columns whose values gq
	// refuses with a clean IO error where DuckDB reads them (a page above
	// arrow-go's size limit, a record that breaks the format's rules).
	Refused []string
}

// OK reports a file gq handles as well as DuckDB does for what it reads:
// it opens exactly when DuckDB reads it, does not block a directory, and
// every column it reads has DuckDB's values.
func (f CorpusFile) OK() bool {
	if f.Blocks || len(f.Mismatches) > 0 || f.Rows != "" {
		return false
	}
	return (f.DuckErr == "") == (f.OpenErr == "")
}

// CheckCorpus runs the checks on every *.parquet file under root. Each query
// gets perQuery to answer on either engine.
func CheckCorpus(ctx context.Context, root string, perQuery time.Duration) ([]CorpusFile, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return CheckFiles(ctx, root, files, perQuery)
}

// CheckFiles runs the checks on the given *.parquet and *.csv files, named
// in the table relative to root.
func CheckFiles(ctx context.Context, root string, files []string, perQuery time.Duration) ([]CorpusFile, error) {
	// DuckDB reads each file by path: open it over an empty folder, since
	// Open makes a view of every folder of Parquet files it is given, and
	// the corpus's bad_data cannot be one.
	empty, err := os.MkdirTemp("", "gq-corpus-duck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(empty)
	db, err := Open(empty, 1)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var out []CorpusFile
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		f := checkFile(ctx, db, p, rel, perQuery)
		// Name files relative to the corpus in the table.
		f.DuckErr = strings.ReplaceAll(f.DuckErr, root+"/", "")
		f.OpenErr = strings.ReplaceAll(f.OpenErr, root+"/", "")
		out = append(out, f)
	}
	return out, nil
}

func checkFile(ctx context.Context, db *sql.DB, path, rel string, perQuery time.Duration) CorpusFile {
	r := CorpusFile{File: rel}
	q := func(run func(context.Context) Rows) Rows {
		c, cancel := context.WithTimeout(ctx, perQuery)
		defer cancel()
		return run(c)
	}
	lit := "'" + strings.ReplaceAll(path, "'", "''") + "'"
	src := "read_parquet(" + lit + ")"
	if strings.HasSuffix(path, ".csv") {
		// Both engines sniff the dialect and the types. A quoted empty
		// field is an empty string in gq (as in PostgreSQL's COPY);
		// DuckDB is told to read it so rather than as NULL.
		src = "read_csv_auto(" + lit + ", allow_quoted_nulls = false)"
	}

	// DuckDB's view of the file: its columns and row count.
	desc := q(func(c context.Context) Rows { return runDuck(c, db, "DESCRIBE SELECT * FROM "+src) })
	var duckCols []string
	if desc.Err != nil {
		// Name the file relative to the corpus before cutting the line.
		r.DuckErr = oneLine(strings.ReplaceAll(desc.Err.Error(), strings.TrimSuffix(path, rel), ""))
	} else {
		for _, row := range desc.Cells {
			duckCols = append(duckCols, row[0])
		}
		r.Cols = len(duckCols)
	}

	r.Blocks = blocksDir(path)

	cat := catalog.New()
	cat.SetWarn(func(string) {})
	t, err := cat.OpenFile(ctx, "f", path)
	if err == nil {
		err = cat.Register(t, true)
	}
	if err != nil {
		r.OpenErr = oneLine(strings.ReplaceAll(err.Error(), path, rel))
		return r
	}
	unreadable := map[string]bool{}
	for _, u := range catalog.Unreadable(t) {
		unreadable[u.Name] = true
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s (%s)", u.Name, u.Type))
	}
	if r.DuckErr != "" {
		// gq opened what DuckDB cannot read: it must fail cleanly when
		// the rows are read, or agree with itself; nothing to compare.
		e := engine.New(cat, engine.Options{Threads: 1}.WithEnv(os.LookupEnv))
		got := q(func(c context.Context) Rows { return RunGQ(c, e, "select count(*) from f") })
		e.Close()
		if got.Err != nil {
			r.OpenErr = "rows: " + oneLine(strings.ReplaceAll(got.Err.Error(), path, rel))
		}
		return r
	}
	e := engine.New(cat, engine.Options{Threads: 1}.WithEnv(os.LookupEnv))
	defer e.Close()
	gn := q(func(c context.Context) Rows { return RunGQ(c, e, "select count(*) from f") })
	dn := q(func(c context.Context) Rows { return runDuck(c, db, "SELECT count(*) FROM "+src) })
	switch {
	case gn.Err != nil && errs.KindOf(gn.Err) == errs.IO && strings.HasPrefix(rel, "bad_data/"):
		// A file that breaks the format's rules, read cleanly up to its
		// corrupt page (DuckDB may count its rows from the footer alone).
		r.OpenErr = "rows: " + oneLine(strings.ReplaceAll(gn.Err.Error(), path, rel))
		return r
	case gn.Err != nil:
		// Relative to the corpus before cutting, so the words that
		// follow the path survive however deep the checkout is.
		r.Rows = "gq: " + oneLine(strings.ReplaceAll(gn.Err.Error(), path, rel))
	case dn.Err == nil && fmt.Sprint(gn.Cells) != fmt.Sprint(dn.Cells):
		r.Rows = fmt.Sprintf("gq=%v duck=%v", gn.Cells, dn.Cells)
	}
	for _, col := range duckCols {
		if unreadable[col] {
			continue
		}
		r.Readable++
		g := q(func(c context.Context) Rows {
			return RunGQ(c, e, "select `"+strings.ReplaceAll(col, "`", "``")+"` from f")
		})
		d := q(func(c context.Context) Rows {
			return runDuck(c, db, `SELECT "`+strings.ReplaceAll(col, `"`, `""`)+`" FROM `+src)
		})
		if d.Err != nil && g.Err == nil {
			// DuckDB cannot read or print what gq reads (a
			// BYTE_STREAM_SPLIT integer column, a value type the
			// harness does not format): nothing to compare with.
			r.NoOracle = append(r.NoOracle, col)
			continue
		}
		if g.Err != nil && (d.Err == nil || timedOut(d.Err)) && errs.KindOf(g.Err) == errs.IO {
			r.Refused = append(r.Refused, col+": "+oneLine(strings.ReplaceAll(g.Err.Error(), path, rel)))
			continue
		}
		if v, why := Compare(g, d); v == Agree {
			r.Agree++
		} else {
			r.Mismatches = append(r.Mismatches, col+": "+oneLine(why))
		}
	}
	return r
}

// blocksDir puts the file beside a good table in a fresh directory and
// reports whether registering the directory fails or loses the good table.
func blocksDir(path string) bool {
	dir, err := os.MkdirTemp("", "gq-corpus-")
	if err != nil {
		return true
	}
	defer os.RemoveAll(dir)
	if os.Symlink(path, filepath.Join(dir, "file"+filepath.Ext(path))) != nil ||
		os.WriteFile(filepath.Join(dir, "good.csv"), []byte("a\n1\n"), 0o644) != nil {
		return true
	}
	cat := catalog.New()
	cat.SetWarn(func(string) {})
	if err := cat.RegisterDir(dir); err != nil {
		return true
	}
	_, ok := cat.Table("good")
	return !ok
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// CorpusMarkdown is the table of a corpus run, with its totals first.
func CorpusMarkdown(files []CorpusFile) string {
	var b strings.Builder
	var ok, opened, duckOK, blocks, cols, readable, agree, refused, differ, noOracle int
	for _, f := range files {
		if f.OK() {
			ok++
		}
		if f.OpenErr == "" {
			opened++
		}
		if f.DuckErr == "" {
			duckOK++
		}
		if f.Blocks {
			blocks++
		}
		cols += f.Cols
		readable += f.Readable
		agree += f.Agree
		refused += len(f.Refused)
		differ += len(f.Mismatches)
		noOracle += len(f.NoOracle)
	}
	fmt.Fprintf(&b, "%d files: DuckDB reads %d, gq opens %d; %d block a --data directory; %d as DuckDB for all gq reads.\n", len(files), duckOK, opened, blocks, ok)
	fmt.Fprintf(&b, "Columns of the files DuckDB reads: %d; gq reads %d; values equal DuckDB's: %d; refused by gq with an IO error: %d; differ: %d; no DuckDB value to compare: %d.\n\n",
		cols, readable, agree, refused, differ, noOracle)
	b.WriteString("| file | DuckDB | gq opens | blocks --data | columns read / all | = DuckDB | not read yet / differs |\n|---|---|---|---|---|---|---|\n")
	for _, f := range files {
		duck := "reads"
		if f.DuckErr != "" {
			duck = "error: " + f.DuckErr
		}
		open := "yes"
		if f.OpenErr != "" {
			open = "no: " + f.OpenErr
		}
		notes := append(unreadableKinds(f.Unreadable), f.Mismatches...)
		if f.Rows != "" {
			notes = append(notes, "row count: "+f.Rows)
		}
		for _, c := range f.Refused {
			notes = append(notes, "refused by gq (IO error): "+c)
		}
		for _, c := range f.NoOracle {
			notes = append(notes, c+": read by gq, not by DuckDB (or not printable by the harness)")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %v | %d / %d | %d | %s |\n", f.File, esc(duck), esc(open), f.Blocks, f.Readable, f.Cols, f.Agree, esc(strings.Join(notes, "; ")))
	}
	return b.String()
}

// unreadableKinds condenses "col (type)" entries to "not read: N type, …"
// by the type's kind (timestamp, list, map …).
func unreadableKinds(cols []string) []string {
	if len(cols) == 0 {
		return nil
	}
	n := map[string]int{}
	var kinds []string
	for _, c := range cols {
		t := c[strings.LastIndex(c, " (")+2:]
		if i := strings.IndexAny(t, "[<(,)"); i >= 0 {
			t = t[:i]
		}
		if n[t] == 0 {
			kinds = append(kinds, t)
		}
		n[t]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	return []string{"not read yet: " + strings.Join(parts, ", ")}
}

func esc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
