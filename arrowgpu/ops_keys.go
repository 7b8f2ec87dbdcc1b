package arrowgpu

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// AllRows returns a mask (Boolean column without nulls) of n rows, all
// true: the start of a filter that has no predicate of its own.
func (q *Queue) AllRows(n int) (*Column, error) {
	mask := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
	var err error
	if mask.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
		return nil, err
	}
	err = q.dv.Do(func() error { return q.stream.memsetLocked(mask.Data.Ptr, 0xff, bitmapBytes(n)) })
	if err != nil {
		mask.Free()
		return nil, err
	}
	return mask, nil
}

// UploadBytes copies b into a new device buffer and waits for the copy.
func (q *Queue) UploadBytes(b []byte) (Buffer, error) {
	buf, err := q.pool.Alloc(int64(len(b)))
	if err != nil || len(b) == 0 {
		return buf, err
	}
	err = q.dv.Do(func() error {
		if err := q.putLocked(buf.Ptr, b); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		buf.Free()
		return Buffer{}, err
	}
	return buf, nil
}

// KeyFilter is a join filter's summary of one integer-like key column on
// the device: keys lie in [Lo, Lo+Span]; Bitmap (Span+1 bits) marks them
// exactly, or else Bloom (BloomMask+1 words, four bits per key by
// gq_hash64) may; with neither, the range alone.
type KeyFilter struct {
	Lo        int64
	Span      uint64
	Bitmap    DevPtr
	Bloom     DevPtr
	BloomMask uint64
}

// KeepKeys clears the bits of mask whose row of col (an Int64, Decimal64
// or Date32 key) is NULL or is not a key of f. The host twin is exec's
// keyFilter.keepInts.
func (q *Queue) KeepKeys(col *Column, f KeyFilter, mask *Column) error {
	if col.Len != mask.Len || mask.Type.ID() != arrow.BOOL {
		return errs.New(errs.Internal, "arrowgpu: KeepKeys of %s[%d] into a mask of %d", col.Type, col.Len, mask.Len)
	}
	var name string
	switch col.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		name = "gq_keep_keys_i64"
	case arrow.DATE32:
		name = "gq_keep_keys_i32"
	default:
		return errs.New(errs.Unsupported, "GPU: join filter on %s keys", col.Type)
	}
	ks, err := q.kernels(name)
	if err != nil {
		return err
	}
	return q.dv.Do(func() error {
		return ks[0].launchLocked(q.stream, q.grid(int64(col.Len)), d1(blockSize), 0, col.Data.Ptr, col.Valid.Ptr, f.Lo, f.Span, f.Bitmap, f.Bloom, f.BloomMask, mask.Data.Ptr, int64(col.Len))
	})
}
