package arrowgpu

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// RunFused compiles f for the device (once; the module is cached) and runs
// it over b: one output column per expression (NullCount unknown until
// download) and, when f has a predicate, a mask column (no nulls).
func (q *Queue) RunFused(f *Fused, b *Batch) (outs []*Column, mask *Column, err error) {
	run, err := q.prepareFused(f, b)
	if err != nil {
		return nil, nil, err
	}
	defer run.errBuf.Free()
	var code uint32
	err = q.dv.Do(func() error {
		if err := run.launchLocked(q); err != nil {
			return err
		}
		var e error
		code, e = q.readU32Locked(run.errBuf.Ptr)
		return e
	})
	if err == nil {
		err = f.siteErr(code)
	}
	if err != nil {
		run.free()
		return nil, nil, err
	}
	return run.outs, run.mask, nil
}

// Filter keeps the rows of b where f (a predicate, no outputs) holds, and
// of those the columns need marks (nil: all), in one trip to the device:
// the kernel, the selection and the gathers, waiting twice for the device
// (for the rows kept, then for the gathers) — RunFused, Select and
// GatherMany waited five times in three trips, for every chunk of a
// pipeline's filters. b stays the caller's; the result has no row (and
// no columns) when none passes.
func (q *Queue) Filter(f *Fused, b *Batch, need []bool) (*Batch, error) {
	if !f.Mask || len(f.Outputs) > 0 {
		return nil, errs.New(errs.Internal, "arrowgpu: Filter with a kernel of %d outputs, predicate %v", len(f.Outputs), f.Mask)
	}
	if b.Len == 0 {
		return &Batch{}, nil
	}
	ks, err := q.kernels(slices.Concat(selectKernels, gatherKernels)...)
	if err != nil {
		return nil, err
	}
	run, err := q.prepareFused(f, b)
	if err != nil {
		return nil, err
	}
	defer run.free()
	defer run.errBuf.Free()
	out := &Batch{Cols: make([]*Column, len(b.Cols))}
	var code uint32
	err = q.dv.Do(func() error {
		if err := run.launchLocked(q); err != nil {
			return err
		}
		idx, m, err := q.selectLocked(ks[:3], run.mask, func() error {
			var e error
			code, e = q.readU32Locked(run.errBuf.Ptr) // the stream is synced: no wait
			if e == nil {
				e = f.siteErr(code)
			}
			return e
		})
		if err != nil || m == 0 {
			return err
		}
		defer idx.Free()
		out.Len = m
		for sl, col := range b.Cols {
			if col == nil || need != nil && (sl >= len(need) || !need[sl]) {
				continue
			}
			out.Cols[sl] = &Column{Type: col.Type, Len: m}
			if err := q.gatherLocked(ks[3:], col, idx, out.Cols[sl], false); err != nil {
				return err
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		out.Free()
		return nil, err
	}
	if out.Len == 0 {
		out.Cols = nil
	}
	return out, nil
}

// fusedRun is a fused kernel's launch over a batch: its arguments and
// the columns it writes.
type fusedRun struct {
	k      *kernel
	args   []any
	n      int
	outs   []*Column
	mask   *Column
	errBuf Buffer // the kernel's error code (Fused.Sites)
}

// prepareFused compiles f (once) and allocates its outputs over b.
func (q *Queue) prepareFused(f *Fused, b *Batch) (*fusedRun, error) {
	for i, c := range f.Inputs {
		if c >= len(b.Cols) || b.Cols[c] == nil || b.Cols[c].Type.ID() != f.InTypes[i].ID() || scale(b.Cols[c].Type) != scale(f.InTypes[i]) {
			return nil, errs.New(errs.Internal, "arrowgpu: fused kernel expects column %d of type %s", c, f.InTypes[i])
		}
	}
	m, err := q.dv.module(f.fullSource(), f.Name+".cu")
	if err != nil {
		return nil, err
	}
	k, err := q.dv.kernel(m, f.Name)
	if err != nil {
		return nil, err
	}
	n := b.Len
	run := &fusedRun{k: k, n: n, args: inputArgs(f.Inputs, b)}
	fail := func(err error) (*fusedRun, error) {
		run.free()
		return nil, err
	}
	for _, t := range f.Outputs {
		o := &Column{Type: t, Len: n, NullCount: unknownNullCount}
		run.outs = append(run.outs, o)
		size := bitmapBytes(n)
		if w := width(t); w > 0 {
			size = int64(n * w)
		}
		if o.Data, err = q.pool.Alloc(size); err != nil {
			return fail(err)
		}
		if o.Valid, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			return fail(err)
		}
		run.args = append(run.args, o.Data.Ptr, o.Valid.Ptr)
	}
	if f.Mask {
		run.mask = &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
		if run.mask.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
			return fail(err)
		}
		run.args = append(run.args, run.mask.Data.Ptr)
	}
	if run.errBuf, err = q.pool.Alloc(4); err != nil {
		return fail(err)
	}
	run.args = append(run.args, run.errBuf.Ptr, int64(n))
	return run, nil
}

// launchLocked zeroes the error code and queues the kernel.
func (r *fusedRun) launchLocked(q *Queue) error {
	if err := q.stream.memsetLocked(r.errBuf.Ptr, 0, 4); err != nil {
		return err
	}
	if r.n == 0 {
		return nil
	}
	return r.k.launchLocked(q.stream, q.grid(int64(r.n)), d1(blockSize), 0, r.args...)
}

// free frees the outputs (not the error code's word).
func (r *fusedRun) free() {
	for _, o := range r.outs {
		o.Free()
	}
	if r.mask != nil {
		r.mask.Free()
	}
	r.outs, r.mask = nil, nil
}

// siteErr is the error of a kernel's error code (0: none).
func (f *Fused) siteErr(code uint32) error {
	if code == 0 {
		return nil
	}
	site := "an expression"
	if int(code) <= len(f.Sites) {
		site = f.Sites[code-1]
	}
	return errs.New(errs.Execution, "overflow or value out of range in %s", site)
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
