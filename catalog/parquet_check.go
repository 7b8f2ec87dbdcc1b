package catalog

import (
	"os"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"gq/errs"
)

// checkChunkBounds refuses a footer whose column chunks lie outside the
// file. arrow-go trusts these offsets and lengths: a corrupt one makes it
// panic (makeslice: len out of range) — and when pqarrow opens columns in
// parallel it does so in its own goroutines, where no recover of ours can
// catch it and the whole process dies. Checking them once, when the
// footer is read, turns that into an IO error.
//
// It also refuses a column chunk whose codec arrow-go cannot decompress
// (unset, unknown or unimplemented, e.g. LZO). arrow-go's page reader
// allocates its 16 KiB header buffer from the query's allocator before it
// looks the codec up, and on that error drops the reader without freeing
// it: the query's accounted memory never returns to zero.
func checkChunkBounds(path string, md *metadata.FileMetaData) error {
	st, err := os.Stat(path)
	if err != nil {
		return errs.Wrap(errs.IO, err, "%s", path)
	}
	size := st.Size()
	for rg := 0; rg < md.NumRowGroups(); rg++ {
		g := md.RowGroup(rg)
		for c := 0; c < g.NumColumns(); c++ {
			col, err := g.ColumnChunk(c)
			if err != nil {
				return errs.Wrap(errs.IO, err, "%s: row group %d", path, rg)
			}
			start := col.DataPageOffset()
			if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 && start > col.DictionaryPageOffset() {
				start = col.DictionaryPageOffset()
			}
			if _, err := compress.GetCodec(col.Compression()); err != nil {
				return errs.New(errs.Unsupported, "%s: row group %d column %d is compressed with %s, which gq cannot read",
					path, rg, c, col.Compression())
			}
			n := col.TotalCompressedSize()
			if start < 0 || n < 0 || start > size || n > size-start {
				return errs.New(errs.IO, "%s: corrupt Parquet file: row group %d column %d lies at [%d, %d+%d) outside the file's %d bytes",
					path, rg, c, start, start, n, size)
			}
		}
	}
	return nil
}
