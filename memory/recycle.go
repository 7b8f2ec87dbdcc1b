package memory

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Recycling the large buffers of batches. A streaming query (scan,
// filter, project, aggregate) allocates its whole input's worth of
// batches and frees each one a moment later: TPC-H q01 at SF1 allocated
// some 600 MiB in buffers of one size per column. Left to the collector,
// each of them is fresh memory: a process that runs one query pays a page
// fault and the kernel's zeroing for every page its heap grows into, the
// collector runs once per heap budget's worth of garbage (and stops the
// workers each time), and the next batch is decoded into memory that has
// gone cold in the cache. Recycled, a query's batches take turns in the
// few buffers its pipeline holds at once.
//
// Buffers are kept in power-of-two size classes, one sync.Pool each, for
// the whole process: the collector still empties the pools, so memory a
// finished query left there is given back after two collections.
//
// Only gq's own buffers are recycled: those AllocateNoZero hands out and
// those a decoder takes from Scratch and gives to a batch (Adopt), which
// Free recognises by their address (owned). Buffers arrow-go allocates
// through Allocate for its builders and readers are left to the
// collector: arrow-go's Parquet reader frees some while their bytes still
// back another array, harmless over Go's allocator, whose Free does
// nothing.
//
// The rule that makes this safe is Arrow's: a buffer is freed when its
// last reference is released, and nothing may read it after that. Code
// that keeps a Go slice of a buffer past its release worked by accident
// over the collector; over recycled buffers it would read another batch's
// values. SetPoisonFreed makes tests catch it.

const (
	// minRecycleClass: smaller buffers are cheap to allocate (the Go
	// allocator's size classes, no page of their own) and not kept.
	minRecycleClass = 14 // 16 KiB
	// maxRecycleClass: larger buffers are rare and left to the collector.
	maxRecycleClass = 26 // 64 MiB
)

// recycled holds, per class, pointers to the first byte of free buffers
// of 1<<class bytes (an unsafe.Pointer in an interface does not allocate,
// where a slice would).
var recycled [maxRecycleClass + 1]sync.Pool

// owned is the set of recycled-class buffers handed to batches, by the
// address of their first byte, until Free gives them back. Addresses, not
// pointers: a buffer whose batch is never released (a leak) is still
// collected.
var owned struct {
	sync.Mutex
	m map[uintptr]struct{}
}

// recycleClass is the class of a buffer of size bytes (the least power of
// two that holds it); ok is false outside the recycled classes.
func recycleClass(size int) (class int, ok bool) {
	if size < 1<<minRecycleClass {
		return 0, false
	}
	c := bits.Len(uint(size - 1))
	return c, c <= maxRecycleClass
}

// classOf is the class of a buffer of capacity n, ok only when n is a
// class's size exactly (what scratchBytes hands out).
func classOf(n int) (class int, ok bool) {
	if n&(n-1) != 0 {
		return 0, false
	}
	c, ok := recycleClass(n)
	return c, ok && 1<<c == n
}

// GrowScratch returns s resized to n elements: s itself where its
// capacity holds them, else a Scratch buffer (s is left to its owner).
// For buffers reused batch to batch whose users write before they read:
// a new one is not zeroed, as the reused one would hold the last batch's
// values anyway, and its capacity is its class's, room for the next
// batches to grow into.
func GrowScratch[T Fixed](s []T, n int) []T {
	if cap(s) < n {
		return Scratch[T](n)
	}
	return s[:n]
}

// Scratch returns n elements of unspecified contents (as noZero), a
// recycled buffer where one is free; its capacity is its size class's.
// It is for buffers a decoder fills itself (then, optionally, gives to a
// batch through an adopting Allocator, whose Free recycles them) and for
// scratch it gives back with Recycle; one it drops is simply collected.
func Scratch[T Fixed](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := scratchBytes(n * size)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), cap(b)/size)[:n]
}

// scratchBytes is Scratch for bytes.
func scratchBytes(size int) []byte {
	c, ok := recycleClass(size)
	if !ok {
		return noZero[byte](size)
	}
	if p, ok := recycled[c].Get().(unsafe.Pointer); ok {
		return unsafe.Slice((*byte)(p), 1<<c)[:size]
	}
	return noZero[byte](1 << c)[:size]
}

// own records b, a buffer about to back a batch, as one Free may recycle
// (when its capacity is a class's).
func own(b []byte) {
	if _, ok := classOf(cap(b)); !ok {
		return
	}
	owned.Lock()
	if owned.m == nil {
		owned.m = map[uintptr]struct{}{}
	}
	owned.m[uintptr(unsafe.Pointer(unsafe.SliceData(b)))] = struct{}{}
	owned.Unlock()
}

// freeOwned recycles b when own recorded it.
func freeOwned(b []byte) {
	if disown(b) {
		recycle(b)
	}
}

// disown forgets b and reports whether own had recorded it.
func disown(b []byte) bool {
	if _, ok := classOf(cap(b)); !ok {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	owned.Lock()
	_, ok := owned.m[p]
	delete(owned.m, p)
	owned.Unlock()
	return ok
}

// Recycle gives back s, a Scratch buffer that nothing will read or write
// again (a decoder's own scratch at the end of its work); buffers of other
// capacities are left to the collector.
func Recycle[T Fixed](s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	recycle(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*int(unsafe.Sizeof(zero))))
}

// recycle keeps b, free, for a later Scratch when its capacity is exactly
// a class's size.
func recycle(b []byte) {
	c, ok := classOf(cap(b))
	if !ok {
		return
	}
	b = b[:cap(b)]
	if poisonFreed.Load() {
		for i := range b {
			b[i] = poisonByte
		}
	}
	recycled[c].Put(unsafe.Pointer(unsafe.SliceData(b)))
}

// poisonFreed: recycle overwrites each buffer with poisonByte before
// keeping it, so that a read after release sees garbage at once instead
// of, some of the time, another batch's values (SetPoisonFreed).
var poisonFreed atomic.Bool

const poisonByte = 0xA5

// SetPoisonFreed turns the poisoning of freed buffers on or off and
// returns the previous setting. Test binaries turn it on, so that their
// checked results fail where an operator reads a buffer after releasing
// it.
func SetPoisonFreed(on bool) (was bool) {
	return poisonFreed.Swap(on)
}
