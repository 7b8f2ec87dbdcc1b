package arrowgpu

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// RunFused compiles f for the device (once; the module is cached) and runs
// it over b: one output column per expression (NullCount unknown until
// download) and, when f has a predicate, a mask column (no nulls).
func (q *Queue) RunFused(f *Fused, b *Batch) (outs []*Column, mask *Column, err error) {
	for i, c := range f.Inputs {
		if c >= len(b.Cols) || b.Cols[c] == nil || b.Cols[c].Type.ID() != f.InTypes[i].ID() || scale(b.Cols[c].Type) != scale(f.InTypes[i]) {
			return nil, nil, errs.New(errs.Internal, "arrowgpu: fused kernel expects column %d of type %s", c, f.InTypes[i])
		}
	}
	m, err := q.dv.Module(f.FullSource(), f.Name+".cu")
	if err != nil {
		return nil, nil, err
	}
	k, err := q.dv.Kernel(m, f.Name)
	if err != nil {
		return nil, nil, err
	}
	n := b.Len
	cleanup := func() {
		for _, o := range outs {
			o.Free()
		}
		if mask != nil {
			mask.Free()
		}
	}
	args := inputArgs(f.Inputs, b)
	for _, t := range f.Outputs {
		o := &Column{Type: t, Len: n, NullCount: unknownNullCount}
		outs = append(outs, o)
		size := bitmapBytes(n)
		if w := width(t); w > 0 {
			size = int64(n * w)
		}
		if o.Data, err = q.pool.Alloc(size); err != nil {
			cleanup()
			return nil, nil, err
		}
		if o.Valid, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			cleanup()
			return nil, nil, err
		}
		args = append(args, o.Data.Ptr, o.Valid.Ptr)
	}
	if f.Mask {
		mask = &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
		if mask.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			cleanup()
			return nil, nil, err
		}
		args = append(args, mask.Data.Ptr)
	}
	errBuf, err := q.pool.Alloc(4)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	defer errBuf.Free()
	args = append(args, errBuf.Ptr, int64(n))
	var code uint32
	err = q.dv.Do(func() error {
		if err := q.stream.memsetLocked(errBuf.Ptr, 0, 4); err != nil {
			return err
		}
		if n > 0 {
			if err := k.launchLocked(q.stream, q.grid(int64(n)), D1(blockSize), 0, args...); err != nil {
				return err
			}
		}
		var e error
		code, e = q.readU32Locked(errBuf.Ptr)
		return e
	})
	if err == nil && code != 0 {
		site := "an expression"
		if int(code) <= len(f.Sites) {
			site = f.Sites[code-1]
		}
		err = errs.New(errs.Execution, "overflow or value out of range in %s", site)
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return outs, mask, nil
}

// inputArgs are the kernel arguments of the input columns cols of b, in
// the order inputParams declares them: data, offsets (strings), validity.
func inputArgs(cols []int, b *Batch) []any {
	var args []any
	for _, c := range cols {
		col := b.Cols[c]
		args = append(args, col.Data.Ptr)
		if col.Type.ID() == arrow.STRING {
			args = append(args, col.Offsets.Ptr)
		}
		args = append(args, col.Valid.Ptr)
	}
	return args
}
