package expr

import (
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Typed views of Arrow buffers: the kernels loop over these slices.

func i64s(a arrow.Array) []int64 {
	d := a.Data()
	if d.Len() == 0 || d.Buffers()[1] == nil {
		return nil
	}
	return arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

func f64s(a arrow.Array) []float64 {
	d := a.Data()
	if d.Len() == 0 || d.Buffers()[1] == nil {
		return nil
	}
	return arrow.Float64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

func i32s(a arrow.Array) []int32 {
	d := a.Data()
	if d.Len() == 0 || d.Buffers()[1] == nil {
		return nil
	}
	return arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

// strView gives offsets (len n+1, absolute into data) and bytes of a String array.
func strView(a arrow.Array) (offs []int32, data []byte) {
	d := a.Data()
	if d.Buffers()[1] == nil {
		return make([]int32, d.Len()+1), nil
	}
	offs = arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()+1]
	if d.Buffers()[2] != nil {
		data = d.Buffers()[2].Bytes()
	}
	return offs, data
}

// validBits returns a's validity bitmap (indexed from bit a.Data().Offset()),
// or nil when a has no nulls.
func validBits(a arrow.Array) []byte {
	if a.NullN() == 0 {
		return nil
	}
	b := a.Data().Buffers()[0]
	if b == nil {
		return nil
	}
	return b.Bytes()
}

func bitSet(b []byte, i int) bool { return b[i>>3]&(1<<(uint(i)&7)) != 0 }
func setBit(b []byte, i int)      { b[i>>3] |= 1 << (uint(i) & 7) }
func clearBit(b []byte, i int)    { b[i>>3] &^= 1 << (uint(i) & 7) }
func ctz8(w byte) int             { return bits.TrailingZeros8(w) }

// isValid reports whether row i of a is not null (valid from validBits).
func isValid(valid []byte, off, i int) bool { return valid == nil || bitSet(valid, off+i) }

func newBuf(mem memory.Allocator, size int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(size)
	return b
}

// newBitmap returns a zeroed bitmap buffer for n bits.
func newBitmap(mem memory.Allocator, n int) *memory.Buffer {
	b := newBuf(mem, int(bitutil.BytesForBits(int64(n))))
	clear(b.Bytes())
	return b
}

// newValidity returns a fresh all-set bitmap for n rows.
func newAllValid(mem memory.Allocator, n int) *memory.Buffer {
	b := newBuf(mem, int(bitutil.BytesForBits(int64(n))))
	bs := b.Bytes()
	for i := range bs {
		bs[i] = 0xff
	}
	return b
}

// mergeValidity returns the validity of a row-wise function of the arrays
// (nil entries are non-null scalars): the AND of their bitmaps, nil when
// none has nulls. The result is a fresh buffer, or a retained input bitmap
// when only one input has nulls at offset 0.
func mergeValidity(mem memory.Allocator, n int, arrs ...arrow.Array) *memory.Buffer {
	var out *memory.Buffer
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		d := a.Data()
		if out == nil {
			if d.Offset() == 0 && d.Buffers()[0] != nil {
				out = d.Buffers()[0]
				out.Retain()
				continue
			}
			out = newBuf(mem, int(bitutil.BytesForBits(int64(n))))
			bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), n, out.Bytes(), 0)
			continue
		}
		nb := newBuf(mem, int(bitutil.BytesForBits(int64(n))))
		bitutil.BitmapAnd(out.Bytes(), d.Buffers()[0].Bytes(), 0, int64(d.Offset()), nb.Bytes(), 0, int64(n))
		out.Release()
		out = nb
	}
	return out
}

// ownValidity returns a private copy of v (or an all-valid bitmap when v is
// nil) that the caller may modify.
func ownValidity(mem memory.Allocator, n int, v *memory.Buffer) *memory.Buffer {
	if v == nil {
		return newAllValid(mem, n)
	}
	nb := newBuf(mem, v.Len())
	copy(nb.Bytes(), v.Bytes())
	v.Release()
	return nb
}

