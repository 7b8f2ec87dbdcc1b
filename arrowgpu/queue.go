package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// Queue is one stream of device work with the pool it allocates from and a
// pinned staging buffer: uploads, kernels (ops.go) and downloads queued on
// it run in order, and work on different queues may overlap. Batches move
// through the staging buffer in two halves: the host copies into one half
// while the DMA engine drains the other, and an event per half says when it
// may be reused. A Queue is used by one goroutine at a time.
type Queue struct {
	dv      *Device
	pool    *Pool
	stream  *stream
	staging *pinned
	half    int
	events  [2]uintptr
	pending [2]bool

	// BytesToDevice and BytesToHost count payload bytes moved (for
	// EXPLAIN ANALYZE).
	BytesToDevice, BytesToHost int64
}

// defaultStaging is the staging buffer size: large enough that per-copy
// overhead is small, small enough to allocate per worker.
const defaultStaging = 8 << 20

// NewQueue creates a stream, two events and a pinned staging buffer of
// staging bytes (defaultStaging when 0).
func (dv *Device) NewQueue(pool *Pool, staging int) (*Queue, error) {
	if staging <= 0 {
		staging = defaultStaging
	}
	staging = (staging + 1) &^ 1
	s, err := dv.newStream()
	if err != nil {
		return nil, err
	}
	t := &Queue{dv: dv, pool: pool, stream: s}
	if t.staging, err = dv.allocPinned(staging); err != nil {
		s.destroy()
		return nil, err
	}
	err = dv.Do(func() error {
		for i := range t.events {
			if err := dv.check("cuEventCreate", dv.drv.API.CuEventCreate(&t.events[i], 2 /* disable timing */)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Stream is the transfer's stream; kernels launched on it are ordered
// after uploads and before downloads.
func (t *Queue) Stream() *stream { return t.stream }

// Close frees the staging buffer, events and stream.
func (t *Queue) Close() error {
	err := t.stream.Sync()
	t.dv.Do(func() error {
		for _, e := range t.events {
			if e != 0 {
				t.dv.drv.API.CuEventDestroy(e)
			}
		}
		return nil
	})
	if e := t.dv.freePinned(t.staging); err == nil {
		err = e
	}
	if e := t.stream.destroy(); err == nil {
		err = e
	}
	return err
}

// waitHalfLocked waits until staging half h is no longer read or written
// by a queued copy.
func (t *Queue) waitHalfLocked(h int) error {
	if !t.pending[h] {
		return nil
	}
	t.pending[h] = false
	return t.dv.check("cuEventSynchronize", t.dv.drv.API.CuEventSynchronize(t.events[h]))
}

func (t *Queue) recordHalfLocked(h int) error {
	t.pending[h] = true
	return t.dv.check("cuEventRecord", t.dv.drv.API.CuEventRecord(t.events[h], t.stream.h))
}

// putLocked queues a copy of src to dst through the staging halves.
func (t *Queue) putLocked(dst DevPtr, src []byte) error {
	hs := len(t.staging.Bytes) / 2
	for len(src) > 0 {
		h := t.half
		t.half ^= 1
		if err := t.waitHalfLocked(h); err != nil {
			return err
		}
		n := copy(t.staging.Bytes[h*hs:h*hs+hs], src)
		if err := t.stream.copyHtoDAsyncLocked(dst, t.staging, h*hs, n); err != nil {
			return err
		}
		if err := t.recordHalfLocked(h); err != nil {
			return err
		}
		t.BytesToDevice += int64(n)
		src, dst = src[n:], dst.Add(int64(n))
	}
	return nil
}

// getLocked copies len(dst) bytes from src to host: each chunk is queued
// into one half while the previous chunk, in the other half, is copied out.
func (t *Queue) getLocked(dst []byte, src DevPtr) error {
	hs := len(t.staging.Bytes) / 2
	type chunk struct{ h, n, at int }
	var prev *chunk
	flush := func(c *chunk) error {
		if err := t.waitHalfLocked(c.h); err != nil {
			return err
		}
		copy(dst[c.at:c.at+c.n], t.staging.Bytes[c.h*hs:c.h*hs+c.n])
		return nil
	}
	for at := 0; at < len(dst); {
		h := t.half
		t.half ^= 1
		if err := t.waitHalfLocked(h); err != nil {
			return err
		}
		n := min(hs, len(dst)-at)
		if err := t.stream.copyDtoHAsyncLocked(t.staging, h*hs, n, src.Add(int64(at))); err != nil {
			return err
		}
		if err := t.recordHalfLocked(h); err != nil {
			return err
		}
		if prev != nil {
			if err := flush(prev); err != nil {
				return err
			}
		}
		prev = &chunk{h, n, at}
		at += n
		t.BytesToHost += int64(n)
	}
	if prev != nil {
		return flush(prev)
	}
	return nil
}

// Upload copies a record batch to the device and waits for the copy.
func (t *Queue) Upload(rec arrow.RecordBatch) (*Batch, error) {
	b := &Batch{Schema: rec.Schema(), Len: int(rec.NumRows())}
	for _, arr := range rec.Columns() {
		c, err := t.UploadArray(arr)
		if err != nil {
			b.Free()
			return nil, err
		}
		b.Cols = append(b.Cols, c)
	}
	return b, nil
}

// UploadArray copies one array to the device and waits for the copy.
func (t *Queue) UploadArray(arr arrow.Array) (*Column, error) {
	valid, data, offsets, err := hostParts(arr)
	if err != nil {
		return nil, err
	}
	c := &Column{Type: arr.DataType(), Len: arr.Len(), NullCount: arr.NullN()}
	err = t.dv.Do(func() error {
		for _, p := range []struct {
			buf  *Buffer
			host []byte
		}{{&c.Valid, valid}, {&c.Data, data}, {&c.Offsets, offsets}} {
			if p.host == nil {
				continue
			}
			var err error
			if *p.buf, err = t.pool.Alloc(int64(len(p.host))); err != nil {
				return err
			}
			if err := t.putLocked(p.buf.Ptr, p.host); err != nil {
				return err
			}
		}
		return t.stream.syncLocked()
	})
	if err != nil {
		c.Free()
		return nil, err
	}
	return c, nil
}

// UploadArrays copies arrays of type typ to the device as one column (in
// order) and waits for the copy: each array's values go straight from its
// buffers to their place in the device column, so the host never holds
// the concatenation; only a validity bitmap (when some value is NULL)
// and a string column's offsets are assembled on the host. Boolean
// columns, whose values are bits, are not taken (errs.Unsupported):
// concatenate them first.
func (t *Queue) UploadArrays(typ arrow.DataType, arrs []arrow.Array) (*Column, error) {
	w := width(typ)
	if w < 0 || typ.ID() == arrow.BOOL {
		return nil, errs.New(errs.Unsupported, "GPU: UploadArrays of %s", typ)
	}
	n, nulls := 0, 0
	for _, a := range arrs {
		if !arrow.TypeEqual(a.DataType(), typ) {
			return nil, errs.New(errs.Internal, "arrowgpu: UploadArrays of %s given %s", typ, a.DataType())
		}
		n += a.Len()
		nulls += a.NullN()
	}
	var valid []byte
	if nulls > 0 {
		valid = make([]byte, (n+7)/8)
		at := 0
		for _, a := range arrs {
			d := a.Data()
			if a.NullN() > 0 && d.Buffers()[0] != nil {
				bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), a.Len(), valid, at)
			} else {
				bitutil.SetBitsTo(valid, int64(at), int64(a.Len()), true)
			}
			at += a.Len()
		}
	}
	var offsets []byte
	dataBytes := int64(n * w)
	if typ.ID() == arrow.STRING {
		offsets = make([]byte, 4*(n+1))
		var total uint32
		at := 0
		for _, a := range arrs {
			offs := a.(*array.String).ValueOffsets()
			base := offs[0]
			for i := range a.Len() {
				binary.LittleEndian.PutUint32(offsets[4*(at+i):], total+uint32(offs[i]-base))
			}
			total += uint32(offs[a.Len()] - base)
			at += a.Len()
		}
		binary.LittleEndian.PutUint32(offsets[4*n:], total)
		dataBytes = int64(total)
	}
	c := &Column{Type: typ, Len: n, NullCount: nulls}
	err := t.dv.Do(func() error {
		var err error
		if valid != nil {
			if c.Valid, err = t.pool.Alloc(int64(len(valid))); err != nil {
				return err
			}
			if err := t.putLocked(c.Valid.Ptr, valid); err != nil {
				return err
			}
		}
		if offsets != nil {
			if c.Offsets, err = t.pool.Alloc(int64(len(offsets))); err != nil {
				return err
			}
			if err := t.putLocked(c.Offsets.Ptr, offsets); err != nil {
				return err
			}
		}
		if c.Data, err = t.pool.Alloc(dataBytes); err != nil {
			return err
		}
		dst := c.Data.Ptr
		for _, a := range arrs {
			if a.Len() == 0 {
				continue
			}
			data := valueBytes(a, w)
			if err := t.putLocked(dst, data); err != nil {
				return err
			}
			dst = dst.Add(int64(len(data)))
		}
		return t.stream.syncLocked()
	})
	if err != nil {
		c.Free()
		return nil, err
	}
	return c, nil
}

// valueBytes is the bytes of a's values: w bytes each, or a string
// array's characters.
func valueBytes(a arrow.Array, w int) []byte {
	d := a.Data()
	if s, ok := a.(*array.String); ok {
		offs := s.ValueOffsets()
		return d.Buffers()[2].Bytes()[offs[0]:offs[a.Len()]]
	}
	off := d.Offset()
	return d.Buffers()[1].Bytes()[off*w : (off+a.Len())*w]
}

// Download copies a device column to a host array allocated from mem.
func (t *Queue) Download(c *Column, mem memory.Allocator) (arrow.Array, error) {
	if width(c.Type) < 0 {
		return nil, errs.New(errs.Unsupported, "GPU: column type %s", c.Type)
	}
	n := c.Len
	var sizes [3]int // validity, data, offsets
	if c.Valid.Ptr != 0 {
		sizes[0] = (n + 7) / 8
	}
	switch w := width(c.Type); {
	case w > 0:
		sizes[1] = n * w
	case c.Type.ID() == arrow.BOOL:
		sizes[1] = (n + 7) / 8
	default: // string: the byte count is the last offset
		sizes[2] = 4 * (n + 1)
	}
	bufs := make([]*memory.Buffer, 3)
	alloc := func(i, size int) []byte {
		bufs[i] = memory.NewResizableBuffer(mem)
		bufs[i].Resize(size)
		return bufs[i].Bytes()
	}
	release := func() {
		for _, b := range bufs {
			if b != nil {
				b.Release()
			}
		}
	}
	err := t.dv.Do(func() error {
		if sizes[0] > 0 {
			if err := t.getLocked(alloc(0, sizes[0]), c.Valid.Ptr); err != nil {
				return err
			}
		}
		if c.Type.ID() == arrow.STRING {
			offs := alloc(2, sizes[2])
			if err := t.getLocked(offs, c.Offsets.Ptr); err != nil {
				return err
			}
			sizes[1] = int(int32(uint32(offs[4*n]) | uint32(offs[4*n+1])<<8 | uint32(offs[4*n+2])<<16 | uint32(offs[4*n+3])<<24))
		}
		return t.getLocked(alloc(1, sizes[1]), c.Data.Ptr)
	})
	if err != nil {
		release()
		return nil, err
	}
	var data *array.Data
	if c.Type.ID() == arrow.STRING {
		data = array.NewData(c.Type, n, []*memory.Buffer{bufs[0], bufs[2], bufs[1]}, nil, c.NullCount, 0)
	} else {
		data = array.NewData(c.Type, n, []*memory.Buffer{bufs[0], bufs[1]}, nil, c.NullCount, 0)
	}
	release() // NewData retained them
	defer data.Release()
	if bufs[0] == nil && c.NullCount < 0 {
		data.SetNullN(0)
	}
	return array.MakeFromData(data), nil
}

// DownloadBatch copies a device batch to a host record batch.
func (t *Queue) DownloadBatch(b *Batch, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, len(b.Cols))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for _, c := range b.Cols {
		a, err := t.Download(c, mem)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(b.Schema, cols, int64(b.Len)), nil
}
