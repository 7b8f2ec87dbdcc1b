package catalog

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// Table is a named, readable relation.
type Table interface {
	Name() string
	// Schema lists the columns in gq's value types.
	Schema() *arrow.Schema
	// Stats are estimates for planning.
	Stats() Stats
	// NumSplits is the number of independently readable pieces.
	NumSplits() int
	// Read reads split number split (0 <= split < NumSplits), only the given
	// columns (indexes into Schema, in the order wanted), and calls emit with
	// batches of at most batchSize rows whose schema is those columns. emit
	// takes ownership of each batch. Read returns ctx's error when cancelled.
	Read(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error
}

// Stats are a table's planning estimates.
type Stats struct {
	RowCount int64 // -1 when unknown
	// Distinct estimates the number of distinct values of each column
	// (index as in Schema); nil or -1 entries when unknown.
	Distinct []int64
}

// View is a stored query.
type View struct {
	Name    string
	Columns []string // optional column names, as in CREATE VIEW v (a, b) AS …
	SQL     string   // the SELECT text
}

// Catalog maps names (case-insensitive) to tables and views. It is safe for
// concurrent use.
type Catalog struct {
	mu     sync.RWMutex
	tables map[string]Table
	views  map[string]*View
	// shared, for a session's catalog (Session), is the catalog beneath
	// it: read through, never written (session.go).
	shared *Catalog
	// access is the file-access policy (access.go); nil reads any path.
	access *access
	// dirs are the directories attached by RegisterDir, files the origin
	// of each of their tables: such tables follow their files (fresh.go).
	dirs  []*dirSource
	files map[string]*fileSource
	// store is the attached directory DDL writes its tables into
	// (store.go); nil: they live in memory.
	store *dirSource
	// warn hears of what c skips (SetWarn).
	warn func(string)
}

// SetWarn sends c's warnings — the entries of a RegisterDir directory it
// skips, and why — to warn. Without it they go to the policy's warn
// (Confine), else to standard error: a skipped table must not pass
// unnoticed.
func (c *Catalog) SetWarn(warn func(msg string)) {
	c.mu.Lock()
	c.warn = warn
	c.mu.Unlock()
}

func (c *Catalog) warner() func(string) {
	c.mu.RLock()
	w := c.warn
	c.mu.RUnlock()
	if w != nil {
		return w
	}
	if a := c.policy(); a != nil && a.warn != nil {
		return a.warn
	}
	return func(msg string) { fmt.Fprintln(os.Stderr, "gq: warning:", msg) }
}

// New returns an empty catalog.
func New() *Catalog {
	return &Catalog{tables: map[string]Table{}, views: map[string]*View{}, files: map[string]*fileSource{}}
}

func key(name string) string { return strings.ToLower(name) }

// Register adds t under t.Name(), replacing a table of that name if replace.
func (c *Catalog) Register(t Table, replace bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(t.Name())
	if err := c.sharedName(t.Name()); err != nil {
		return err
	}
	if !replace {
		if _, ok := c.tables[k]; ok {
			return errs.NewNear(errs.Binding, t.Name(), "table %s already exists", t.Name())
		}
	}
	if _, ok := c.views[k]; ok {
		return errs.NewNear(errs.Binding, t.Name(), "a view named %s already exists", t.Name())
	}
	if old, ok := c.tables[k]; ok {
		dropped(old)
	}
	c.forget(k)
	c.tables[k] = t
	return nil
}

// DataBytes is the size on disk of the catalog's file tables (Parquet:
// their column chunks, compressed), the scale of the data its queries
// read (see memory.HeapBudgetFor).
func (c *Catalog) DataBytes() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var n int64
	for _, t := range c.tables {
		if f, ok := t.(interface{ fileBytes() int64 }); ok {
			n += f.fileBytes()
		}
	}
	return n
}

// CreateView stores v, replacing a view of that name if replace.
func (c *Catalog) CreateView(v *View, replace bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(v.Name)
	if err := c.sharedName(v.Name); err != nil {
		return err
	}
	if _, ok := c.tables[k]; ok {
		return errs.NewNear(errs.Binding, v.Name, "a table named %s already exists", v.Name)
	}
	if _, ok := c.views[k]; ok && !replace {
		return errs.NewNear(errs.Binding, v.Name, "view %s already exists", v.Name)
	}
	c.views[k] = v
	return nil
}

// Table returns the table called name. A table of a RegisterDir
// directory is checked against its files first, and an unknown name sends
// c to list its directories again (fresh.go).
func (c *Catalog) Table(name string) (Table, bool) {
	k := key(name)
	t, ok := c.lookup(k)
	if !ok && c.relist() {
		t, ok = c.lookup(k)
	}
	if !ok && c.shared != nil {
		return c.shared.Table(name)
	}
	return t, ok
}

// View returns the view called name.
func (c *Catalog) View(name string) (*View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.views[key(name)]
	if !ok && c.shared != nil {
		return c.shared.View(name)
	}
	return v, ok
}

// DropTable removes a table; ifExists makes a missing one not an error.
func (c *Catalog) DropTable(name string, ifExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key(name)]; !ok {
		if err := c.sharedName(name); err != nil {
			return err
		}
		if ifExists {
			return nil
		}
		return errs.NewNear(errs.Binding, name, "table %s does not exist", name)
	}
	dropped(c.tables[key(name)])
	c.forget(key(name))
	delete(c.tables, key(name))
	return nil
}

// DropView removes a view; ifExists makes a missing one not an error.
func (c *Catalog) DropView(name string, ifExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[key(name)]; !ok {
		if err := c.sharedName(name); err != nil {
			return err
		}
		if ifExists {
			return nil
		}
		return errs.NewNear(errs.Binding, name, "view %s does not exist", name)
	}
	delete(c.views, key(name))
	return nil
}

// Names returns the names of all tables and views, sorted, those of
// RegisterDir directories as their files now are.
func (c *Catalog) Names() []string {
	c.relist()
	c.mu.RLock()
	var files []string
	for k := range c.files {
		files = append(files, k)
	}
	c.mu.RUnlock()
	for _, k := range files {
		c.lookup(k)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	for _, t := range c.tables {
		out = append(out, t.Name())
	}
	for _, v := range c.views {
		out = append(out, v.Name)
	}
	if c.shared != nil {
		out = append(out, c.shared.Names()...)
	}
	sort.Strings(out)
	return out
}
