package exec

// Group prefetching for hash tables larger than the caches. A probe of such
// a table costs a memory round trip per row, and a probe loop, whose
// branches depend on the slot just loaded, keeps only one or two of those
// round trips in flight. Before probing a block of rows we load each row's
// home slot in a loop with no data-dependent branches, so the CPU overlaps
// the misses of the whole block; the probes then find their slots in cache.
// (The same idea as DuckDB's and Vectorwise's vectorised probing; Go has no
// prefetch instruction, so a plain load stands in for one.)

// prefetchRows is the block of rows touched ahead of the probes: enough
// misses to fill the core's miss buffers, few enough to stay in L1.
const prefetchRows = 32

// prefetchMinSlots: tables with fewer slots (1 MiB of int slots) stay in
// L2 and gain nothing from the extra pass.
const prefetchMinSlots = 1 << 16

// wantsPrefetch reports whether probing t is worth a touching pass.
func (t *keyTable) wantsPrefetch() bool { return int(t.mask)+1 >= prefetchMinSlots }

// touch loads the home slot of each hash and returns a value derived from
// the loads, which the caller must keep (batchKeys.sink) so that the
// compiler cannot drop them.
func (t *keyTable) touch(hashes []uint64) uint32 {
	var acc uint32
	m := t.mask
	switch {
	case t.pair:
		ps := t.pslots
		for _, h := range hashes {
			acc += uint32(ps[h&m].id)
		}
	case t.single:
		sl := t.slots
		for _, h := range hashes {
			acc += uint32(sl[h&m].id)
		}
	default:
		ids, hs := t.slotIDs, t.slotHash
		for _, h := range hashes {
			acc += uint32(ids[h&m]) + uint32(hs[h&m])
		}
	}
	return acc
}

// touch is keyTable.touch for a partitioned join table.
func (bt *joinTable) touch(hashes []uint64) uint32 {
	var acc uint32
	nparts := len(bt.tables)
	for _, h := range hashes {
		t := bt.tables[partitionOf(h, nparts)]
		m := t.mask
		switch {
		case t.pair:
			acc += uint32(t.pslots[h&m].id)
		case t.single:
			acc += uint32(t.slots[h&m].id)
		default:
			acc += uint32(t.slotIDs[h&m]) + uint32(t.slotHash[h&m])
		}
	}
	return acc
}
