package exec

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
	"gq/expr"
)

// windowEnv is what every function of one Window node's batch shares:
// the sorted rows' partitions and peer groups, and each frame's bounds
// computed once however many functions read it.
type windowEnv struct {
	c      *Context
	b      arrow.RecordBatch
	fr     frames
	l      layout
	key    *compiledExpr // the first ORDER BY key (RANGE offsets), nil without one
	desc   bool
	keyArr arrow.Array
	cache  map[WindowFrame]bounds
	inner  *compiledKeys // the current function's own ORDER BY, if any
	// offs: the current function's per-row frame offsets (start, end),
	// evaluated; such a frame is not cached.
	offs [2]arrow.Array
}

func (w *windowEnv) release() {
	if w.keyArr != nil {
		w.keyArr.Release()
	}
	w.setOffs(nil)
}

// setOffs evaluates the per-row frame offsets of the function about to be
// computed (nil: none), releasing the previous function's.
func (w *windowEnv) setOffs(offs []*compiledExpr) error {
	for k, a := range w.offs {
		if a != nil {
			a.Release()
			w.offs[k] = nil
		}
	}
	for k, ce := range offs {
		if ce == nil {
			continue
		}
		a, err := ce.eval(w.c.Alloc, w.b)
		if err != nil {
			return err
		}
		w.offs[k] = a
	}
	return nil
}

func (w *windowEnv) bounds(f WindowFrame) (bounds, error) {
	if b, ok := w.cache[f]; ok {
		return b, nil
	}
	if !f.Rows && !f.Groups && (isOffset(f.Start.Kind) || isOffset(f.End.Kind)) && w.keyArr == nil && w.key != nil {
		a, err := w.key.eval(w.c.Alloc, w.b)
		if err != nil {
			return bounds{}, err
		}
		w.keyArr = a
	}
	b, err := frameBounds(w.l, f, w.keyArr, w.desc, w.offs)
	if err != nil {
		return b, err
	}
	if !f.Start.PerRow && !f.End.PerRow {
		w.cache[f] = b
	}
	return b, nil
}

// parts is f's frame as up to three runs of rows per row, in row order:
// the frame itself, or with EXCLUDE the frame's rows before the excluded
// ones, the current row (TIES keeps it) and the rows after them. Each
// part is a bounds; an empty run has fe <= fs.
func (w *windowEnv) parts(f WindowFrame) ([]bounds, error) {
	b, err := w.bounds(f)
	if err != nil || f.Exclude == expr.ExcludeNoOthers {
		return []bounds{b}, err
	}
	n := len(b.fs)
	// Empty parts are clamped to fe == fs: a run of rows summed
	// incrementally (floatFrameSums) must never see fe < fs.
	before := bounds{fs: b.fs, fe: make([]int32, n)}
	after := bounds{fs: make([]int32, n), fe: make([]int32, n)}
	self := bounds{fs: make([]int32, n), fe: make([]int32, n)}
	for i := range n {
		xs, xe := w.l.gs[i], w.l.ge[i] // GROUP and TIES
		if f.Exclude == expr.ExcludeCurrentRow {
			xs, xe = int32(i), int32(i+1)
		}
		before.fe[i] = max(min(b.fe[i], xs), b.fs[i])
		after.fs[i] = max(b.fs[i], xe)
		after.fe[i] = max(b.fe[i], after.fs[i])
		if f.Exclude == expr.ExcludeTies && b.fs[i] <= int32(i) && int32(i) < b.fe[i] {
			self.fs[i], self.fe[i] = int32(i), int32(i+1)
		}
	}
	if f.Exclude == expr.ExcludeTies {
		return []bounds{before, self, after}, nil
	}
	return []bounds{before, after}, nil
}

// countDistinctWork bounds the rows COUNT(DISTINCT) over frames may visit
// in one batch: frames that neither run (fixed start, growing end) nor stay
// small cost rows times frame size.
const countDistinctWork = 1 << 28

