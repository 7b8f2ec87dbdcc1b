package gpuexec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// loadAllocator recycles, within one table load, the buffers of the
// decoded batches: a chunk's batches are released as soon as it is
// uploaded, and the next splits decode into their buffers instead of
// fresh memory. Fresh memory costs a page fault per 4 KiB on first touch,
// and with every core decoding at once the faults contend in the kernel:
// loading lineitem's columns at SF10 faulted in its 3 GiB and spent more
// time there than decoding. Buffers of 64 KiB and more are kept by size
// (rounded up to 64 KiB: the batches of a load have a few sizes) and
// handed out again zeroed, as the allocator beneath does; smaller ones
// pass through. Everything is accounted by the allocator beneath, which
// gets the kept buffers back at drain.
type loadAllocator struct {
	mem     memory.Allocator
	mu      sync.Mutex
	free    map[int][][]byte // kept buffers, by capacity
	ours    map[*byte]int    // the buffers handed out from the classes, by first byte: their class
	drained bool
}

const loadAllocMin = 64 << 10

func newLoadAllocator(mem memory.Allocator) *loadAllocator {
	return &loadAllocator{mem: mem, free: map[int][][]byte{}, ours: map[*byte]int{}}
}

func (a *loadAllocator) Allocate(size int) []byte {
	if size < loadAllocMin {
		return a.mem.Allocate(size)
	}
	c := (size + loadAllocMin - 1) &^ (loadAllocMin - 1)
	a.mu.Lock()
	if l := a.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		a.free[c] = l[:len(l)-1]
		a.ours[&b[0]] = c
		a.mu.Unlock()
		clear(b)
		return b[:size]
	}
	a.mu.Unlock()
	b := a.mem.Allocate(c)
	a.mu.Lock()
	a.ours[&b[0]] = c
	a.mu.Unlock()
	return b[:size]
}

// class is the class of b when it was handed out from one, else 0.
func (a *loadAllocator) class(b []byte) int {
	if cap(b) == 0 {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ours[&b[:1][0]]
}

func (a *loadAllocator) Reallocate(size int, b []byte) []byte {
	c := a.class(b)
	if c == 0 {
		if size < loadAllocMin {
			return a.mem.Reallocate(size, b)
		}
		nb := a.Allocate(size)
		copy(nb, b)
		a.mem.Free(b)
		return nb
	}
	if size <= c {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *loadAllocator) Free(b []byte) {
	c := a.class(b)
	if c == 0 {
		a.mem.Free(b)
		return
	}
	b = b[:c]
	a.mu.Lock()
	delete(a.ours, &b[0])
	if a.drained {
		a.mu.Unlock()
		a.mem.Free(b)
		return
	}
	a.free[c] = append(a.free[c], b)
	a.mu.Unlock()
}

// drain gives the kept buffers back to the allocator beneath; buffers
// freed later go straight to it.
func (a *loadAllocator) drain() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.drained = true
	for _, l := range a.free {
		for _, b := range l {
			a.mem.Free(b)
		}
	}
	a.free = nil
}
