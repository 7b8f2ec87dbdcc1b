package catalog

import (
	"compress/gzip"
	"io"

	"github.com/klauspost/compress/zstd"
)

// decompressor reads the text of a file compressed with codec ("gzip",
// "zstd"). gzip's reader goes on through concatenated members, as gzip(1)
// writes them when files are appended.
func decompressor(r io.Reader, codec string) (io.ReadCloser, error) {
	switch codec {
	case "gzip":
		return gzip.NewReader(r)
	case "zstd":
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}