// windowCountDistinct counts the distinct non-NULL values of each row's
// frame. Values become dense ids (one sort); a running frame (same start
// as the frame before, end not before its end) adds its new rows to the
// set it has, any other frame is counted afresh.
func windowCountDistinct(c *Context, a arrow.Array, ps []bounds) ([]int64, error) {
	n := a.Len()
	id, next, err := denseIDs(a)
	if err != nil {
		return nil, err
	}
	// stamp[v] == gen: value v is in the set being counted. Every fresh
	// count and every run gets a new gen, so no older stamp can match.
	stamp := make([]int32, next+1)
	gen := int32(0)
	vals := make([]int64, n)
	work := 0
	runS, runE, run := int32(-1), int32(-1), int64(0)
	for i := range n {
		if len(ps) == 1 {
			s, e := ps[0].fs[i], ps[0].fe[i]
			if i > 0 && s == runS && e >= runE {
				for j := runE; j < e; j++ {
					if v := id[j]; v >= 0 && stamp[v] != gen {
						stamp[v] = gen
						run++
					}
				}
				work += int(e - runE)
				runE = e
				vals[i] = run
				continue
			}
		}
		// A fresh count; with one part it is also the start of a run.
		gen++
		k := int64(0)
		for _, p := range ps {
			for j := p.fs[i]; j < p.fe[i]; j++ {
				if v := id[j]; v >= 0 && stamp[v] != gen {
					stamp[v] = gen
					k++
				}
			}
			work += int(max(p.fe[i]-p.fs[i], 0))
		}
		vals[i] = k
		if len(ps) == 1 {
			runS, runE, run = ps[0].fs[i], max(ps[0].fe[i], ps[0].fs[i]), k
		}
		if work > countDistinctWork {
			return nil, errs.New(errs.Unsupported, "COUNT(DISTINCT) over window frames of this size is not supported (%d rows visited)", work)
		}
	}
	return vals, nil
}

// denseIDs numbers a's distinct non-NULL values 0..max in value order
// (one sort); a NULL's id is -1.
func denseIDs(a arrow.Array) (id []int32, max int32, err error) {
	n := a.Len()
	cols, err := newSortCols(a, false, false) // DECIMAL(38): two columns
	if err != nil {
		return nil, 0, err
	}
	keys := sortKeys(cols)
	order := make([]int32, 0, n)
	for i := range n {
		if a.IsValid(i) {
			order = append(order, int32(i))
		}
	}
	sort.SliceStable(order, func(x, y int) bool { return compareRows(keys, order[x], keys, order[y]) < 0 })
	id = make([]int32, n)
	for i := range id {
		id[i] = -1
	}
	for k, r := range order {
		if k > 0 && compareRows(keys, order[k-1], keys, r) != 0 {
			max++
		}
		id[r] = max
	}
	return id, max, nil
}

// rowsIn is the number of rows of row i's frame parts, counted by cnt
// (prefix counts) or, with cnt nil, all rows.
func rowsIn(ps []bounds, i int, cnt []int32) int64 {
	k := int64(0)
	for _, p := range ps {
		if p.fe[i] > p.fs[i] {
			if cnt == nil {
				k += int64(p.fe[i] - p.fs[i])
			} else {
				k += int64(cnt[p.fe[i]] - cnt[p.fs[i]])
			}
		}
	}
	return k
}

