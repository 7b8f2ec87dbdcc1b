package catalog

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	gqmem "gq/memory"
)

// pageAllocator recycles the Parquet reader's own buffers (compressed and
// decompressed pages, dictionary pages) across column chunks. Every row
// group of every column otherwise allocates them afresh, a few MiB per
// chunk of lineitem: with streaming queries keeping little live heap, that
// garbage set the pace of the Go GC (GOGC=400 halved Q6 and Q19 at SF1).
// These buffers never leave the reader (values are copied into gq's arrays),
// so pooling them is safe. Buffers come back unzeroed: the page reader
// writes every byte it reads.
type pageAllocator struct {
	pools [maxPoolClass + 1]sync.Pool
}

const (
	minPoolClass = 12 // 4 KiB
	maxPoolClass = 26 // 64 MiB; larger buffers are not pooled
)

var readerPool = &pageAllocator{}

// readerProps are the reader properties of the direct reader: buffers from
// readerPool, and column chunks streamed through a small buffer instead of
// read whole into a fresh allocation.
func readerProps() *parquet.ReaderProperties {
	p := parquet.NewReaderProperties(readerPool)
	p.BufferedStreamEnabled = true
	p.BufferSize = 64 << 10
	return p
}

func poolClass(size int) int {
	c := bits.Len(uint(size - 1))
	return max(c, minPoolClass)
}

func (a *pageAllocator) Allocate(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	c := poolClass(size)
	if c > maxPoolClass {
		return gqmem.NoZero[byte](size)
	}
	if b, ok := a.pools[c].Get().(*[]byte); ok {
		return (*b)[:size]
	}
	return gqmem.NoZero[byte](1 << c)[:size]
}

func (a *pageAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *pageAllocator) Free(b []byte) {
	c := cap(b)
	if c == 0 || c&(c-1) != 0 {
		return // not one of ours (or not pooled): left to the GC
	}
	cl := bits.Len(uint(c)) - 1
	if cl < minPoolClass || cl > maxPoolClass {
		return
	}
	b = b[:c]
	a.pools[cl].Put(&b)
}

var _ memory.Allocator = (*pageAllocator)(nil)
