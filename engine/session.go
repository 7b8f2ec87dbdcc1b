package engine

import (
	"context"

	"gq/catalog"
)

type catalogKey struct{}

// WithCatalog makes the statements run under ctx name the tables and views
// of cat instead of the engine's catalog: a server gives each client
// session its own (catalog.Session), so one client's DDL is not another's.
func WithCatalog(ctx context.Context, cat *catalog.Catalog) context.Context {
	return context.WithValue(ctx, catalogKey{}, cat)
}

// catalog is the catalog a statement run under ctx names.
func (e *Engine) catalog(ctx context.Context) *catalog.Catalog {
	if c, ok := ctx.Value(catalogKey{}).(*catalog.Catalog); ok {
		return c
	}
	return e.cat
}
