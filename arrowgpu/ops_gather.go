package arrowgpu

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Gather returns the column of rows idx[0..m) of col (idx int32 on device).
func (q *Queue) Gather(col *Column, idx Buffer, m int) (*Column, error) {
	outs, err := q.GatherMany([]*Column{col}, idx, m, false)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// GatherOrNull is Gather where idx may hold -1: that row is NULL (a left
// join's probe row without a match).
func (q *Queue) GatherOrNull(col *Column, idx Buffer, m int) (*Column, error) {
	outs, err := q.GatherMany([]*Column{col}, idx, m, true)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// GatherMany gathers rows idx[0..m) of each column (nil entries stay nil)
// in one trip to the device: a join pipeline moves every column it keeps
// at each step, and a round trip per column cost more than the copies.
// orNull is GatherOrNull's.
func (q *Queue) GatherMany(cols []*Column, idx Buffer, m int, orNull bool) ([]*Column, error) {
	outs, err := q.GatherSets([]GatherSet{{Cols: cols, Idx: idx, OrNull: orNull}}, m)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// GatherSet is columns gathered by one index (GatherSets).
type GatherSet struct {
	Cols   []*Column
	Idx    Buffer
	OrNull bool // Idx may hold -1: that row is NULL (GatherOrNull)
}

// GatherSets is GatherMany of several sets of columns, each by its own
// index of m rows, in one trip to the device: a join keeps its probe rows'
// columns and gathers its build rows' at once.
func (q *Queue) GatherSets(sets []GatherSet, m int) ([][]*Column, error) {
	outs := make([][]*Column, len(sets))
	for i, set := range sets {
		outs[i] = make([]*Column, len(set.Cols))
	}
	fail := func(err error) ([][]*Column, error) {
		for _, cols := range outs {
			for _, o := range cols {
				if o != nil {
					o.Free()
				}
			}
		}
		return nil, err
	}
	ks, err := q.kernels(gatherKernels...)
	if err != nil {
		return nil, err
	}
	err = q.dv.Do(func() error {
		for i, set := range sets {
			for x, col := range set.Cols {
				if col == nil {
					continue
				}
				outs[i][x] = &Column{Type: col.Type, Len: m}
				if err := q.gatherLocked(ks, col, set.Idx, outs[i][x], set.OrNull); err != nil {
					return err
				}
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		return fail(err)
	}
	return outs, nil
}

// gatherKernels are gatherLocked's kernels, in its order.
var gatherKernels = []string{"gq_gather_64", "gq_gather_32", "gq_gather_bits", "gq_gather_str_len", "gq_scan_u32", "gq_gather_str_bytes", "gq_gather_128"}

// gatherLocked queues the gather of col's rows idx[0..out.Len) into out.
func (q *Queue) gatherLocked(ks []*kernel, col *Column, idx Buffer, out *Column, orNull bool) error {
	m := out.Len
	if m == 0 {
		if col.Type.ID() == arrow.STRING {
			var err error
			if out.Offsets, err = q.pool.Alloc(4); err != nil {
				return err
			}
			return q.stream.memsetLocked(out.Offsets.Ptr, 0, 4)
		}
		return nil
	}
	g, n := q.grid(int64(m)), int64(m)
	var err error
	if col.Valid.Ptr != 0 || orNull {
		if out.Valid, err = q.pool.Alloc(bitmapBytes(m)); err != nil {
			return err
		}
		out.NullCount = unknownNullCount
		if err := ks[2].launchLocked(q.stream, g, d1(blockSize), 0, col.Valid.Ptr, idx.Ptr, out.Valid.Ptr, n); err != nil {
			return err
		}
	}
	switch w := width(col.Type); {
	case w == 16:
		if out.Data, err = q.pool.Alloc(n * 16); err != nil {
			return err
		}
		return ks[6].launchLocked(q.stream, g, d1(blockSize), 0, col.Data.Ptr, idx.Ptr, out.Data.Ptr, n)
	case w == 8 || w == 4:
		if out.Data, err = q.pool.Alloc(n * int64(w)); err != nil {
			return err
		}
		k := ks[0]
		if w == 4 {
			k = ks[1]
		}
		return k.launchLocked(q.stream, g, d1(blockSize), 0, col.Data.Ptr, idx.Ptr, out.Data.Ptr, n)
	case col.Type.ID() == arrow.BOOL:
		if out.Data, err = q.pool.Alloc(bitmapBytes(m)); err != nil {
			return err
		}
		return ks[2].launchLocked(q.stream, g, d1(blockSize), 0, col.Data.Ptr, idx.Ptr, out.Data.Ptr, n)
	case col.Type.ID() == arrow.STRING:
		return q.gatherStringsLocked(ks[3], ks[4], ks[5], col, idx, out)
	}
	return errs.New(errs.Unsupported, "GPU: gather of %s", col.Type)
}

// unknownNullCount mirrors array.UnknownNullCount: computed on download.
const unknownNullCount = -1

func (q *Queue) gatherStringsLocked(lenK, scanK, bytesK *kernel, col *Column, idx Buffer, out *Column) error {
	n := int64(out.Len)
	lens, err := q.pool.Alloc(n * 4)
	if err != nil {
		return err
	}
	var scratch Buffer // scanLocked's
	defer func() {
		q.stream.syncLocked()
		lens.Free()
		scratch.Free()
	}()
	if out.Offsets, err = q.pool.Alloc((n + 1) * 4); err != nil {
		return err
	}
	g := q.grid(n)
	if err := lenK.launchLocked(q.stream, g, d1(blockSize), 0, col.Offsets.Ptr, idx.Ptr, lens.Ptr, n); err != nil {
		return err
	}
	if scratch, err = q.scanLocked(scanK, lens.Ptr, out.Offsets.Ptr, n); err != nil {
		return err
	}
	total, err := q.readU32Locked(out.Offsets.Ptr.Add(n * 4))
	if err != nil {
		return err
	}
	if total > math.MaxInt32 {
		return errs.New(errs.ResourcesExhausted, "GPU: gathered strings exceed 2 GiB in one batch")
	}
	if out.Data, err = q.pool.Alloc(int64(total)); err != nil {
		return err
	}
	return bytesK.launchLocked(q.stream, g, d1(blockSize), 0, col.Offsets.Ptr, col.Data.Ptr, idx.Ptr, out.Offsets.Ptr, out.Data.Ptr, n)
}
