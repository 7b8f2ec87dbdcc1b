package catalog

import (
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	gqmem "gq/memory"
)

// Column chunks read whole. arrow-go's RowGroupReader streams a chunk
// through a buffer of its own (64 KiB, grown to the largest page), made
// afresh for every chunk and read by a call per buffer's worth: 10-20 MiB
// of garbage per TPC-H query at SF1 on DuckDB's files, whose pages are
// large, each byte of it a page fault in a fresh process. The direct
// reader instead reads the chunk's bytes with one ReadAt into a recycled
// buffer (gq/memory's Scratch) and hands the page reader a stream over
// them; the buffer goes back when the chunk is done (chunkPages.close).

// maxWholeChunk bounds the chunks read whole: a larger one (long strings:
// TPC-H's comments) is streamed by arrow-go, whose buffer grows only to
// its largest page, where the whole chunk would raise the scan's peak
// memory (q10 at SF1: 188 to 200 MiB).
const maxWholeChunk = 2 << 20

// chunkSource is where readDirect's column chunks come from: the open
// file, its size and its metadata.
type chunkSource struct {
	r    io.ReaderAt
	size int64
	md   *metadata.FileMetaData
}

// chunkPages is a page reader over a chunk read whole, and its buffer.
type chunkPages struct {
	file.PageReader
	buf []byte
}

// Close closes the page reader, then recycles the chunk's bytes (the page
// reader copies what it keeps out of them: compressed pages into its own
// buffers).
func (p *chunkPages) Close() error {
	err := p.PageReader.Close()
	gqmem.Recycle(p.buf)
	p.buf = nil
	return err
}

// chunkPageReader returns a page reader over the column chunk cc read
// whole from src, or nil (no error) where arrow-go's own must read it:
// chunks over maxWholeChunk, and files of parquet-mr writers with
// PARQUET-816, whose chunk lengths it pads.
func chunkPageReader(src *chunkSource, cc *metadata.ColumnChunkMetaData) (file.PageReader, error) {
	if src.md.WriterVersion().LessThan(metadata.Parquet816FixedVersion) {
		return nil, nil
	}
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && start > cc.DictionaryPageOffset() {
		start = cc.DictionaryPageOffset()
	}
	n := cc.TotalCompressedSize()
	if start < 0 || n < 0 || start > src.size || n > src.size-start {
		return nil, errors.New("column chunk outside the file")
	}
	if n > maxWholeChunk {
		return nil, nil
	}
	buf := gqmem.Scratch[byte](int(n))
	if _, err := src.r.ReadAt(buf, start); err != nil {
		gqmem.Recycle(buf)
		return nil, err
	}
	pr, err := file.NewPageReader(&chunkStream{data: buf}, cc.NumValues(), cc.Compression(), readerPool, nil)
	if err != nil {
		gqmem.Recycle(buf)
		return nil, err
	}
	return &chunkPages{PageReader: pr, buf: buf}, nil
}

// chunkStream is a parquet.BufferedReader over bytes in memory, for a
// page reader that reads pages in order (Peek, Discard, Read). The
// embedded interface is nil: Outer and Reset, which only seeking and
// reuse call, are never called on it.
type chunkStream struct {
	parquet.BufferedReader
	data []byte
	pos  int
}

var errNegativeCount = errors.New("negative count")

// Peek returns the next n bytes, fewer (and io.EOF) at the end.
func (s *chunkStream) Peek(n int) ([]byte, error) {
	if n < 0 {
		return nil, errNegativeCount
	}
	rest := s.data[s.pos:]
	if n > len(rest) {
		return rest, io.EOF
	}
	return rest[:n], nil
}

// Discard skips the next n bytes, fewer (and io.EOF) at the end.
func (s *chunkStream) Discard(n int) (int, error) {
	if n < 0 {
		return 0, errNegativeCount
	}
	k := min(n, len(s.data)-s.pos)
	s.pos += k
	if k < n {
		return k, io.EOF
	}
	return k, nil
}

func (s *chunkStream) Read(p []byte) (int, error) {
	if s.pos >= len(s.data) {
		return 0, io.EOF
	}
	n := copy(p, s.data[s.pos:])
	s.pos += n
	return n, nil
}

func (s *chunkStream) BufferSize() int { return len(s.data) }
