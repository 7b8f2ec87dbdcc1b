package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// Column is one Arrow array in device memory, in Arrow's layout with
// offset 0: kernels index rows from 0 and never see a slice offset.
type Column struct {
	Type arrow.DataType
	Len  int
	// NullCount is the number of nulls, or array.UnknownNullCount (-1) for
	// a column computed on the device (download counts them).
	NullCount int
	Valid     Buffer // validity bitmap; zero Buffer when the column has no nulls
	Data      Buffer // values; bit-packed for Boolean; the bytes for String
	Offsets   Buffer // String only: Len+1 int32 offsets, the first 0
}

// Free returns the column's buffers to their pool.
func (c *Column) Free() {
	c.Valid.Free()
	c.Data.Free()
	c.Offsets.Free()
}

// Borrow returns a view of c whose Free leaves c's memory alone.
func (c *Column) Borrow() *Column {
	return &Column{Type: c.Type, Len: c.Len, NullCount: c.NullCount, Valid: c.Valid.Borrow(), Data: c.Data.Borrow(), Offsets: c.Offsets.Borrow()}
}

// Batch is a record batch in device memory.
type Batch struct {
	Schema *arrow.Schema
	Len    int
	Cols   []*Column
}

// Free frees every column.
func (b *Batch) Free() {
	for _, c := range b.Cols {
		if c != nil {
			c.Free()
		}
	}
	b.Cols = nil
}

// width is the value width in bytes of a fixed-width device type, 0 for
// Boolean (bits) and String (variable), -1 for a type the GPU does not
// hold. Decimal64 and Int64 are both scaled int64; Date32 is int32, and so
// is Int32 (the codes of dictionary-encoded strings); Decimal128 is two
// 64-bit words, low first (gq_i128 in the kernels).
func width(t arrow.DataType) int {
	switch t.ID() {
	case arrow.DECIMAL128:
		return 16
	case arrow.INT64, arrow.DECIMAL64, arrow.FLOAT64:
		return 8
	case arrow.DATE32, arrow.INT32:
		return 4
	case arrow.BOOL, arrow.STRING:
		return 0
	}
	return -1
}

// hostParts returns the host bytes of arr's buffers normalised to offset 0:
// validity (nil when no nulls), data, and for strings offsets. Slices point
// into arr where no normalisation is needed.
func hostParts(arr arrow.Array) (valid, data, offsets []byte, err error) {
	d := arr.Data()
	n, off := arr.Len(), d.Offset()
	bufs := d.Buffers()
	if arr.NullN() > 0 && len(bufs) > 0 && bufs[0] != nil {
		valid = bitsFrom(bufs[0].Bytes(), off, n)
	}
	if n == 0 {
		// Empty arrays may lack buffers; an empty string column still
		// needs its one offset.
		if arr.DataType().ID() == arrow.STRING {
			offsets = make([]byte, 4)
		} else if width(arr.DataType()) < 0 {
			return nil, nil, nil, errs.New(errs.Unsupported, "GPU: column type %s", arr.DataType())
		}
		return nil, nil, offsets, nil
	}
	switch w := width(arr.DataType()); {
	case w > 0:
		data = bufs[1].Bytes()[off*w : (off+n)*w]
	case arr.DataType().ID() == arrow.BOOL:
		data = bitsFrom(bufs[1].Bytes(), off, n)
	case arr.DataType().ID() == arrow.STRING:
		s := arr.(*array.String)
		offs := s.ValueOffsets() // n+1 entries, already sliced by offset
		base := offs[0]
		out := make([]byte, 4*(n+1))
		for i, o := range offs[:n+1] {
			binary.LittleEndian.PutUint32(out[4*i:], uint32(o-base))
		}
		offsets = out
		data = bufs[2].Bytes()[base:offs[n]]
	default:
		return nil, nil, nil, errs.New(errs.Unsupported, "GPU: column type %s", arr.DataType())
	}
	return valid, data, offsets, nil
}

// bitsFrom returns n bits of a bitmap starting at bit off, as a bitmap
// starting at bit 0 (a sub-slice when off is a multiple of 8).
func bitsFrom(bm []byte, off, n int) []byte {
	nb := (n + 7) / 8
	if off%8 == 0 {
		return bm[off/8 : off/8+nb]
	}
	out := make([]byte, nb)
	for i := 0; i < n; i++ {
		j := off + i
		if bm[j/8]>>(j%8)&1 != 0 {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// DeviceType reports whether columns of type t can be held on the device
// (uploaded, gathered and downloaded).
func DeviceType(t arrow.DataType) bool { return width(t) >= 0 }
