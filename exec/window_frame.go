package exec

import (
	"math/big"
	"math/bits"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
	"gq/expr"
)

// FrameBound is one end of a window frame. ROWS: Rows rows from the
// current one; GROUPS: Rows peer groups from the current row's. RANGE over a number key: Float, and where the offset is an
// integer or decimal also Int unscaled at Scale (Exact) so that integer and
// decimal keys compare exactly; over a DATE key: Int days, or months when
// Months.
type FrameBound struct {
	Kind   expr.FrameKind
	Rows   int64
	Float  float64
	Int    int64
	Scale  int32
	Exact  bool
	Months bool
	// PerRow (ROWS): the offset is WindowFunc.FrameOffs' value at each
	// row, not Rows.
	PerRow bool
}

// WindowFrame is the frame an aggregate or value function reads. The zero
// value (which would end at UNBOUNDED PRECEDING, never a frame) stands for
// the default, RANGE UNBOUNDED PRECEDING to CURRENT ROW.
type WindowFrame struct {
	Rows bool
	// Groups (Rows false): offsets count peer groups (the SQL standard's
	// GROUPS); CURRENT ROW is the peer group, as for RANGE.
	Groups     bool
	Start, End FrameBound
	Exclude    expr.FrameExclude
}

// layout holds, for each row in sorted order, the bounds of its partition
// [ps, pe) and of its peer group [gs, ge).
type layout struct {
	ps, pe, gs, ge []int32
}

func (fr frames) layout() layout {
	n := len(fr.partStart)
	l := layout{ps: make([]int32, n), pe: make([]int32, n), gs: make([]int32, n), ge: make([]int32, n)}
	for i := 0; i < n; {
		j := i + 1
		for j < n && !fr.partStart[j] {
			j++
		}
		for k := i; k < j; k++ {
			l.ps[k], l.pe[k] = int32(i), int32(j)
		}
		i = j
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && !fr.peerStart[j] {
			j++
		}
		for k := i; k < j; k++ {
			l.gs[k], l.ge[k] = int32(i), int32(j)
		}
		i = j
	}
	return l
}

// bounds is each row's frame [fs, fe), empty where fe <= fs.
type bounds struct {
	fs, fe []int32
}

// frameBounds computes every row's frame. key is the single ORDER BY key
// in sorted order (RANGE frames with an offset only), desc its direction;
// offs the per-row offsets of PerRow bounds (start, end), in sorted order.
func frameBounds(l layout, f WindowFrame, key arrow.Array, desc bool, offs [2]arrow.Array) (bounds, error) {
	if f == (WindowFrame{}) {
		f.End.Kind = expr.CurrentRow
	}
	n := len(l.ps)
	b := bounds{fs: make([]int32, n), fe: make([]int32, n)}
	var rk *rangeKey
	var pg *peerGroups
	switch {
	case f.Groups && (isOffset(f.Start.Kind) || isOffset(f.End.Kind)):
		pg = newPeerGroups(l)
	case !f.Rows && (isOffset(f.Start.Kind) || isOffset(f.End.Kind)):
		if key == nil {
			return b, errs.New(errs.Internal, "window RANGE frame with an offset but no ORDER BY key")
		}
		var err error
		if rk, err = newRangeKey(key, desc, f, l); err != nil {
			return b, err
		}
	}
	var per [2][]int64
	for k, fb := range []FrameBound{f.Start, f.End} {
		if !fb.PerRow {
			continue
		}
		a, ok := offs[k].(*array.Int64)
		if !ok || a.Len() != n {
			return b, errs.New(errs.Internal, "window frame offsets missing")
		}
		if a.NullN() > 0 {
			return b, errs.New(errs.Binding, "a window frame offset is NULL")
		}
		per[k] = a.Int64Values()
	}
	for i := range n {
		start, end := f.Start, f.End
		if per[0] != nil {
			start.Rows = per[0][i]
		}
		if per[1] != nil {
			end.Rows = per[1][i]
		}
		b.fs[i] = boundAt(l, f.Rows, start, false, i, rk, pg)
		b.fe[i] = boundAt(l, f.Rows, end, true, i, rk, pg)
		if b.fe[i] < b.fs[i] {
			b.fe[i] = b.fs[i]
		}
	}
	return b, nil
}

func isOffset(k expr.FrameKind) bool { return k == expr.OffsetPreceding || k == expr.OffsetFollowing }

