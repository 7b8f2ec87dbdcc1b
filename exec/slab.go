package exec

import (
	"math/bits"
	"sync"
	"unsafe"
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
// Only pointer-free element types are pooled (the GC never scans them), and
// the pool holds at most slabPoolMax bytes; beyond that a freed slab is
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
		return make([]T, n, 1<<c)
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
	int64Slabs    slabPool[int64]
	float64Slabs  slabPool[float64]
)

// poolOf returns the pool for T, or nil where T is not pooled.
func poolOf[T any]() *slabPool[T] {
	var zero T
	var p any
	switch any(zero).(type) {
	case int64:
		p = &int64Slabs
	case float64:
		p = &float64Slabs
	case int32:
		p = &int32Slabs
	case uint64:
		p = &uint64Slabs
	default:
		return nil
	}
	return p.(*slabPool[T])
}

// makeRecycled returns a zeroed slice of length n of a pooled type from
// its pool, of others from make. Growing arrays of aggregate states and
// table keys use it with recycle, so their doublings reuse slabs.
func makeRecycled[T any](n int) []T {
	if p := poolOf[T](); p != nil {
		return p.get(n)
	}
	return make([]T, n)
}

// recycle gives s back to its pool; the caller must not use it afterwards.
func recycle[T any](s []T) {
	if p := poolOf[T](); p != nil {
		p.put(s)
	}
}
