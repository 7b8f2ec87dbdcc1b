package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Top-N selection on the device: each row's order key (a u64 whose
// unsigned order is the row's place in the sort, greater first), a radix
// select of the N-th greatest, and the rows at least that good. An
// aggregation's groups get their keys from its groups kernel
// (AggKernel.WithTopN); a column's from gq_order_key (TopRows).

// topBucket is the most candidates a top-N's last radix bucket may hold
// for topThreshold to keep it whole rather than look at its next byte: at
// most that many groups beyond the N come back.
const topBucket = 1024

// topThreshold returns an order key th such that at least n of the
// candidates among rows (all, when fewer) have okey >= th, and fewer than n + topBucket
// do: a candidate below it has n better ones, so no top-N keeps it. A
// radix select: per byte, from the most significant, a histogram of the
// candidates that share the bytes chosen so far (a trip to the device of a
// kilobyte), and the byte whose bucket holds the n-th greatest.
func (q *Queue) topThreshold(hist *kernel, okey, cand Buffer, rows, n int) (uint64, error) {
	counts, err := q.pool.Alloc(256 * 4)
	if err != nil {
		return 0, err
	}
	defer counts.Free()
	var prefix, above uint64
	need := uint32(n)
	for shift := 56; shift >= 0; shift -= 8 {
		var h [256 * 4]byte
		err := q.dv.Do(func() error {
			if err := q.stream.memsetLocked(counts.Ptr, 0, 256*4); err != nil {
				return err
			}
			if err := hist.launchLocked(q.stream, q.grid(int64(rows)), d1(blockSize), 0, okey.Ptr, cand.Ptr, prefix, above, int32(shift), counts.Ptr, int64(rows)); err != nil {
				return err
			}
			if err := q.stream.syncLocked(); err != nil {
				return err
			}
			return q.getLocked(h[:], counts.Ptr)
		})
		if err != nil {
			return 0, err
		}
		var acc uint32 // candidates in the buckets above d
		d := 255
		for ; d >= 0; d-- {
			c := binary.LittleEndian.Uint32(h[4*d:])
			if acc+c >= need {
				break
			}
			acc += c
		}
		if d < 0 { // fewer than need candidates (first byte only): all
			return prefix, nil
		}
		need -= acc
		prefix |= uint64(d) << shift
		above |= uint64(0xff) << shift
		if binary.LittleEndian.Uint32(h[4*d:]) <= topBucket {
			break
		}
	}
	return prefix, nil
}

// TopRows returns the rows of col (its Len rows) that a top-n by it —
// descending or not, NULLs first or last — may keep: those at least as
// good as the n-th best (ties included) and those whose value is NaN,
// which the sort places; idx (ascending) and their number. With n or
// fewer rows, every row (idx none, m = col.Len). col is an integer,
// decimal (of either width), date or double column.
func (q *Queue) TopRows(col *Column, desc, nullsFirst bool, n int) (idx Buffer, m int, err error) {
	rows := col.Len
	if rows <= n {
		return Buffer{}, rows, nil
	}
	isDouble := int32(0)
	switch col.Type.ID() {
	case arrow.FLOAT64:
		isDouble = 1
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32:
	default:
		return Buffer{}, 0, errs.New(errs.Unsupported, "GPU top-N by %s", col.Type)
	}
	ks, err := q.kernels(append([]string{"gq_order_key", "gq_topn_hist", "gq_topn_keep"}, selectKernels...)...)
	if err != nil {
		return Buffer{}, 0, err
	}
	var okey, cand Buffer
	defer okey.Free()
	defer cand.Free()
	mask := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: rows}
	defer mask.Free()
	for _, b := range []struct {
		buf  *Buffer
		size int64
	}{{&okey, int64(rows) * 8}, {&cand, bitmapBytes(rows)}, {&mask.Data, bitmapBytes(rows)}} {
		if *b.buf, err = q.pool.Alloc(b.size); err != nil {
			return Buffer{}, 0, err
		}
	}
	flags := uint32(0)
	if desc {
		flags |= 1
	}
	if nullsFirst {
		flags |= 2
	}
	err = q.dv.Do(func() error {
		return ks[0].launchLocked(q.stream, q.grid(int64(rows)), d1(blockSize), 0, col.Data.Ptr, int32(width(col.Type)), isDouble, col.Valid.Ptr, flags,
			okey.Ptr, cand.Ptr, mask.Data.Ptr, int64(rows))
	})
	if err != nil {
		return Buffer{}, 0, err
	}
	th, err := q.topThreshold(ks[1], okey, cand, rows, n)
	if err != nil {
		return Buffer{}, 0, err
	}
	err = q.dv.Do(func() error {
		if err := ks[2].launchLocked(q.stream, q.grid(int64(rows)), d1(blockSize), 0, okey.Ptr, cand.Ptr, th, mask.Data.Ptr, int64(rows)); err != nil {
			return err
		}
		var err error
		idx, m, err = q.selectLocked(ks[3:], mask, nil)
		return err
	})
	return idx, m, err
}
