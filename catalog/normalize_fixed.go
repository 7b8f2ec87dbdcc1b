package catalog

import (
	"encoding/hex"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// Fixed-size binary columns (Parquet FIXED_LEN_BYTE_ARRAY without a
// decimal or interval annotation) read as VARCHAR holding their bytes, as
// BLOB columns do. UUID columns (Parquet's UUID logical type, arrow-go's
// arrow.uuid extension) read as VARCHAR in the canonical lowercase
// 8-4-4-4-12 form DuckDB prints: the hex text orders as the 16 bytes do,
// so comparisons, min/max and ORDER BY agree with DuckDB's UUID type.

const uuidExtension = "arrow.uuid"

// fixedBinaryType is the gq type of a fixed-size binary or UUID column.
func fixedBinaryType(t arrow.DataType) (arrow.DataType, bool) {
	switch t := t.(type) {
	case *arrow.FixedSizeBinaryType:
		return expr.String, true
	case arrow.ExtensionType:
		if t.ExtensionName() == uuidExtension {
			if s, ok := t.StorageType().(*arrow.FixedSizeBinaryType); ok && s.ByteWidth == 16 {
				return expr.String, true
			}
		}
	}
	return nil, false
}

// fixedBinaryStrings converts a fixed-size binary or UUID array to a
// String array; handled is false for any other array.
func fixedBinaryStrings(arr arrow.Array, mem memory.Allocator) (out arrow.Array, handled bool) {
	uuid := false
	if ext, ok := arr.(array.ExtensionArray); ok {
		if ext.ExtensionType().ExtensionName() != uuidExtension {
			return nil, false
		}
		arr, uuid = ext.Storage(), true
	}
	fb, ok := arr.(*array.FixedSizeBinary)
	if !ok {
		return nil, false
	}
	width := fb.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
	text := width
	if uuid {
		text = 36
	}
	n := fb.Len()
	offsets := make([]int32, n+1)
	data := make([]byte, 0, n*text)
	for i := 0; i < n; i++ {
		if fb.IsValid(i) {
			if uuid {
				data = appendUUID(data, fb.Value(i))
			} else {
				data = append(data, fb.Value(i)...)
			}
		}
		offsets[i+1] = int32(len(data))
	}
	var validity *memory.Buffer
	if fb.NullN() > 0 {
		validity = sliceBitmap(fb)
		defer validity.Release()
	}
	d := array.NewData(expr.String, n, []*memory.Buffer{validity,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, fb.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), true
}

// appendUUID appends the 8-4-4-4-12 lowercase hex form of the 16 bytes b.
func appendUUID(dst, b []byte) []byte {
	for i, g := range [...]int{4, 2, 2, 2, 6} {
		if i > 0 {
			dst = append(dst, '-')
		}
		dst = hex.AppendEncode(dst, b[:g])
		b = b[g:]
	}
	return dst
}
