package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Concat returns the rows of cols (all of one type), one after another, as
// one new column: a table's chunks made one (a join's build side taken
// from the device table cache).
func (q *Queue) Concat(cols []*Column) (*Column, error) {
	if len(cols) == 0 {
		return nil, errs.New(errs.Internal, "arrowgpu: concatenation of no columns")
	}
	t := cols[0].Type
	total, nulls := 0, false
	for _, c := range cols {
		if !arrow.TypeEqual(c.Type, t) {
			return nil, errs.New(errs.Internal, "arrowgpu: concatenating %s and %s", t, c.Type)
		}
		total += c.Len
		nulls = nulls || c.Valid.Ptr != 0
	}
	ks, err := q.kernels("gq_copy_bytes", "gq_copy_bits_at", "gq_offsets_rebase", "gq_copy_u64", "gq_copy_u32")
	if err != nil {
		return nil, err
	}
	out := &Column{Type: t, Len: total}
	fail := func(err error) (*Column, error) {
		out.Free()
		return nil, err
	}
	// String pieces: their byte lengths (the last offset of each).
	var byteLens []int64
	if t.ID() == arrow.STRING {
		err = q.dv.Do(func() error {
			for _, c := range cols {
				var b [4]byte
				if c.Len > 0 {
					if err := q.getLocked(b[:], c.Offsets.Ptr.Add(int64(c.Len)*4)); err != nil {
						return err
					}
				}
				byteLens = append(byteLens, int64(binary.LittleEndian.Uint32(b[:])))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if nulls {
		out.NullCount = unknownNullCount
		if out.Valid, err = q.pool.Alloc(bitmapBytes(total)); err != nil {
			return fail(err)
		}
	}
	w := width(t)
	switch {
	case w > 0:
		out.Data, err = q.pool.Alloc(int64(max(total, 1)) * int64(w))
	case t.ID() == arrow.BOOL:
		out.Data, err = q.pool.Alloc(bitmapBytes(total))
	case t.ID() == arrow.STRING:
		var nb int64
		for _, n := range byteLens {
			nb += n
		}
		if nb > 1<<31-1 {
			return fail(errs.New(errs.ResourcesExhausted, "GPU: concatenated strings of %d bytes (int32 offsets)", nb))
		}
		if out.Offsets, err = q.pool.Alloc(int64(total+1) * 4); err == nil {
			out.Data, err = q.pool.Alloc(max(nb, 1))
		}
	default:
		err = errs.New(errs.Unsupported, "GPU: concatenation of %s", t)
	}
	if err != nil {
		return fail(err)
	}
	err = q.dv.Do(func() error {
		if nulls {
			if err := q.stream.memsetLocked(out.Valid.Ptr, 0, out.Valid.Size); err != nil {
				return err
			}
		}
		if t.ID() == arrow.BOOL {
			if err := q.stream.memsetLocked(out.Data.Ptr, 0, out.Data.Size); err != nil {
				return err
			}
		}
		if t.ID() == arrow.STRING {
			if err := q.stream.memsetLocked(out.Offsets.Ptr, 0, 4); err != nil {
				return err
			}
		}
		at, bytesAt := int64(0), int64(0)
		for i, c := range cols {
			n := int64(c.Len)
			if n == 0 {
				continue
			}
			g := q.grid(n)
			if nulls {
				if err := ks[1].launchLocked(q.stream, g, d1(blockSize), 0, c.Valid.Ptr, n, out.Valid.Ptr, at); err != nil {
					return err
				}
			}
			var err error
			switch {
			case w == 8: // pool buffers are aligned: so is every piece's place
				err = ks[3].launchLocked(q.stream, g, d1(blockSize), 0, c.Data.Ptr, out.Data.Ptr.Add(at*8), n)
			case w == 4:
				err = ks[4].launchLocked(q.stream, g, d1(blockSize), 0, c.Data.Ptr, out.Data.Ptr.Add(at*4), n)
			case w > 0:
				err = ks[0].launchLocked(q.stream, q.grid(n*int64(w)), d1(blockSize), 0, c.Data.Ptr, out.Data.Ptr.Add(at*int64(w)), n*int64(w))
			case t.ID() == arrow.BOOL:
				err = ks[1].launchLocked(q.stream, g, d1(blockSize), 0, c.Data.Ptr, n, out.Data.Ptr, at)
			default: // STRING
				if err = ks[2].launchLocked(q.stream, g, d1(blockSize), 0, c.Offsets.Ptr, n, int32(bytesAt), out.Offsets.Ptr.Add((at+1)*4)); err == nil && byteLens[i] > 0 {
					err = ks[0].launchLocked(q.stream, q.grid(byteLens[i]), d1(blockSize), 0, c.Data.Ptr, out.Data.Ptr.Add(bytesAt), byteLens[i])
				}
				bytesAt += byteLens[i]
			}
			if err != nil {
				return err
			}
			at += n
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		return fail(err)
	}
	return out, nil
}