// boundAt is row i's frame start (end false) or exclusive end, clamped to
// its partition. rk: a RANGE frame's key, pg: a GROUPS frame's groups
// (where an offset needs them).
func boundAt(l layout, rows bool, fb FrameBound, end bool, i int, rk *rangeKey, pg *peerGroups) int32 {
	ps, pe := int64(l.ps[i]), int64(l.pe[i])
	var v int64
	switch fb.Kind {
	case expr.UnboundedPreceding:
		return int32(ps)
	case expr.UnboundedFollowing:
		return int32(pe)
	case expr.CurrentRow:
		switch {
		case rows && end:
			return int32(i + 1)
		case rows:
			return int32(i)
		case end:
			return l.ge[i]
		default:
			return l.gs[i]
		}
	}
	if pg != nil {
		return pg.bound(l, fb, end, i)
	}
	if !rows {
		return rk.bound(l, fb, end, i)
	}
	// Clamped, which keeps i ± off inside int64; a negative offset (a
	// per-row one) counts the other way, as DuckDB's does.
	off := min(max(fb.Rows, ps-pe), pe-ps)
	if fb.Kind == expr.OffsetPreceding {
		v = int64(i) - off
	} else {
		v = int64(i) + off
	}
	if end {
		v++
	}
	return int32(min(max(v, ps), pe))
}

// peerGroups numbers the batch's peer groups in row order: gn is each
// row's group, start and end each group's rows [start, end).
type peerGroups struct {
	gn, start, end []int32
}

func newPeerGroups(l layout) *peerGroups {
	n := len(l.gs)
	pg := &peerGroups{gn: make([]int32, n)}
	for i := 0; i < n; i = int(l.ge[i]) {
		g := int32(len(pg.start))
		pg.start, pg.end = append(pg.start, l.gs[i]), append(pg.end, l.ge[i])
		for k := i; k < int(l.ge[i]); k++ {
			pg.gn[k] = g
		}
	}
	return pg
}

// bound is row i's GROUPS bound for an offset: the first row (start) or
// the end (end) of the peer group that many groups before or after row
// i's, clamped to its partition.
func (pg *peerGroups) bound(l layout, fb FrameBound, end bool, i int) int32 {
	ps, pe := l.ps[i], l.pe[i]
	first, last := int64(pg.gn[ps]), int64(pg.gn[pe-1])
	off := min(max(fb.Rows, 0), last-first+1) // keeps g inside int64
	g := int64(pg.gn[i])
	if fb.Kind == expr.OffsetPreceding {
		g -= off
	} else {
		g += off
	}
	switch {
	case g < first:
		return ps
	case g > last:
		return pe
	case end:
		return pg.end[g]
	}
	return pg.start[g]
}

// rangeKey holds the ORDER BY key of a RANGE frame with an offset in a
// form offsets add to exactly: 128-bit integers at a common decimal scale
// (integer, decimal and date keys with exact offsets) or float64.
type rangeKey struct {
	desc    bool
	valid   []bool
	ints    []i128 // scaled keys, or nil for float keys
	floats  []float64
	scale   int32
	keyMul  uint64 // 10^(scale - key's scale)
	isDate  bool
	dayKeys []arrow.Date32 // date keys, for month offsets
	// nnS, nnE: the rows of each row's partition whose key is not NULL
	// (NULLs sort together at one end).
	nnS, nnE []int32
}

