package exec

import (
	"sync"

	gqmem "gq/memory"
)

// Per-operator memory accounting for EXPLAIN ANALYZE. An Analyzed node
// opens its operator under a Context of its own (Context.forOperator)
// whose allocator and statistics are the operator's, each over the
// query's: the Arrow buffers the operator allocates count in its
// allocator as well as the query's, and the spills of its spillable state
// (SpillableBatches, sorted runs, shuffle chunk stores, all created with
// the Context's Stats) record their events in its statistics as well as
// the query's. No operator needs to know: they already allocate from
// c.Alloc and spill into c.Stats. The cost is the atomic adds of one more
// counting allocator per buffer allocation, and nothing for plans that
// are not instrumented.

// opMem is one operator's accounting.
type opMem struct {
	once  sync.Once
	alloc *gqmem.Allocator  // buffers the operator allocated (its peak is the operator's)
	stats *gqmem.Statistics // the operator's events (spill-bytes-host-to-disk, …)
}

// context is c for running the operator: its allocator and statistics
// count into m, then into the query's (never into the operator above's,
// whose Context c may be).
func (m *opMem) context(c *Context) *Context {
	m.once.Do(func() {
		qa, qs := c.queryAlloc, c.queryStats
		if qa == nil { // a Context not made by NewContext (tests)
			qa, qs = c.Alloc, c.Stats
		}
		if qa, ok := qa.(*gqmem.Allocator); ok {
			m.alloc = gqmem.NewChildAllocator(qa)
		} else {
			m.alloc = gqmem.NewAllocator(qa, nil)
		}
		m.stats = gqmem.NewChildStatistics(qs)
	})
	return c.forOperator(m.alloc, m.stats)
}

// peak is the most bytes of Arrow buffers the operator had allocated and
// not yet freed at once: its state (hash table keys and payloads, join
// build sides, sort buffers, batches read back from spill files) and its
// output batches until the operators above release them. Memory an
// operator keeps in Go slices outside the Arrow allocator is not seen.
func (m *opMem) peak() int64 {
	if m.alloc == nil {
		return 0
	}
	return m.alloc.Peak()
}

// spilled is the bytes the operator's spillable state wrote from host
// memory to disk (its share of the query's spill-bytes-host-to-disk).
func (m *opMem) spilled() int64 {
	if m.stats == nil {
		return 0
	}
	st, _ := m.stats.GetStat(gqmem.StatSpillBytesHostToDisk)
	return int64(st.Value)
}
