package arrowgpu

import (
	"fmt"
	"sort"
	"sync"

	"gq/errs"
)

// Accountant is told of every byte the pool hands out and takes back, so
// the memory manager (memory/, DEVICE tier) can enforce the device limit and
// spill. Reserve may refuse (an errs.ResourcesExhausted error, ideally
// after trying to spill); Release never fails. A nil Accountant accounts
// nothing.
type Accountant interface {
	Reserve(bytes int64) error
	Release(bytes int64)
}

// Backing is where a pool's reservation comes from: the Device in
// production (MemAlloc/MemFree), a fake in tests.
type Backing interface {
	MemAlloc(n int64) (DevPtr, error)
	MemFree(p DevPtr) error
}

// poolAlign is the alignment and granularity of pool allocations: enough
// for any CUDA type and for coalesced access, and it lets kernels write
// whole 32-bit bitmap words past the last row.
const poolAlign = 256

// Pool sub-allocates one device reservation made up front: cudaMalloc is
// slow and synchronising, so gq calls it once and serves buffers from a
// best-fit free list with coalescing. Safe for concurrent use.
//
// Freeing is immediate: the caller must have synchronised every stream
// that still uses the buffer.
type Pool struct {
	backing Backing
	acct    Accountant
	base    DevPtr
	size    int64

	mu          sync.Mutex
	free        []span          // sorted by offset, never adjacent (coalesced)
	used        map[int64]int64 // offset → size of live allocations
	inUse, peak int64
}

type span struct{ off, size int64 }

// NewPool reserves size bytes (rounded up to poolAlign) from backing.
func NewPool(backing Backing, size int64, acct Accountant) (*Pool, error) {
	if size <= 0 {
		return nil, errs.New(errs.Internal, "arrowgpu: pool size %d", size)
	}
	size = alignUp(size)
	base, err := backing.MemAlloc(size)
	if err != nil {
		return nil, err
	}
	return &Pool{backing: backing, acct: acct, base: base, size: size, free: []span{{0, size}}, used: map[int64]int64{}}, nil
}

func alignUp(n int64) int64 { return (n + poolAlign - 1) &^ (poolAlign - 1) }

// Buffer is a piece of pool memory.
type Buffer struct {
	Ptr  DevPtr
	Size int64 // bytes requested; the pool holds Size rounded up to poolAlign
	pool *Pool
}

// Alloc returns n bytes (n may be 0: a zero Buffer). It fails with
// errs.ResourcesExhausted when the accountant refuses or no free span fits.
func (p *Pool) Alloc(n int64) (Buffer, error) {
	if n < 0 {
		return Buffer{}, errs.New(errs.Internal, "arrowgpu: allocation of %d bytes", n)
	}
	if n == 0 {
		return Buffer{}, nil
	}
	sz := alignUp(n)
	if p.acct != nil {
		if err := p.acct.Reserve(sz); err != nil {
			return Buffer{}, err
		}
	}
	p.mu.Lock()
	best := p.bestFitLocked(sz)
	if rm, ok := p.acct.(roomMaker); ok {
		// The bytes are granted but no free span holds them: what others
		// can give back (cached tables not in use) goes, a piece at a
		// time, until a span does or nothing more is given.
		for best < 0 {
			p.mu.Unlock()
			freed := rm.MakeRoom(sz)
			p.mu.Lock()
			if best = p.bestFitLocked(sz); freed <= 0 {
				break
			}
		}
	}
	if best < 0 {
		largest := p.largestFreeLocked()
		p.mu.Unlock()
		if p.acct != nil {
			p.acct.Release(sz)
		}
		return Buffer{}, errs.New(errs.ResourcesExhausted, "GPU memory pool: %d bytes requested, largest free block %d of %d free (pool %d)", n, largest, p.size-p.inUse, p.size)
	}
	s := p.free[best]
	if s.size == sz {
		p.free = append(p.free[:best], p.free[best+1:]...)
	} else {
		p.free[best] = span{s.off + sz, s.size - sz}
	}
	p.used[s.off] = sz
	p.inUse += sz
	p.peak = max(p.peak, p.inUse)
	p.mu.Unlock()
	return Buffer{Ptr: p.base.Add(s.off), Size: n, pool: p}, nil
}

