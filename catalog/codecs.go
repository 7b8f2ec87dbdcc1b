package catalog

import (
	"encoding/binary"
	"errors"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/pierrec/lz4/v4"
)

// Parquet's deprecated LZ4 codec was written two ways: parquet-mr (Hadoop)
// frames each block as [uncompressed size][compressed size][LZ4 block],
// both big-endian 32-bit, while older Arrow C++ wrote a bare LZ4 block.
// arrow-go implements neither, and files written by Spark and Impala with
// codec=lz4 still exist, so gq reads both the way Arrow C++ and DuckDB do:
// Hadoop framing when the frame sizes add up exactly, else one raw block.
// gq never writes this codec (LZ4_RAW replaced it); Encode writes Hadoop
// framing so the codec is whole.

type lz4LegacyCodec struct{}

func init() { compress.RegisterCodec(compress.Codecs.Lz4, lz4LegacyCodec{}) }

var errLZ4 = errors.New("corrupt LZ4 (legacy Parquet codec) page")

func (lz4LegacyCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	if out, ok := decodeHadoopLZ4(dst, src); ok {
		return out, nil
	}
	n, err := lz4.UncompressBlock(src, dst[:cap(dst)])
	if err != nil {
		return nil, errLZ4
	}
	return dst[:n], nil
}

// decodeHadoopLZ4 decodes src as a sequence of Hadoop frames into dst,
// false when src is not exactly such a sequence or dst is too small.
func decodeHadoopLZ4(dst, src []byte) ([]byte, bool) {
	out := dst[:0]
	for len(src) > 0 {
		if len(src) < 8 {
			return nil, false
		}
		raw := int(binary.BigEndian.Uint32(src))
		comp := int(binary.BigEndian.Uint32(src[4:]))
		src = src[8:]
		if comp > len(src) || raw > cap(dst)-len(out) {
			return nil, false
		}
		n, err := lz4.UncompressBlock(src[:comp], out[len(out):len(out)+raw])
		if err != nil || n != raw {
			return nil, false
		}
		out = out[:len(out)+raw]
		src = src[comp:]
	}
	return out, true
}

func (c lz4LegacyCodec) Decode(dst, src []byte) []byte {
	out, err := c.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

func (lz4LegacyCodec) Encode(dst, src []byte) []byte {
	bound := 8 + lz4.CompressBlockBound(len(src))
	if cap(dst) < bound {
		dst = make([]byte, bound)
	}
	dst = dst[:bound]
	var c lz4.Compressor
	n, err := c.CompressBlock(src, dst[8:])
	if err != nil {
		panic(err)
	}
	binary.BigEndian.PutUint32(dst, uint32(len(src)))
	binary.BigEndian.PutUint32(dst[4:], uint32(n))
	return dst[:8+n]
}

func (c lz4LegacyCodec) EncodeLevel(dst, src []byte, _ int) []byte { return c.Encode(dst, src) }

func (lz4LegacyCodec) CompressBound(n int64) int64 {
	return 8 + int64(lz4.CompressBlockBound(int(n)))
}

// Some writers leave a data page's compressed values empty when the page
// holds only NULLs (the levels of a v2 page are stored uncompressed); an
// empty input is no valid Snappy block, and arrow-go's decoder refuses it.
// DuckDB and Arrow C++ read such pages, so gq decodes an empty Snappy block
// as nothing.
type snappyEmptyOK struct{ compress.Codec }

func init() {
	c, err := compress.GetCodec(compress.Codecs.Snappy)
	if err == nil {
		compress.RegisterCodec(compress.Codecs.Snappy, snappyEmptyOK{c})
	}
}

func (s snappyEmptyOK) DecodeWithError(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return dst[:0], nil
	}
	return compress.Decode(s.Codec, dst, src)
}

func (s snappyEmptyOK) Decode(dst, src []byte) []byte {
	out, err := s.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}
