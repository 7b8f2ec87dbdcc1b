package exec

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
	"gq/expr"
)

// windowAggChunk is how many frame rows windowMoreAgg feeds one state
// before it takes that state's results and starts another, which bounds
// its memory whatever the frames.
const windowAggChunk = 1 << 20

// windowMoreAgg computes an aggregate (agg_more.go's, or any aggregate
// with DISTINCT, which feeds each value's first row of a frame only)
// over each row's frame parts ps: every distinct frame (a row whose frame is its
// predecessor's shares its result) is one group of a GROUP BY state, fed
// the frame's rows in row order, so that the window and GROUP BY forms
// cannot disagree. With order (the call's own ORDER BY) each frame's
// rows are fed in that order instead, and DISTINCT keeps each value's
// first row in that order. DISTINCT skips NULLs, except list's, which
// keeps one NULL as a value (DuckDB's list(DISTINCT x)). It visits frame
// sizes' sum of rows, bounded as COUNT(DISTINCT)'s are.
func windowMoreAgg(c *Context, f WindowFunc, a arrow.Array, ps []bounds, order sortKeys) (arrow.Array, error) {
	n := a.Len()
	af := AggFunc{Fn: f.Fn, Type: f.Type, Param: f.Param, Arg: &expr.Column{Type: a.DataType()}}
	var id, stamp []int32 // DISTINCT: value ids, and the frame that last took each
	frameNo := int32(0)
	if f.Distinct {
		ids, top, err := denseIDs(a)
		if err != nil {
			return nil, err
		}
		if f.Fn == "list" {
			// NULL is one more value.
			top++
			for r, v := range ids {
				if v < 0 {
					ids[r] = top
				}
			}
		}
		id, stamp = ids, make([]int32, top+1)
	}
	group := make([]int32, n) // row → its frame's group in the current chunk
	var idx, gids []int32
	var pieces []arrow.Array
	defer func() { releaseArrays(pieces) }()
	ngroups, start := 0, 0
	work := int64(0)
	flush := func(end int) error {
		if end == start {
			return nil
		}
		s, err := newAggState(af)
		if err != nil {
			return err
		}
		s.resize(ngroups)
		vals := TakeArray(c.Alloc, a, idx)
		err = s.update(gids, vals)
		vals.Release()
		if err != nil {
			return err
		}
		res, err := s.result(c.Alloc, ngroups)
		if err != nil {
			return err
		}
		pieces = append(pieces, TakeArray(c.Alloc, res, group[start:end]))
		res.Release()
		idx, gids, ngroups, start = idx[:0], gids[:0], 0, end
		return c.Err()
	}
	for i := range n {
		if i == start || !sameFrame(ps, i-1, i) {
			if len(idx) >= windowAggChunk {
				if err := flush(i); err != nil {
					return nil, err
				}
			}
			g := int32(ngroups)
			ngroups++
			before := len(idx)
			for _, p := range ps {
				for r := p.fs[i]; r < p.fe[i]; r++ {
					idx = append(idx, r)
					gids = append(gids, g)
				}
			}
			if order != nil {
				// The call's own ORDER BY, ties in row order.
				slices.SortStableFunc(idx[before:], func(x, y int32) int { return compareRows(order, x, order, y) })
			}
			if f.Distinct {
				// Each value's first row in the frame.
				frameNo++
				kept := before
				for _, r := range idx[before:] {
					if v := id[r]; v >= 0 && stamp[v] != frameNo {
						stamp[v] = frameNo
						idx[kept] = r
						kept++
					}
				}
				idx, gids = idx[:kept], gids[:kept]
			}
			if work += int64(len(idx) - before); work > countDistinctWork {
				return nil, errs.New(errs.Unsupported, "%s over window frames of this size is not supported (more than %d rows visited)", f.Fn, countDistinctWork)
			}
		}
		group[i] = int32(ngroups - 1)
	}
	if err := flush(n); err != nil {
		return nil, err
	}
	if len(pieces) == 0 {
		b := array.NewBuilder(c.Alloc, f.Type)
		defer b.Release()
		return b.NewArray(), nil
	}
	if len(pieces) == 1 {
		p := pieces[0]
		pieces = nil
		return p, nil
	}
	out, err := array.Concatenate(pieces, c.Alloc)
	if err != nil {
		return nil, errs.Wrap(errs.Execution, err, "window %s", f.Fn)
	}
	return out, nil
}

// sameFrame reports whether rows i and j have the same frame parts.
func sameFrame(ps []bounds, i, j int) bool {
	for _, p := range ps {
		ei, ej := max(p.fe[i], p.fs[i]), max(p.fe[j], p.fs[j])
		if ei-p.fs[i] != ej-p.fs[j] || ei > p.fs[i] && p.fs[i] != p.fs[j] {
			return false
		}
	}
	return true
}