// computeWindowFunc returns f's column over the env's batch (rows in
// sorted order); args are f's compiled arguments.
func computeWindowFunc(w *windowEnv, f WindowFunc, args []compiledExpr) (arrow.Array, error) {
	c, l := w.c, w.l
	n := int(w.b.NumRows())
	if f.Fn == "fill" {
		return windowFill(w, f, args)
	}
	if len(f.Order) > 0 && argOrderFunc(f.Fn) {
		return windowArgOrdered(w, f, args)
	}
	switch f.Fn {
	case "row_number", "rank", "dense_rank":
		vals := make([]int64, n)
		var rn, rank, dense int64
		for i := range n {
			if w.fr.partStart[i] {
				rn, dense = 0, 0
			}
			rn++
			if w.fr.peerStart[i] {
				rank = rn
				dense++
			}
			switch f.Fn {
			case "row_number":
				vals[i] = rn
			case "rank":
				vals[i] = rank
			default:
				vals[i] = dense
			}
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	case "percent_rank", "cume_dist":
		// percent_rank: (rank - 1) / (rows - 1), 0 for a one-row partition;
		// cume_dist: rows up to the current one's last peer / rows.
		vals := make([]float64, n)
		for i := range n {
			size := float64(l.pe[i] - l.ps[i])
			if f.Fn == "cume_dist" {
				vals[i] = float64(l.ge[i]-l.ps[i]) / size
			} else if size > 1 {
				vals[i] = float64(l.gs[i]-l.ps[i]) / (size - 1)
			}
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	case "ntile":
		// MySQL's and DuckDB's split: the first size%N buckets hold one
		// row more than the others.
		vals := make([]int64, n)
		for i := range n {
			vals[i], _ = ntileOf(int64(int32(i)-l.ps[i]), int64(l.pe[i]-l.ps[i]), f.N)
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	case "lag", "lead":
		return windowLagLead(w, f, args)
	}
	ps, err := w.parts(f.Frame)
	if err != nil {
		return nil, err
	}
	if f.Fn == "count_star" {
		vals := make([]int64, n)
		for i := range n {
			vals[i] = rowsIn(ps, i, nil)
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	}
	a, err := args[0].eval(c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	var order sortKeys
	if w.inner != nil {
		keys, arrs, err := w.inner.build(c, w.b)
		if err != nil {
			return nil, err
		}
		defer releaseArrays(arrs)
		order = keys
	}
	if f.Distinct && f.Fn != "min" && f.Fn != "max" {
		return windowMoreAgg(c, f, a, ps, order)
	}
	switch f.Fn {
	case "first_value", "last_value", "nth_value":
		per, err := w.perRowCounts(f, args)
		if err != nil {
			return nil, err
		}
		if per != nil {
			defer per.Release()
		}
		return TakeArray(c.Alloc, a, pickValue(f, a, ps, per)), nil
	case "count":
		cnt := prefixCounts(a)
		vals := make([]int64, n)
		for i := range n {
			vals[i] = rowsIn(ps, i, cnt)
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	case "count_distinct":
		vals, err := windowCountDistinct(c, a, ps)
		if err != nil {
			return nil, err
		}
		return aggArray(c.Alloc, f.Type, vals, nil), nil
	case "min", "max":
		return windowMinMax(c, a, f.Fn == "max", ps)
	case "sum", "avg":
		return windowSumAvg(c, f, a, ps)
	}
	return windowMoreAgg(c, f, a, ps, order)
}

// windowLagLead reads the value n rows before (lag) or after (lead) in the
// partition, or the default (args[1], evaluated at the current row).
func windowLagLead(w *windowEnv, f WindowFunc, args []compiledExpr) (arrow.Array, error) {
	c, l := w.c, w.l
	a, err := args[0].eval(c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	d, err := args[1].eval(c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	n := a.Len()
	both, err := array.Concatenate([]arrow.Array{a, d}, c.Alloc)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "window %s", f.Fn)
	}
	defer both.Release()
	per, err := w.perRowCounts(f, args)
	if err != nil {
		return nil, err
	}
	if per != nil {
		defer per.Release()
	}
	pick := make([]int32, n)
	var pos, cnt []int32
	if f.IgnoreNulls {
		pos, cnt = nonNullPositions(a)
	}
	for i := range n {
		lead, off := f.Fn == "lead", f.N
		if per != nil {
			if per.IsNull(i) {
				pick[i] = -1 // DuckDB's: a NULL offset gives NULL, not the default
				continue
			}
			// A negative offset reads the other way (lag(x, -k) is
			// lead(x, k)); beyond the batch it is as far as the batch.
			if off = per.Value(i); off < 0 {
				lead, off = !lead, -max(off, -int64(n))
			}
			off = min(off, int64(n))
		}
		j := int64(i) - off
		if lead {
			j = int64(i) + off
		}
		if f.IgnoreNulls && off > 0 {
			// The N-th non-NULL value before (after) row i, within its
			// partition: pos[k] for k counted among the non-NULL rows.
			k := int64(cnt[i]) - off
			lo, hi := int64(cnt[l.ps[i]]), int64(cnt[l.pe[i]])
			if lead {
				k = int64(cnt[i+1]) + off - 1
			}
			j = int64(n + i)
			if k >= lo && k < hi {
				j = int64(pos[k])
			}
			pick[i] = int32(j)
			continue
		}
		if j < int64(l.ps[i]) || j >= int64(l.pe[i]) {
			j = int64(n + i) // the default
		}
		pick[i] = int32(j)
	}
	return TakeArray(c.Alloc, both, pick), nil
}

// perRowCounts evaluates f's count read at each row (lag's and lead's
// offset, nth_value's n: PerRowN), nil where f has none; the caller
// releases it.
func (w *windowEnv) perRowCounts(f WindowFunc, args []compiledExpr) (*array.Int64, error) {
	k := PerRowN(f)
	if k < 0 {
		return nil, nil
	}
	a, err := args[k].eval(w.c.Alloc, w.b)
	if err != nil {
		return nil, err
	}
	per, ok := a.(*array.Int64)
	if !ok {
		a.Release()
		return nil, errs.New(errs.Internal, "window %s: a per-row count of %s", f.Fn, a.DataType())
	}
	return per, nil
}

// nonNullPositions lists the rows of a holding a value (pos) and, as
// prefixCounts, how many of a's first i rows do (cnt).
func nonNullPositions(a arrow.Array) (pos, cnt []int32) {
	cnt = prefixCounts(a)
	pos = make([]int32, 0, cnt[a.Len()])
	for i := range a.Len() {
		if a.IsValid(i) {
			pos = append(pos, int32(i))
		}
	}
	return pos, cnt
}

// pickValue is first_value's, last_value's or nth_value's row per row
// (-1: NULL): the first, last or N-th row of the frame's parts or, with
// IGNORE NULLS, of those of their rows that hold a value. per, where not
// nil, is nth_value's n at each row (NULL or below 1: NULL).
func pickValue(f WindowFunc, a arrow.Array, ps []bounds, per *array.Int64) []int32 {
	var pos, cnt []int32
	if f.IgnoreNulls {
		pos, cnt = nonNullPositions(a)
	}
	// run is part p's candidate rows for row i: positions [lo, hi) of pos,
	// or rows [lo, hi) themselves.
	run := func(p bounds, i int) (lo, hi int64) {
		if p.fe[i] <= p.fs[i] {
			return 0, 0
		}
		if f.IgnoreNulls {
			return int64(cnt[p.fs[i]]), int64(cnt[p.fe[i]])
		}
		return int64(p.fs[i]), int64(p.fe[i])
	}
	at := func(k int64) int32 {
		if f.IgnoreNulls {
			return pos[k]
		}
		return int32(k)
	}
	pick := make([]int32, a.Len())
	for i := range pick {
		pick[i] = -1
		switch f.Fn {
		case "last_value":
			for p := len(ps) - 1; p >= 0; p-- {
				if lo, hi := run(ps[p], i); hi > lo {
					pick[i] = at(hi - 1)
					break
				}
			}
		default: // first_value is nth_value 1
			k := int64(1)
			if f.Fn == "nth_value" {
				k = f.N
				if per != nil {
					if k = per.Value(i); per.IsNull(i) || k < 1 {
						continue
					}
				}
			}
			for _, p := range ps {
				lo, hi := run(p, i)
				if hi-lo >= k {
					pick[i] = at(lo + k - 1)
					break
				}
				k -= max(hi-lo, 0)
			}
		}
	}
	return pick
}

// prefixCounts[i] is the number of non-NULL values among a's first i.
func prefixCounts(a arrow.Array) []int32 {
	n := a.Len()
	cnt := make([]int32, n+1)
	for i := range n {
		cnt[i+1] = cnt[i]
		if a.IsValid(i) {
			cnt[i+1]++
		}
	}
	return cnt
}

// windowMinMax answers each frame from a segment tree over row numbers
// (the extreme row of each node), so a frame of any size costs O(log n)
// and the values, of any type, are gathered once at the end.
func windowMinMax(c *Context, a arrow.Array, isMax bool, ps []bounds) (arrow.Array, error) {
	cols, err := newSortCols(a, isMax, false)
	if err != nil {
		return nil, err
	}
	keys := sortKeys(cols)
	better := func(x, y int32) int32 {
		switch {
		case x < 0:
			return y
		case y < 0:
			return x
		case compareRows(keys, y, keys, x) < 0:
			return y
		}
		return x
	}
	n := a.Len()
	size := 1
	for size < n {
		size <<= 1
	}
	tree := make([]int32, 2*size)
	for i := range tree {
		tree[i] = -1
	}
	for i := range n {
		if a.IsValid(i) {
			tree[size+i] = int32(i)
		}
	}
	for i := size - 1; i >= 1; i-- {
		tree[i] = better(tree[2*i], tree[2*i+1])
	}
	pick := make([]int32, n)
	for i := range n {
		best := int32(-1)
		for _, b := range ps {
			lo, hi := int(b.fs[i])+size, int(b.fe[i])+size
			for lo < hi {
				if lo&1 == 1 {
					best = better(best, tree[lo])
					lo++
				}
				if hi&1 == 1 {
					hi--
					best = better(best, tree[hi])
				}
				lo, hi = lo>>1, hi>>1
			}
		}
		pick[i] = best
	}
	return TakeArray(c.Alloc, a, pick), nil
}

// windowSumAvg computes sums and averages over frames. Integer and decimal
// arguments are summed exactly (128-bit prefix sums, so a frame's sum
// costs O(1) whatever its size); a frame sum outside int64 is the same
// error as GROUP BY's. The result is rescaled to the type's scale,
// averages rounding half away from zero. DOUBLE sums come from a segment
// tree rather than prefix differences, which would cancel badly (and turn
// an infinity into NaN for every later frame).
func windowSumAvg(c *Context, f WindowFunc, a arrow.Array, ps []bounds) (arrow.Array, error) {
	n := a.Len()
	isAvg := f.Fn == "avg"
	valid := make([]bool, n)
	cnt := prefixCounts(a)
	if f.Type.ID() == arrow.FLOAT64 {
		fv, err := floatValues(a)
		if err != nil {
			return nil, err
		}
		sums := floatFrameSums(a, fv, ps[0])
		for _, p := range ps[1:] {
			for i, s := range floatFrameSums(a, fv, p) {
				sums[i] += s
			}
		}
		out := make([]float64, n)
		for i := range n {
			k := rowsIn(ps, i, cnt)
			if k == 0 {
				continue
			}
			valid[i] = true
			out[i] = sums[i]
			if isAvg {
				out[i] /= float64(k)
			}
		}
		return aggArray(c.Alloc, f.Type, out, valid), nil
	}
	if f.Type.ID() == arrow.DECIMAL128 || a.DataType().ID() == arrow.DECIMAL128 {
		return windowSumAvgWide(c, f, a, ps, cnt)
	}
	iv, inScale, err := intValues(a)
	if err != nil {
		return nil, err
	}
	outScale := int32(0)
	if d, ok := f.Type.(*arrow.Decimal64Type); ok {
		outScale = d.Scale
	}
	mul, div := int64(1), int64(1)
	if outScale >= inScale {
		mul = pow10(outScale - inScale)
	} else {
		div = pow10(inScale - outScale)
	}
	pre := make([]i128, n+1)
	for i := range n {
		pre[i+1] = pre[i]
		if a.IsValid(i) {
			pre[i+1] = pre[i+1].add(i128From(iv[i]))
		}
	}
	out := make([]int64, n)
	for i := range n {
		k := rowsIn(ps, i, cnt)
		if k == 0 {
			continue
		}
		var total i128
		for _, b := range ps {
			if b.fe[i] > b.fs[i] {
				total = total.add(pre[b.fe[i]].sub(pre[b.fs[i]]))
			}
		}
		sum, ok := total.int64()
		if !ok {
			return nil, errSumOverflow
		}
		d := div
		if isAvg {
			d *= k
		}
		v, ok := expr.MulDivRound(sum, mul, d)
		if !ok {
			return nil, errSumOverflow
		}
		out[i], valid[i] = v, true
	}
	return aggArray(c.Alloc, f.Type, out, valid), nil
}

// windowSumAvgWide is windowSumAvg where the argument or the result is
// DECIMAL(38): frame sums from 128-bit prefix sums that also count the
// times they wrapped (a Decimal128 argument's running sum can pass 2^127
// where no frame's sum does), so each frame's sum is exact or known not
// to fit; averages round as avgRound128.
func windowSumAvgWide(c *Context, f WindowFunc, a arrow.Array, ps []bounds, cnt []int32) (arrow.Array, error) {
	n := a.Len()
	inScale, outScale := decScale(a.DataType()), decScale(f.Type)
	k := outScale - inScale
	if k < 0 || k > 18 {
		return nil, errs.New(errs.Unsupported, "window %s of %s as %s", f.Fn, a.DataType(), f.Type)
	}
	mul := pow10(k)
	// pre[i] + wraps[i]*2^128 is the sum of the first i values.
	pre := make([]i128, n+1)
	wraps := make([]int64, n+1)
	switch x := a.(type) {
	case *array.Decimal128:
		for i, v := range x.Values() {
			pre[i+1], wraps[i+1] = pre[i], wraps[i]
			if x.IsValid(i) {
				w := i128{hi: v.HighBits(), lo: v.LowBits()}
				r := pre[i].add(w)
				if (pre[i].hi^r.hi)&(w.hi^r.hi) < 0 { // past ±2^127
					wraps[i+1] += w.hi>>63 | 1
				}
				pre[i+1] = r
			}
		}
	default:
		iv, _, err := intValues(a)
		if err != nil {
			return nil, err
		}
		for i := range n {
			pre[i+1] = pre[i]
			if a.IsValid(i) {
				pre[i+1] = pre[i+1].add(i128From(iv[i]))
			}
		}
	}
	valid := make([]bool, n)
	nums := make([]decimal128.Num, n)
	for i := range n {
		rows := rowsIn(ps, i, cnt)
		if rows == 0 {
			continue
		}
		// The frame's parts (several with EXCLUDE), each summed from the
		// prefix sums, then added without passing ±2^127.
		var total i128
		for _, b := range ps {
			if b.fe[i] <= b.fs[i] {
				continue
			}
			e, s := pre[b.fe[i]], pre[b.fs[i]]
			d := e.sub(s)
			// The difference of the signed values, before wrapping, is
			// d + carry*2^128; the part's sum fits when the wraps cancel.
			carry := int64(0)
			if (e.hi^s.hi)&(e.hi^d.hi) < 0 {
				carry = e.hi>>63 | 1
			}
			if wraps[b.fe[i]]-wraps[b.fs[i]]+carry != 0 {
				return nil, errWideSumOverflow
			}
			r := total.add(d)
			if (total.hi^r.hi)&(d.hi^r.hi) < 0 {
				return nil, errWideSumOverflow
			}
			total = r
		}
		sum := total.num()
		v, ok := sum, true
		if f.Fn == "avg" || mul > 1 {
			div := int64(1)
			if f.Fn == "avg" {
				div = rows
			}
			v, ok = avgRound128(sum, mul, div)
		}
		if !ok || !fitsDigits(v, maxDecimalDigits) {
			return nil, errWideSumOverflow
		}
		nums[i], valid[i] = v, true
	}
	return wideArray(c.Alloc, f.Type, nums, valid)
}

// floatFrameSums sums each row's frame of fv (NULLs skipped). A running
// frame (start fixed, end moving forward) adds in row order, as a GROUP BY
// would; other frames read a segment tree of partial sums.
func floatFrameSums(a arrow.Array, fv []float64, b bounds) []float64 {
	n := len(fv)
	val := func(i int) float64 {
		if a.IsValid(i) {
			return fv[i]
		}
		return 0
	}
	out := make([]float64, n)
	size := 1
	for size < n {
		size <<= 1
	}
	var tree []float64
	run, runS, runE := 0.0, int32(-1), int32(-1)
	for i := range n {
		s, e := b.fs[i], b.fe[i]
		if s == runS && e >= runE {
			for j := runE; j < e; j++ {
				run += val(int(j))
			}
			runE = e
			out[i] = run
			continue
		}
		if i+1 < n && b.fs[i+1] == s && e <= b.fe[i+1] {
			// This row opens a run.
			run, runS, runE = 0, s, s
			for j := s; j < e; j++ {
				run += val(int(j))
			}
			runE = e
			out[i] = run
			continue
		}
		if tree == nil {
			tree = make([]float64, 2*size)
			for j := range n {
				tree[size+j] = val(j)
			}
			for j := size - 1; j >= 1; j-- {
				tree[j] = tree[2*j] + tree[2*j+1]
			}
		}
		var sum float64
		lo, hi := int(s)+size, int(e)+size
		for lo < hi {
			if lo&1 == 1 {
				sum += tree[lo]
				lo++
			}
			if hi&1 == 1 {
				hi--
				sum += tree[hi]
			}
			lo, hi = lo>>1, hi>>1
		}
		out[i] = sum
	}
	return out
}

func intValues(a arrow.Array) ([]int64, int32, error) {
	switch x := a.(type) {
	case *array.Int64:
		return x.Int64Values(), 0, nil
	case *array.Decimal64:
		return int64View(x.Values()), x.DataType().(*arrow.Decimal64Type).Scale, nil
	}
	return nil, 0, errs.New(errs.Internal, "window sum/avg of %s", a.DataType())
}

func floatValues(a arrow.Array) ([]float64, error) {
	switch x := a.(type) {
	case *array.Float64:
		return x.Float64Values(), nil
	case *array.Int64, *array.Decimal64:
		iv, scale, _ := intValues(a)
		f := make([]float64, len(iv))
		for i, v := range iv {
			f[i] = expr.DecimalToFloat64(v, scale)
		}
		return f, nil
	case *array.Decimal128:
		scale := x.DataType().(*arrow.Decimal128Type).Scale
		f := make([]float64, x.Len())
		for i, v := range x.Values() {
			f[i] = expr.Decimal128ToFloat64(v, scale)
		}
		return f, nil
	}
	return nil, errs.New(errs.Internal, "window sum/avg of %s", a.DataType())
}

func pow10(k int32) int64 {
	p := int64(1)
	for range k {
		p *= 10
	}
	return p
}
