package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Device operations on a Queue: the building blocks of GPU operators, each
// a few launches of the embedded kernels (kernels/*.cu). Every operation
// waits for its stream before returning, so temporaries can be freed at
// once and results read; stream-ordered freeing (to overlap consecutive
// operations) is future work.

// cmpOp is a comparison operator; the values are the kernels' op codes.
type cmpOp int32

const (
	cmpEq cmpOp = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

const blockSize = 256

// grid returns the block count for n items at one item per thread, capped
// (the kernels loop grid-stride) at 32 blocks per multiprocessor.
func (q *Queue) grid(n int64) dim3 {
	b := (n + blockSize - 1) / blockSize
	if c := int64(max(q.dv.info.SMs, 1) * 32); b > c {
		b = c
	}
	return d1(uint32(b))
}

// bitmapBytes is the size of a kernel-written bitmap of n rows: whole
// 32-bit words.
func bitmapBytes(n int) int64 { return int64((n+31)/32) * 4 }

// kernels fetches builtin kernels by name (compiling the module on first use).
func (q *Queue) kernels(names ...string) ([]*kernel, error) {
	ks := make([]*kernel, len(names))
	for i, n := range names {
		k, err := q.dv.builtinKernel(n)
		if err != nil {
			return nil, err
		}
		ks[i] = k
	}
	return ks, nil
}

// compareConst returns a Boolean column without nulls: row i is true when
// col[i] op c holds (a NULL row is false). c is int64 for Int64 and
// Decimal64 (unscaled, in the column's scale), int32 for Date32, float64
// for Float64.
func (q *Queue) compareConst(col *Column, op cmpOp, c any) (*Column, error) {
	var name string
	switch col.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		name = "gq_cmp_const_i64"
		if _, ok := c.(int64); !ok {
			return nil, errs.New(errs.Internal, "arrowgpu: %s constant %T", col.Type, c)
		}
	case arrow.DATE32:
		name = "gq_cmp_const_i32"
		if _, ok := c.(int32); !ok {
			return nil, errs.New(errs.Internal, "arrowgpu: %s constant %T", col.Type, c)
		}
	case arrow.FLOAT64:
		name = "gq_cmp_const_f64"
		if _, ok := c.(float64); !ok {
			return nil, errs.New(errs.Internal, "arrowgpu: %s constant %T", col.Type, c)
		}
	default:
		return nil, errs.New(errs.Unsupported, "GPU: comparison of %s with a constant", col.Type)
	}
	ks, err := q.kernels(name)
	if err != nil {
		return nil, err
	}
	out := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: col.Len}
	if out.Data, err = q.pool.Alloc(bitmapBytes(col.Len)); err != nil {
		return nil, err
	}
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, q.grid(int64(col.Len)), d1(blockSize), 0, col.Data.Ptr, col.Valid.Ptr, c, int32(op), out.Data.Ptr, int64(col.Len)); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		out.Free()
		return nil, err
	}
	return out, nil
}

// and returns a AND b for two Boolean columns without nulls (masks).
func (q *Queue) and(a, b *Column) (*Column, error) {
	if a.Len != b.Len || a.Type.ID() != arrow.BOOL || b.Type.ID() != arrow.BOOL || a.Valid.Ptr != 0 || b.Valid.Ptr != 0 {
		return nil, errs.New(errs.Internal, "arrowgpu: And of %s[%d] and %s[%d] (want masks of equal length)", a.Type, a.Len, b.Type, b.Len)
	}
	ks, err := q.kernels("gq_and_bits")
	if err != nil {
		return nil, err
	}
	out := &Column{Type: a.Type, Len: a.Len}
	if out.Data, err = q.pool.Alloc(bitmapBytes(a.Len)); err != nil {
		return nil, err
	}
	nw := int64((a.Len + 31) / 32)
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, q.grid(nw), d1(blockSize), 0, a.Data.Ptr, b.Data.Ptr, out.Data.Ptr, nw); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		out.Free()
		return nil, err
	}
	return out, nil
}