func newRangeKey(key arrow.Array, desc bool, f WindowFrame, l layout) (*rangeKey, error) {
	n := key.Len()
	rk := &rangeKey{desc: desc, valid: make([]bool, n), nnS: make([]int32, n), nnE: make([]int32, n)}
	for i := range n {
		rk.valid[i] = key.IsValid(i)
	}
	exact := true
	for _, fb := range []FrameBound{f.Start, f.End} {
		if isOffset(fb.Kind) {
			exact = exact && fb.Exact
			rk.scale = max(rk.scale, fb.Scale)
		}
	}
	switch a := key.(type) {
	case *array.Float64:
		rk.floats = a.Float64Values()
	case *array.Date32:
		rk.isDate = true
		rk.dayKeys = a.Date32Values()
		rk.ints = make([]i128, n)
		for i, v := range rk.dayKeys {
			rk.ints[i] = i128From(int64(v))
		}
		rk.scale = 0
	case *array.Int64, *array.Decimal64:
		iv, ks, _ := intValues(key)
		if !exact {
			rk.floats = make([]float64, n)
			for i, v := range iv {
				rk.floats[i] = expr.DecimalToFloat64(v, ks)
			}
			break
		}
		rk.scale = max(rk.scale, ks)
		rk.keyMul = uint64(pow10(rk.scale - ks))
		rk.ints = make([]i128, n)
		for i, v := range iv {
			rk.ints[i] = mul128(v, rk.keyMul)
		}
	case *array.Decimal128:
		ks := a.DataType().(*arrow.Decimal128Type).Scale
		if !exact {
			rk.floats = make([]float64, n)
			for i, v := range a.Values() {
				rk.floats[i] = expr.Decimal128ToFloat64(v, ks)
			}
			break
		}
		rk.scale = max(rk.scale, ks)
		rk.keyMul = uint64(pow10(rk.scale - ks))
		rk.ints = make([]i128, n)
		m := new(big.Int).SetUint64(rk.keyMul)
		for i, v := range a.Values() {
			if rk.keyMul == 1 {
				rk.ints[i] = i128{hi: v.HighBits(), lo: v.LowBits()}
				continue
			}
			x := v.BigInt()
			if x.Mul(x, m).BitLen() > 126 { // room left for the offsets
				return nil, errs.New(errs.Unsupported, "window RANGE offset of scale %d over the DECIMAL(38) key %s", rk.scale, v.ToString(ks))
			}
			w := decimal128.FromBigInt(x)
			rk.ints[i] = i128{hi: w.HighBits(), lo: w.LowBits()}
		}
	default:
		return nil, errs.New(errs.Internal, "window RANGE frame over %s", key.DataType())
	}
	// Each partition's non-NULL run.
	for i := 0; i < n; {
		ps, pe := int(l.ps[i]), int(l.pe[i])
		s, e := ps, pe
		for s < e && !rk.valid[s] {
			s++
		}
		for e > s && !rk.valid[e-1] {
			e--
		}
		for k := ps; k < pe; k++ {
			rk.nnS[k], rk.nnE[k] = int32(s), int32(e)
		}
		i = pe
	}
	return rk, nil
}

// bound is row i's RANGE bound for an offset: the first row of the
// non-NULL run whose key is at or past (end: past) the target value
// current ∓ offset in the ORDER BY direction. A row whose key is NULL has
// its NULL peers as offset bounds (the SQL standard's rule, DuckDB's too).
func (rk *rangeKey) bound(l layout, fb FrameBound, end bool, i int) int32 {
	if !rk.valid[i] {
		if end {
			return l.ge[i]
		}
		return l.gs[i]
	}
	s, e := int(rk.nnS[i]), int(rk.nnE[i])
	// toward: the target lies before the current value in sort order.
	toward := fb.Kind == expr.OffsetPreceding
	// In value terms the target is smaller for PRECEDING over ASC and for
	// FOLLOWING over DESC.
	smaller := toward != rk.desc
	// past(j): row j sorts after the target (end) or at/after it (start).
	var past func(j int) bool
	if rk.floats != nil {
		off := fb.Float
		t := rk.floats[i]
		if smaller {
			t -= off
		} else {
			t += off
		}
		past = func(j int) bool {
			v := rk.floats[j]
			if rk.desc {
				if end {
					return v < t
				}
				return v <= t
			}
			if end {
				return v > t
			}
			return v >= t
		}
	} else {
		var t i128
		switch {
		case rk.isDate && fb.Months:
			m := fb.Int
			if smaller {
				m = -m
			}
			t = i128From(int64(expr.AddMonths(int32(rk.dayKeys[i]), m)))
		default:
			off := mul128(fb.Int, uint64(pow10(rk.scale-fb.Scale)))
			if smaller {
				off = off.neg()
			}
			t = rk.ints[i].add(off)
		}
		past = func(j int) bool {
			c := rk.ints[j].cmp(t)
			if rk.desc {
				c = -c
			}
			if end {
				return c > 0
			}
			return c >= 0
		}
	}
	return int32(s + sort.Search(e-s, func(k int) bool { return past(s + k) }))
}

// i128 is a signed 128-bit integer: exact sums of int64 values and scaled
// RANGE keys.
type i128 struct {
	hi int64
	lo uint64
}

func i128From(v int64) i128 { return i128{hi: v >> 63, lo: uint64(v)} }

func (a i128) add(b i128) i128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return i128{hi: a.hi + b.hi + int64(c), lo: lo}
}

func (a i128) sub(b i128) i128 { return a.add(b.neg()) }

func (a i128) neg() i128 {
	lo := ^a.lo + 1
	hi := ^a.hi
	if lo == 0 {
		hi++
	}
	return i128{hi: hi, lo: lo}
}

func (a i128) cmp(b i128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// int64 returns a as an int64 where it fits.
func (a i128) int64() (int64, bool) {
	v := int64(a.lo)
	return v, a.hi == v>>63
}

// mul128 is v*m exactly.
func mul128(v int64, m uint64) i128 {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	hi, lo := bits.Mul64(u, m)
	r := i128{hi: int64(hi), lo: lo}
	if v < 0 {
		r = r.neg()
	}
	return r
}
