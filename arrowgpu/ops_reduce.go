package arrowgpu

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// reduction is the result of a reduction over the valid, selected rows.
type reduction struct {
	Count              int64
	SumInt             int64   // Int64, Decimal64 (unscaled)
	SumFloat           float64 // Float64
	MinInt, MaxInt     int64   // Int64, Decimal64, Date32
	MinFloat, MaxFloat float64 // Float64
}

// partials allocates nb entries of size bytes for count arrays etc.
func (q *Queue) partials(nb int64, sizes ...int64) ([]Buffer, error) {
	out := make([]Buffer, len(sizes))
	for i, s := range sizes {
		b, err := q.pool.Alloc(nb * s)
		if err != nil {
			for j := range i {
				out[j].Free()
			}
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func freeAll(bs []Buffer) {
	for i := range bs {
		bs[i].Free()
	}
}

// readPartialsLocked syncs and downloads each partial array (nb entries of
// 8 or 4 bytes).
func (q *Queue) readPartialsLocked(bufs []Buffer, nb int64, sizes ...int64) ([][]byte, error) {
	if err := q.stream.syncLocked(); err != nil {
		return nil, err
	}
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i] = make([]byte, nb*sizes[i])
		if err := q.getLocked(out[i], b.Ptr); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func u64At(b []byte, i int64) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }

// selPtr is the selection bitmap of an optional mask column.
func selPtr(sel *Column) DevPtr {
	if sel == nil {
		return 0
	}
	return sel.Data.Ptr
}

// Count counts the rows of n that are valid in col (nil: every row, i.e.
// COUNT(*)) and selected by sel (nil: all).
func (q *Queue) Count(col *Column, sel *Column, n int) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	var valid DevPtr
	if col != nil {
		valid = col.Valid.Ptr
	}
	ks, err := q.kernels("gq_count")
	if err != nil {
		return 0, err
	}
	g := q.grid(int64(n))
	nb := int64(g.X)
	ps, err := q.partials(nb, 8)
	if err != nil {
		return 0, err
	}
	defer freeAll(ps)
	var total int64
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, g, d1(blockSize), 0, valid, selPtr(sel), int64(n), ps[0].Ptr); err != nil {
			return err
		}
		h, err := q.readPartialsLocked(ps, nb, 8)
		if err != nil {
			return err
		}
		for i := range nb {
			total += int64(u64At(h[0], i))
		}
		return nil
	})
	return total, err
}

// Sum sums col's valid selected rows (Int64, Decimal64: SumInt, with an
// Execution error on overflow; Float64: SumFloat) and counts them.
func (q *Queue) Sum(col *Column, sel *Column) (reduction, error) {
	var a reduction
	if col.Len == 0 {
		return a, nil
	}
	isFloat := col.Type.ID() == arrow.FLOAT64
	name := "gq_sum_i64"
	switch {
	case isFloat:
		name = "gq_sum_f64"
	case col.Type.ID() != arrow.INT64 && col.Type.ID() != arrow.DECIMAL64:
		return a, errs.New(errs.Unsupported, "GPU: sum of %s", col.Type)
	}
	ks, err := q.kernels(name)
	if err != nil {
		return a, err
	}
	g := q.grid(int64(col.Len))
	nb := int64(g.X)
	ps, err := q.partials(nb, 8, 8, 4)
	if err != nil {
		return a, err
	}
	defer freeAll(ps)
	err = q.dv.Do(func() error {
		args := []any{col.Data.Ptr, col.Valid.Ptr, selPtr(sel), int64(col.Len), ps[0].Ptr, ps[1].Ptr}
		if !isFloat {
			args = append(args, ps[2].Ptr)
		}
		if err := ks[0].launchLocked(q.stream, g, d1(blockSize), 0, args...); err != nil {
			return err
		}
		h, err := q.readPartialsLocked(ps, nb, 8, 8, 4)
		if err != nil {
			return err
		}
		overflow := false
		for i := range nb {
			a.Count += int64(u64At(h[1], i))
			if isFloat {
				a.SumFloat += math.Float64frombits(u64At(h[0], i))
				continue
			}
			v := int64(u64At(h[0], i))
			s := a.SumInt + v
			overflow = overflow || (a.SumInt^s)&(v^s) < 0 || binary.LittleEndian.Uint32(h[2][4*i:]) != 0
			a.SumInt = s
		}
		if overflow {
			return errs.New(errs.Execution, "integer overflow in sum")
		}
		return nil
	})
	return a, err
}

// minMax returns the minimum and maximum of col's valid selected rows
// (meaningful when Count > 0); doubles in expr.CompareFloat's order, where
// NaN is the largest.
func (q *Queue) minMax(col *Column, sel *Column) (reduction, error) {
	a := reduction{MinInt: math.MaxInt64, MaxInt: math.MinInt64, MinFloat: math.NaN(), MaxFloat: math.Inf(-1)}
	if col.Len == 0 {
		return a, nil
	}
	var name string
	var w int64 = 8
	switch col.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		name = "gq_minmax_i64"
	case arrow.DATE32:
		name, w = "gq_minmax_i32", 4
	case arrow.FLOAT64:
		name = "gq_minmax_f64"
	default:
		return a, errs.New(errs.Unsupported, "GPU: min/max of %s", col.Type)
	}
	ks, err := q.kernels(name)
	if err != nil {
		return a, err
	}
	g := q.grid(int64(col.Len))
	nb := int64(g.X)
	ps, err := q.partials(nb, w, w, 8)
	if err != nil {
		return a, err
	}
	defer freeAll(ps)
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, g, d1(blockSize), 0, col.Data.Ptr, col.Valid.Ptr, selPtr(sel), int64(col.Len), ps[0].Ptr, ps[1].Ptr, ps[2].Ptr); err != nil {
			return err
		}
		h, err := q.readPartialsLocked(ps, nb, w, w, 8)
		if err != nil {
			return err
		}
		for i := range nb {
			c := int64(u64At(h[2], i))
			if c == 0 {
				continue
			}
			a.Count += c
			switch col.Type.ID() {
			case arrow.FLOAT64:
				if lo := math.Float64frombits(u64At(h[0], i)); expr.CompareFloat(lo, a.MinFloat) < 0 {
					a.MinFloat = lo
				}
				if hi := math.Float64frombits(u64At(h[1], i)); expr.CompareFloat(hi, a.MaxFloat) > 0 {
					a.MaxFloat = hi
				}
			case arrow.DATE32:
				a.MinInt = min(a.MinInt, int64(int32(binary.LittleEndian.Uint32(h[0][4*i:]))))
				a.MaxInt = max(a.MaxInt, int64(int32(binary.LittleEndian.Uint32(h[1][4*i:]))))
			default:
				a.MinInt = min(a.MinInt, int64(u64At(h[0], i)))
				a.MaxInt = max(a.MaxInt, int64(u64At(h[1], i)))
			}
		}
		return nil
	})
	return a, err
}