// finish wraps buffers into an array, taking ownership of them.
func finish(t arrow.DataType, n int, bufs ...*memory.Buffer) arrow.Array {
	nulls := 0
	if bufs[0] != nil {
		nulls = n - bitutil.CountSetBits(bufs[0].Bytes(), 0, n)
		if nulls == 0 {
			bufs[0].Release()
			bufs[0] = nil
		}
	}
	d := array.NewData(t, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	a := array.MakeFromData(d)
	d.Release()
	return a
}

// rawBuf is newBuf without the zeroing where mem can (gq's accounting
// allocator over Go memory: memory.Allocator.AllocateNoZero), for outputs
// the caller writes every element of, null rows included.
func rawBuf(mem memory.Allocator, size int) *memory.Buffer {
	if a, ok := mem.(interface{ AllocateNoZero(int) []byte }); ok {
		return memory.NewBufferWithAllocator(a.AllocateNoZero(size), mem)
	}
	return newBuf(mem, size)
}

// rawI64, rawF64 and rawI32 are outI64, outF64 and outI32 over rawBuf:
// the caller writes every element.
func rawI64(mem memory.Allocator, n int) (*memory.Buffer, []int64) {
	b := rawBuf(mem, n*8)
	return b, arrow.Int64Traits.CastFromBytes(b.Bytes())[:n]
}

func rawF64(mem memory.Allocator, n int) (*memory.Buffer, []float64) {
	b := rawBuf(mem, n*8)
	return b, arrow.Float64Traits.CastFromBytes(b.Bytes())[:n]
}

func rawI32(mem memory.Allocator, n int) (*memory.Buffer, []int32) {
	b := rawBuf(mem, n*4)
	return b, arrow.Int32Traits.CastFromBytes(b.Bytes())[:n]
}

// typed output buffers, zeroed
func outI64(mem memory.Allocator, n int) (*memory.Buffer, []int64) {
	b := newBuf(mem, n*8)
	return b, arrow.Int64Traits.CastFromBytes(b.Bytes())[:n]
}

func outF64(mem memory.Allocator, n int) (*memory.Buffer, []float64) {
	b := newBuf(mem, n*8)
	return b, arrow.Float64Traits.CastFromBytes(b.Bytes())[:n]
}

func outI32(mem memory.Allocator, n int) (*memory.Buffer, []int32) {
	b := newBuf(mem, n*4)
	return b, arrow.Int32Traits.CastFromBytes(b.Bytes())[:n]
}

// strOut builds a String array directly in allocator memory.
type strOut struct {
	offs *memory.Buffer
	o    []int32
	data *memory.Buffer
	d    []byte
	pos  int
	row  int
}

func newStrOut(mem memory.Allocator, n, sizeHint int) *strOut {
	s := &strOut{}
	s.offs, s.o = outI32(mem, n+1)
	s.o[0] = 0
	s.data = memory.NewResizableBuffer(mem)
	if sizeHint < 64 {
		sizeHint = 64
	}
	s.data.Reserve(sizeHint)
	s.d = s.data.Buf()
	return s
}

func (s *strOut) grow(k int) {
	if s.pos+k <= len(s.d) {
		return
	}
	c := 2 * len(s.d)
	if c < s.pos+k {
		c = s.pos + k
	}
	s.data.ResizeNoShrink(s.pos)
	s.data.Reserve(c)
	s.d = s.data.Buf()
}

// add appends b as the next row's value.
func (s *strOut) add(b []byte) {
	s.grow(len(b))
	s.pos += copy(s.d[s.pos:], b)
	s.row++
	s.o[s.row] = int32(s.pos)
}

func (s *strOut) addString(v string) {
	s.grow(len(v))
	s.pos += copy(s.d[s.pos:], v)
	s.row++
	s.o[s.row] = int32(s.pos)
}

// empty appends an empty (or null-slot) value.
func (s *strOut) empty() {
	s.row++
	s.o[s.row] = int32(s.pos)
}

func (s *strOut) finish(valid *memory.Buffer) arrow.Array {
	s.data.ResizeNoShrink(s.pos)
	return finish(String, s.row, valid, s.offs, s.data)
}

// bstr views b as a string without copying (read-only use).
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// makeConst materialises a scalar as a full-length array.
func makeConst(c *ctx, t arrow.DataType, v scalar) arrow.Array {
	n := c.n
	if v.null || t.ID() == arrow.NULL {
		return array.MakeArrayOfNull(c.mem, t, n)
	}
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		b, o := rawI64(c.mem, n)
		for i := range o {
			o[i] = v.i
		}
		return finish(t, n, nil, b)
	case arrow.DECIMAL128:
		b, o := rawW128(c.mem, n)
		for i := range o {
			o[i] = v.w
		}
		return finish(t, n, nil, b)
	case arrow.FLOAT64:
		b, o := rawF64(c.mem, n)
		for i := range o {
			o[i] = v.f
		}
		return finish(t, n, nil, b)
	case arrow.DATE32:
		b, o := rawI32(c.mem, n)
		for i := range o {
			o[i] = int32(v.i)
		}
		return finish(t, n, nil, b)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return constInterval(c, v.iv)
	case arrow.BOOL:
		if v.i != 0 {
			return finish(t, n, nil, newAllValid(c.mem, n))
		}
		return finish(t, n, nil, newBitmap(c.mem, n))
	case arrow.STRING:
		s := newStrOut(c.mem, n, n*len(v.s))
		for i := 0; i < n; i++ {
			s.addString(v.s)
		}
		return s.finish(nil)
	}
	return array.MakeArrayOfNull(c.mem, t, n)
}

// materialize turns an operand into an array (the caller releases it).
func materialize(c *ctx, t arrow.DataType, o operand) arrow.Array {
	if o.arr != nil {
		o.arr.Retain()
		return o.arr
	}
	return makeConst(c, t, *o.sc)
}

// allNull returns an all-null array of type t.
func allNull(c *ctx, t arrow.DataType) arrow.Array {
	return array.MakeArrayOfNull(c.mem, t, c.n)
}

type memAlloc = memory.Allocator
type memBuf = *memory.Buffer
