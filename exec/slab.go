package exec

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	gqmem "gq/memory"
)

// Slab recycling for hash-table slot arrays. A hash table that outgrows the
// caches is also large enough that its memory comes fresh from the kernel:
// every 4 KiB page costs a page fault on first touch, and once the Go
// runtime has returned the pages after a query (its scavenger does so
// soon), the next query's tables fault them in again. On the 2-core VM
// this was the largest single cost of TPC-H q18: a third of its CPU time
// was system time, 250k minor faults a run. Tables therefore take their
// slot arrays from, and give them back to, a small pool of power-of-two
// slabs that outlives queries, as DuckDB's buffer manager keeps its blocks.
//
// A table gives its slots back when it is done with them (not at each
// doubling: the smaller slabs would rarely be asked for again and would
// only raise the query's peak). Slabs are reused within a query (the
// workers' tables of an aggregation become its merge tables, a finished
// join's table the next join's) and between the queries of a busy engine; when the last running query ends the pools are emptied, so
// an idle process does not sit on memory and a query's peak is its own.
// Only pointer-free element types are pooled (the GC never scans them), and
// the pools hold at most slabPoolMax bytes; beyond that a freed slab is
// left to the GC.

// slabMinBytes: smaller arrays come from the ordinary allocator, whose
// size classes recycle them well enough.
const slabMinBytes = 256 << 10

// slabPoolMax bounds the bytes the pools keep between uses.
const slabPoolMax = 512 << 20

var slabHeld struct {
	sync.Mutex
	bytes int
}

// slabPool keeps free slabs of T by log2 of their length.
type slabPool[T any] struct {
	mu   sync.Mutex
	free [64][][]T
}

func slabClass(n int) int { return bits.Len(uint(n - 1)) }

// get returns a zeroed slice of length n (a power of two for pooled sizes).
func (p *slabPool[T]) get(n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n*size < slabMinBytes {
		return make([]T, n)
	}
	c := slabClass(n)
	p.mu.Lock()
	var s []T
	if k := len(p.free[c]); k > 0 {
		s = p.free[c][k-1]
		p.free[c][k-1] = nil
		p.free[c] = p.free[c][:k-1]
	}
	p.mu.Unlock()
	if s == nil {
		s = make([]T, n, 1<<c)
		prefault(s) // slab_linux.go
		return s
	}
	slabHeld.Lock()
	slabHeld.bytes -= cap(s) * size
	slabHeld.Unlock()
	s = s[:n]
	clear(s)
	return s
}

// put offers s back for reuse; the caller must not touch s afterwards.
func (p *slabPool[T]) put(s []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	n := cap(s)
	if n*size < slabMinBytes || n&(n-1) != 0 {
		return
	}
	slabHeld.Lock()
	if slabHeld.bytes+n*size > slabPoolMax {
		slabHeld.Unlock()
		return
	}
	slabHeld.bytes += n * size
	slabHeld.Unlock()
	c := slabClass(n)
	p.mu.Lock()
	p.free[c] = append(p.free[c], s[:0])
	p.mu.Unlock()
}

var (
	intSlotSlabs  slabPool[intSlot]
	pairSlotSlabs slabPool[pairSlot]
	int32Slabs    slabPool[int32]
	uint64Slabs   slabPool[uint64]
)

// runningQueries counts the queries inside Run; the last one out empties
// the pools and tells the collector's pacer (gq/memory) that no query runs.
var runningQueries atomic.Int64

func queryStarted() { runningQueries.Add(1) }

func queryEnded() {
	if runningQueries.Add(-1) == 0 {
		intSlotSlabs.trim()
		pairSlotSlabs.trim()
		int32Slabs.trim()
		uint64Slabs.trim()
		gqmem.QueriesIdle()
	}
}

// trim drops every free slab (to the GC).
func (p *slabPool[T]) trim() {
	var zero T
	size := int(unsafe.Sizeof(zero))
	p.mu.Lock()
	freed := 0
	for c := range p.free {
		for _, s := range p.free[c] {
			freed += cap(s) * size
		}
		p.free[c] = nil
	}
	p.mu.Unlock()
	slabHeld.Lock()
	slabHeld.bytes -= freed
	slabHeld.Unlock()
}
