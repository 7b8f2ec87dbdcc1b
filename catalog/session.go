package catalog

import "gq/errs"

// Session returns a catalog for one client of a shared catalog (a server's
// session): it sees c's tables and views, and its own DDL creates, replaces
// and drops only objects of its own. c's objects are read-only through it
// — one client must not change what every other client sees — and their
// names are taken, so a session cannot shadow a shared table either.
func (c *Catalog) Session() *Catalog {
	s := New()
	s.shared = c
	return s
}

// sharedName is the error for DDL on name through a session when name is
// one of the shared catalog's objects; nil otherwise.
func (c *Catalog) sharedName(name string) error {
	if c.shared == nil {
		return nil
	}
	_, t := c.shared.Table(name)
	_, v := c.shared.View(name)
	if !t && !v {
		return nil
	}
	return errs.NewNear(errs.Binding, name, "%s belongs to the server's shared catalog, which this session cannot change (the server allows that with --allow-ddl)", name)
}

// Owned reports whether name is one of this catalog's own tables or views
// (for a session's catalog: created by the session, not shared).
func (c *Catalog) Owned(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, t := c.tables[key(name)]
	_, v := c.views[key(name)]
	return t || v
}

// Close drops the catalog's own tables and views (a session's, when it
// ends), giving back the memory its tables held.
func (c *Catalog) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, t := range c.tables {
		dropped(t)
		delete(c.tables, k)
	}
	clear(c.views)
}
