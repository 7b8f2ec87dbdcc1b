package exec

import (
	"cmp"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// Window functions with an ORDER BY of their own (DuckDB's
// rank(ORDER BY x) OVER w, lead(v, 1, d ORDER BY x) OVER w): they read
// the row's frame, not its partition, in the call's order rather than the
// window's. Of rows equal on that order the one earlier in the window's
// order comes first: DuckDB's tie-break for row_number, ntile and the
// position lag/lead count from (its value functions leave ties to its
// sort, so any of the tied rows is its answer). For a row r and its
// frame F (ranking functions and lag/lead: the frame's whole extent, as
// DuckDB's, any EXCLUDE aside; value functions: the frame's parts):
//
//	rank          1 + |{f in F : f <  r}|  (r need not be in F)
//	percent_rank  (rank - 1) / (|F| - 1), 0 for |F| ≤ 1
//	cume_dist     |{f in F : f ≤ r}| / |F|, 0 for an empty F
//	row_number    1 + the rows of F before r, ties by window order
//	ntile(n)      row_number's bucket among |F| rows, NULL for an empty F
//	lag/lead(v, k, d)  v of the row k before/after row_number's position
//	              in F, else d
//	first_value, last_value, nth_value  the first, last, n-th row of F
//	              (with IGNORE NULLS, of F's rows whose v is not NULL)
//
// Each distinct frame is sorted once and rows sharing it search it, so
// the work is the sum of the distinct frames' sizes (times their log),
// bounded as COUNT(DISTINCT)'s is.

// argOrderFunc reports whether fn computes with an ORDER BY of its own
// here.
func argOrderFunc(fn string) bool {
	switch fn {
	case "row_number", "rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
		"first_value", "last_value", "nth_value":
		return true
	}
	return false
}

func windowArgOrdered(w *windowEnv, f WindowFunc, args []compiledExpr) (arrow.Array, error) {
	c := w.c
	n := int(w.b.NumRows())
	keys, arrs, err := w.inner.build(c, w.b)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(arrs)
	var ps []bounds
	value := f.Fn == "first_value" || f.Fn == "last_value" || f.Fn == "nth_value"
	if value {
		if ps, err = w.parts(f.Frame); err != nil {
			return nil, err
		}
	} else {
		b, err := w.bounds(f.Frame)
		if err != nil {
			return nil, err
		}
		ps = []bounds{b}
	}
	var a arrow.Array // the value (lag, lead and the value functions)
	if len(args) > 0 && f.Fn != "ntile" {
		if a, err = args[0].eval(c.Alloc, w.b); err != nil {
			return nil, err
		}
		defer a.Release()
	}
	skipNulls := value && f.IgnoreNulls && a.NullN() > 0
	// before orders rows by the call's keys, then by window order: a total
	// order, so that row_number and the picks are deterministic.
	before := func(x, y int32) int {
		if c := compareRows(keys, x, keys, y); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	}
	var sorted []int32 // the current frame's rows in the call's order
	work := int64(0)
	ints := make([]int64, n)
	floats := make([]float64, n)
	valid := make([]bool, n)
	pick := make([]int32, n) // lag, lead, value functions: the row taken, -1 NULL, n+i the default
	for i := range n {
		if i == 0 || !sameFrame(ps, i-1, i) {
			sorted = sorted[:0]
			for _, p := range ps {
				for r := p.fs[i]; r < p.fe[i]; r++ {
					if !skipNulls || a.IsValid(int(r)) {
						sorted = append(sorted, r)
					}
				}
			}
			slices.SortFunc(sorted, before)
			if work += int64(len(sorted)); work > countDistinctWork {
				return nil, errs.New(errs.Unsupported, "%s with an ORDER BY of its own over window frames of this size is not supported (more than %d rows visited)", f.Fn, countDistinctWork)
			}
			if err := c.Err(); err != nil {
				return nil, err
			}
		}
		r := int32(i)
		total := len(sorted)
		// lt: frame rows before r's key; pos: before r in the total order.
		lt := sort.Search(total, func(m int) bool { return compareRows(keys, sorted[m], keys, r) >= 0 })
		pos := sort.Search(total, func(m int) bool { return before(sorted[m], r) >= 0 })
		valid[i] = true
		switch f.Fn {
		case "rank":
			ints[i] = int64(lt) + 1
		case "row_number":
			ints[i] = int64(pos) + 1
		case "percent_rank":
			if total > 1 {
				floats[i] = float64(lt) / float64(total-1)
			}
		case "cume_dist":
			if total > 0 {
				le := sort.Search(total, func(m int) bool { return compareRows(keys, sorted[m], keys, r) > 0 })
				floats[i] = float64(le) / float64(total)
			}
		case "ntile":
			ints[i], valid[i] = ntileOf(int64(pos), int64(total), f.N)
		case "lag", "lead":
			j := int64(pos) - f.N
			if f.Fn == "lead" {
				j = int64(pos) + f.N
			}
			pick[i] = int32(n + i) // the default
			if j >= 0 && j < int64(total) {
				pick[i] = sorted[j]
			}
		default: // first_value, last_value, nth_value
			k := int64(0)
			switch f.Fn {
			case "last_value":
				k = int64(total) - 1
			case "nth_value":
				k = f.N - 1
			}
			pick[i] = -1
			if k >= 0 && k < int64(total) {
				pick[i] = sorted[k]
			}
		}
	}
	switch f.Fn {
	case "rank", "row_number", "ntile":
		return aggArray(c.Alloc, f.Type, ints, valid), nil
	case "percent_rank", "cume_dist":
		return aggArray(c.Alloc, f.Type, floats, nil), nil
	case "lag", "lead":
		d, err := args[1].eval(c.Alloc, w.b)
		if err != nil {
			return nil, err
		}
		defer d.Release()
		both, err := array.Concatenate([]arrow.Array{a, d}, c.Alloc)
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err, "window %s", f.Fn)
		}
		defer both.Release()
		return TakeArray(c.Alloc, both, pick), nil
	}
	return TakeArray(c.Alloc, a, pick), nil
}

// ntileOf is the bucket (1..n) of the row at 0-based position k among
// total rows split into n buckets, the first total%n of them one row
// larger (SQLite's and DuckDB's split; n above total gives each row its
// own bucket); ok false (NULL) for no rows.
func ntileOf(k, total, n int64) (int64, bool) {
	if total == 0 {
		return 0, false
	}
	n = min(n, total)
	size := total / n
	large := total - n*size
	small := large * (size + 1)
	if k < small {
		return 1 + k/(size+1), true
	}
	return 1 + large + (k-small)/size, true
}