// scanLocked queues the exclusive scan of n u32 at in into out (n+1
// entries, out[n] the total). Up to scanOneBlock entries, scan (the
// builtin gq_scan_u32) does it in one block; longer ones (a string
// gather's 2M lengths: one multiprocessor reading them twice took
// hundreds of µs) take three launches: each tile's sum, the scan of the
// sums in one block, each tile's scan from its offset. The caller frees
// the returned scratch (the tiles' sums; none for one block) once the
// stream is synced.
func (q *Queue) scanLocked(scan *kernel, in, out DevPtr, n int64) (Buffer, error) {
	if n <= scanOneBlock {
		return Buffer{}, scan.launchLocked(q.stream, d1(1), d1(1024), 0, in, out, n)
	}
	m := q.dv.builtin.Load()
	if m == nil {
		return Buffer{}, errs.New(errs.Internal, "arrowgpu: scan before the builtin kernels are loaded")
	}
	tilesK, err := q.dv.kernelLocked(m, "gq_scan_tiles")
	if err != nil {
		return Buffer{}, err
	}
	downK, err := q.dv.kernelLocked(m, "gq_scan_down")
	if err != nil {
		return Buffer{}, err
	}
	tiles := (n + scanTile - 1) / scanTile
	sums, err := q.pool.Alloc((2*tiles + 1) * 4)
	if err != nil {
		return Buffer{}, err
	}
	offs := sums.Ptr.Add(tiles * 4)
	err = tilesK.launchLocked(q.stream, d1(uint32(tiles)), d1(256), 0, in, n, sums.Ptr)
	if err == nil {
		err = scan.launchLocked(q.stream, d1(1), d1(1024), 0, sums.Ptr, offs, tiles)
	}
	if err == nil {
		err = downK.launchLocked(q.stream, d1(uint32(tiles)), d1(256), 0, in, n, offs, out, uint32(tiles))
	}
	if err != nil {
		// Nothing more is queued: once what was is done, sums can go.
		if e := q.stream.syncLocked(); e == nil {
			sums.Free()
		}
		return Buffer{}, err
	}
	return sums, nil
}

// scanOneBlock is the longest scan run in one block; scanTile the entries
// per block of a longer one (GQ_SCAN_TILE).
const (
	scanOneBlock = 1 << 16
	scanTile     = 2048
)

// readU32Locked waits for the stream and reads one u32 at p.
func (q *Queue) readU32Locked(p DevPtr) (uint32, error) {
	if err := q.stream.syncLocked(); err != nil {
		return 0, err
	}
	var b [4]byte
	if err := q.getLocked(b[:], p); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// Select returns the ascending indices (int32) of the true rows of a mask
// (its validity is ignored: build masks with NULL as false) and their count.
func (q *Queue) Select(mask *Column) (Buffer, int, error) {
	if mask.Len == 0 {
		return Buffer{}, 0, nil
	}
	ks, err := q.kernels(selectKernels...)
	if err != nil {
		return Buffer{}, 0, err
	}
	var idx Buffer
	var m int
	err = q.dv.Do(func() (err error) {
		idx, m, err = q.selectLocked(ks, mask, nil)
		return err
	})
	return idx, m, err
}

// selectKernels are selectLocked's kernels, in its order.
var selectKernels = []string{"gq_count_words", "gq_scan_u32", "gq_select_write"}

// selectLocked is Select inside Do (ks: selectKernels); it syncs. synced,
// when set, runs once the stream has caught up with the work queued
// before (the mask's kernel: Filter reads its error code there).
func (q *Queue) selectLocked(ks []*kernel, mask *Column, synced func() error) (Buffer, int, error) {
	if mask.Len == 0 {
		return Buffer{}, 0, nil
	}
	nw := int64((mask.Len + 31) / 32)
	nb := (nw + 255) / 256
	counts, err := q.pool.Alloc(nb * 4)
	if err != nil {
		return Buffer{}, 0, err
	}
	offsets, err := q.pool.Alloc((nb + 1) * 4)
	if err != nil {
		counts.Free()
		return Buffer{}, 0, err
	}
	var idx Buffer
	var total uint32
	err = func() error {
		if err := ks[0].launchLocked(q.stream, d1(uint32(nb)), d1(256), 0, mask.Data.Ptr, nw, int64(mask.Len), counts.Ptr); err != nil {
			return err
		}
		scratch, err := q.scanLocked(ks[1], counts.Ptr, offsets.Ptr, nb)
		defer scratch.Free() // after the sync below, or the failure's
		if err != nil {
			return err
		}
		if total, err = q.readU32Locked(offsets.Ptr.Add(nb * 4)); err != nil {
			return err
		}
		if synced != nil {
			if err := synced(); err != nil {
				return err
			}
		}
		if total == 0 {
			return nil
		}
		if idx, err = q.pool.Alloc(int64(total) * 4); err != nil {
			return err
		}
		if err := ks[2].launchLocked(q.stream, d1(uint32(nb)), d1(256), 0, mask.Data.Ptr, nw, int64(mask.Len), offsets.Ptr, idx.Ptr); err != nil {
			return err
		}
		return q.stream.syncLocked()
	}()
	// The kernels are done (synced) or failed: their scratch can go.
	counts.Free()
	offsets.Free()
	if err != nil {
		idx.Free()
		return Buffer{}, 0, err
	}
	return idx, int(total), nil
}
