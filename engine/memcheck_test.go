package engine

import (
	"testing"
)

// checkNoHeldMemory fails t if queries of e still hold host memory: every
// batch a query allocated must be freed once the query has failed, been
// cancelled, or had its result released. where names the point checked.
func checkNoHeldMemory(t *testing.T, e *Engine, where string) {
	t.Helper()
	if n := e.HeldBytes(); n != 0 {
		t.Errorf("%s: %d bytes of query memory still held by the statements before (a batch was not released)", where, n)
		// Report each leak once: the next check starts from here.
		e.mem.alloc.Reset()
	}
	if n := e.mem.br.SpillFiles().Live(); n != 0 {
		t.Errorf("%s: %d spill files left by the statements before", where, n)
	}
}
