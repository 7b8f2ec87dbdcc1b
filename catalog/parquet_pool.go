package catalog

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	gqmem "gq/memory"
)

// pageAllocator recycles the Parquet reader's own buffers (compressed and
// decompressed pages, dictionary pages) across column chunks. Every row
// group of every column otherwise allocates them afresh, a few MiB per
// chunk of lineitem: with streaming queries keeping little live heap, that
// garbage set the pace of the Go GC (GOGC=400 halved Q6 and Q19 at SF1).
// The pools are gq/memory's (Scratch, Recycle), shared with the batches'
// buffers, so a page freed at the end of a chunk can carry the next
// batch and the other way round. Buffers come back unzeroed: the page
// reader writes every byte it reads.
type pageAllocator struct{}

var readerPool = pageAllocator{}

// readerProps are the reader properties of the direct reader: buffers from
// readerPool, and column chunks streamed through a small buffer instead of
// read whole into a fresh allocation.
func readerProps() *parquet.ReaderProperties {
	p := parquet.NewReaderProperties(readerPool)
	p.BufferedStreamEnabled = true
	p.BufferSize = 64 << 10
	return p
}

func (pageAllocator) Allocate(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	return gqmem.Scratch[byte](size)
}

func (a pageAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free recycles b when it is one of the pools' sizes; the page reader
// frees only its own buffers, once it is done with them.
func (pageAllocator) Free(b []byte) { gqmem.Recycle(b) }

var _ memory.Allocator = pageAllocator{}
