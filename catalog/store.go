package catalog

import (
	"os"
	"path/filepath"

	"gq/errs"
)

// A store is a directory whose tables persist (gq --db DIR): it is
// attached as RegisterDir attaches --data, and the tables DDL creates in
// the catalog are written into it as Parquet, one directory per table
// (DIR/NAME/part-….parquet, one file per CREATE TABLE AS or INSERT), so
// the next process that opens DIR finds them. The files are the truth:
// the catalog follows them as it follows any attached directory.

// AttachStore makes dir (created if missing) c's store and attaches its
// tables; it returns how many there are.
func (c *Catalog) AttachStore(dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, errs.Wrap(errs.IO, err, "database directory %s", dir)
	}
	n, err := c.AttachDir(dir)
	if err != nil {
		return 0, err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return 0, errs.Wrap(errs.IO, err, "database directory %s", dir)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.dirs {
		if d.real == real {
			c.store = d
		}
	}
	return n, nil
}

// StoreDir is the directory where c's store keeps table name ("" when c
// has no store: its DDL makes tables in memory). A session's catalog has
// none: a server client's tables are its own.
func (c *Catalog) StoreDir(name string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.store == nil {
		return ""
	}
	return filepath.Join(c.store.dir, name)
}

// Stored reports whether table name is one of the store's (INSERT adds a
// file to it).
func (c *Catalog) Stored(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	f, ok := c.files[key(name)]
	return ok && c.store != nil && f.src == c.store
}

// StoreChanged makes c see table name's files in the store as they now
// are, after DDL wrote or removed them: a name dropped before may come
// back, and a table whose files changed is opened again.
func (c *Catalog) StoreChanged(name string) {
	c.mu.Lock()
	d := c.store
	if d == nil {
		c.mu.Unlock()
		return
	}
	k := key(name)
	delete(d.hidden, k)
	if f, ok := c.files[k]; ok && f.src == d {
		delete(c.files, k)
		delete(c.tables, k)
	}
	c.mu.Unlock()
	d.mu.Lock()
	d.seen = listing{} // list it again, whatever its stamp says
	d.mu.Unlock()
	c.relistDir(d)
}
