package memory

import (
	"sync/atomic"

	amem "github.com/apache/arrow-go/v18/arrow/memory"
)

// Allocator is an Arrow allocator that counts the bytes it hands out: live
// (allocated, not yet freed), peak and total. The engine gives each query
// its own, so the figures are the query's, and a query that returns with
// Live() > 0 after its result is released has leaked a buffer (a missing
// Release). It counts len(b) as arrow's CheckedAllocator does. Safe for
// concurrent use.
type Allocator struct {
	mem    amem.Allocator
	parent *Allocator // also counts here, when not nil
	live   atomic.Int64
	peak   atomic.Int64
	total  atomic.Int64
	allocs atomic.Int64
}

// NewAllocator wraps mem (nil: the Go allocator). parent, when not nil,
// counts every byte too (a process-wide total over per-query allocators).
func NewAllocator(mem amem.Allocator, parent *Allocator) *Allocator {
	if mem == nil {
		mem = amem.NewGoAllocator()
	}
	return &Allocator{mem: mem, parent: parent}
}

func (a *Allocator) add(n int64) {
	for p := a; p != nil; p = p.parent {
		v := p.live.Add(n)
		if n > 0 {
			p.total.Add(n)
			for {
				pk := p.peak.Load()
				if v <= pk || p.peak.CompareAndSwap(pk, v) {
					break
				}
			}
		}
	}
}

// Allocate implements amem.Allocator.
func (a *Allocator) Allocate(size int) []byte {
	return a.count(a.mem.Allocate(size))
}

// count counts b, newly allocated, as one allocation.
func (a *Allocator) count(b []byte) []byte {
	a.allocs.Add(1)
	a.add(int64(len(b)))
	return b
}

// AllocateNoZero is Allocate without the zeroing, for buffers the caller
// overwrites whole (noZero says why). Over an allocator other than Go's it
// is Allocate.
func (a *Allocator) AllocateNoZero(size int) []byte {
	if !a.goHeap() {
		return a.Allocate(size)
	}
	b := scratchBytes(size)
	own(b)
	return a.count(b)
}

// goHeap reports whether the inner allocator is Go's: its buffers are
// plain Go memory, which Free recycles (recycle.go) and Adopt may count.
func (a *Allocator) goHeap() bool {
	_, ok := a.mem.(*amem.GoAllocator)
	return ok
}

// Reallocate implements amem.Allocator. A buffer grown within its
// capacity has the new bytes zeroed: Go's allocator hands out zeroed
// capacity, and a recycled buffer's capacity holds an earlier batch.
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	old := len(b)
	var nb []byte
	if a.goHeap() && size <= cap(b) {
		nb = b[:size]
		if size > old {
			clear(nb[old:])
		}
	} else {
		nb = a.mem.Reallocate(size, b)
		if a.goHeap() {
			disown(b) // moved: the old bytes are garbage now
		}
	}
	a.add(int64(len(nb) - old))
	return nb
}

// Free implements amem.Allocator. A buffer of AllocateNoZero's or one
// adopted from Scratch is recycled (recycle.go).
func (a *Allocator) Free(b []byte) {
	a.add(-int64(len(b)))
	a.mem.Free(b)
	if a.goHeap() {
		freeOwned(b)
	}
}

// Live is the bytes allocated and not freed.
func (a *Allocator) Live() int64 { return a.live.Load() }

// Peak is the most bytes live at once.
func (a *Allocator) Peak() int64 { return a.peak.Load() }

// Total is every byte ever allocated.
func (a *Allocator) Total() int64 { return a.total.Load() }

// Allocations is the number of Allocate calls.
func (a *Allocator) Allocations() int64 { return a.allocs.Load() }

// Reset forgets the live count (after a leak has been reported, so the
// next check starts from zero); the peak and totals stay.
func (a *Allocator) Reset() { a.live.Store(0) }

// Adopt counts b, memory allocated on the Go heap by someone else, as
// allocated here, so that buffers a decoder fills in its own slices and
// hands to a batch (the Parquet scan's) are accounted like the rest: the
// batch's buffer is then made with this allocator, whose Free(b) uncounts
// them when the batch is released and recycles b when it came from
// Scratch: b must be the decoder's alone, no other slice of its memory
// kept. It returns false, counting nothing, when Free would give b to
// another allocator (the inner allocator is not Go's): the caller then
// keeps b as plain Go memory, unaccounted.
func (a *Allocator) Adopt(b []byte) bool {
	if !a.goHeap() {
		return false
	}
	own(b)
	a.count(b)
	return true
}

// NewBufferNoZero is a buffer of size bytes of unspecified contents, for
// outputs the caller overwrites whole (gathered rows, computed columns):
// from AllocateNoZero where mem is an Allocator over Go memory (recycled
// buffers, no zeroing pass), else a zeroed buffer of mem's.
func NewBufferNoZero(mem amem.Allocator, size int) *amem.Buffer {
	if a, ok := mem.(*Allocator); ok && a.goHeap() {
		return amem.NewBufferWithAllocator(a.AllocateNoZero(size), mem)
	}
	b := amem.NewResizableBuffer(mem)
	b.Resize(size)
	return b
}