// roomMaker is an Accountant that can free memory others hold when the
// pool's free bytes are in pieces too small (DeviceTier.MakeRoom).
type roomMaker interface {
	MakeRoom(n int64) int64
}

// bestFitLocked is the index of the smallest free span of at least sz
// bytes, -1 when none is.
func (p *Pool) bestFitLocked(sz int64) int {
	best := -1
	for i, s := range p.free {
		if s.size >= sz && (best < 0 || s.size < p.free[best].size) {
			best = i
		}
	}
	return best
}

func (p *Pool) largestFreeLocked() int64 {
	var m int64
	for _, s := range p.free {
		m = max(m, s.size)
	}
	return m
}

// Borrow returns a reference to b's memory that Free leaves alone (the
// owner frees it).
func (b Buffer) Borrow() Buffer { return Buffer{Ptr: b.Ptr, Size: b.Size} }

// Free returns b to its pool; freeing a zero Buffer does nothing. Freeing
// twice is an Internal error (a bug), not a crash.
func (b *Buffer) Free() error {
	if b.pool == nil {
		return nil
	}
	err := b.pool.free1(b.Ptr)
	b.pool, b.Ptr = nil, 0
	return err
}

func (p *Pool) free1(ptr DevPtr) error {
	off := int64(ptr - p.base)
	p.mu.Lock()
	sz, ok := p.used[off]
	if !ok {
		p.mu.Unlock()
		return errs.New(errs.Internal, "arrowgpu: free of %#x, not a live pool allocation", uint64(ptr))
	}
	delete(p.used, off)
	p.inUse -= sz
	i := sort.Search(len(p.free), func(i int) bool { return p.free[i].off > off })
	// Coalesce with the free spans before (i-1) and after (i).
	s := span{off, sz}
	if i < len(p.free) && s.off+s.size == p.free[i].off {
		s.size += p.free[i].size
		p.free = append(p.free[:i], p.free[i+1:]...)
	}
	if i > 0 && p.free[i-1].off+p.free[i-1].size == s.off {
		p.free[i-1].size += s.size
	} else {
		p.free = append(p.free, span{})
		copy(p.free[i+1:], p.free[i:])
		p.free[i] = s
	}
	p.mu.Unlock()
	if p.acct != nil {
		p.acct.Release(sz)
	}
	return nil
}

// ResetPeak makes the peak the bytes in use now, so that Stats' Peak is
// the high-water mark from here on (EXPLAIN ANALYZE of one query).
func (p *Pool) ResetPeak() {
	p.mu.Lock()
	p.peak = p.inUse
	p.mu.Unlock()
}

// PoolStats are the pool's figures in bytes (for EXPLAIN ANALYZE).
type PoolStats struct {
	Size, InUse, Peak, LargestFree int64
	Allocations, FreeSpans         int
}

func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PoolStats{Size: p.size, InUse: p.inUse, Peak: p.peak, LargestFree: p.largestFreeLocked(), Allocations: len(p.used), FreeSpans: len(p.free)}
}

func (s PoolStats) String() string {
	return fmt.Sprintf("pool %d B: %d in use (peak %d) in %d allocations, %d free spans, largest %d", s.Size, s.InUse, s.Peak, s.Allocations, s.FreeSpans, s.LargestFree)
}

// Close returns the reservation to the backing. Live allocations are a
// leak and an Internal error (the reservation is still returned).
func (p *Pool) Close() error {
	p.mu.Lock()
	live := len(p.used)
	p.mu.Unlock()
	err := p.backing.MemFree(p.base)
	if live > 0 {
		return errs.New(errs.Internal, "arrowgpu: pool closed with %d live allocations", live)
	}
	return err
}
