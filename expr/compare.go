package expr

import (
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type cmpOp int

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

var cmpOps = map[string]cmpOp{"eq": opEq, "ne": opNe, "lt": opLt, "le": opLe, "gt": opGt, "ge": opGe}

// flip gives the operator with its operands swapped (a < b ⇔ b > a).
func (o cmpOp) flip() cmpOp {
	switch o {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return o
}

// cmpNode compares two values of one physical kind; a literal is always
// on the right (the planner's `lit < col` is flipped at compile time).
type cmpNode struct {
	op   cmpOp
	l, r node
	// up > 1: l and r are Int64 or Decimal of different scales, compared
	// as l·up op r exactly (see newScaledCompare).
	up int64
}

// newScaledCompare compares Int64 and Decimal values of scales ls and rs
// exactly. Casting both to one decimal type is not: a BIGINT such as
// 9223372036854775807 has no DECIMAL(18,1) value, and DuckDB and MySQL
// compare it with 1.5 all the same. A literal is folded to a comparison at
// the other side's own scale; two non-literals compare row by row by range.
func newScaledCompare(op cmpOp, l, r node, ls, rs int32) node {
	if ls > rs {
		l, r, op, ls, rs = r, l, op.flip(), rs, ls
	}
	p := pow10[rs-ls]
	if lit, ok := r.(*litNode); ok {
		if lit.v.null {
			return &litNode{t: Boolean, v: scalar{null: true}}
		}
		// l·p op y ⇔ l op y/p; with y/p = q + rem/p (0 ≤ rem < p) and l a
		// whole number at its scale, a remainder decides = and ≠, and
		// moves < and ≥ to ≤ q and > q.
		q, rem := lit.v.i/p, lit.v.i%p
		if rem < 0 {
			q, rem = q-1, rem+p
		}
		if rem != 0 {
			switch op {
			case opEq, opNe:
				return constCompare(l, op == opNe)
			case opLt:
				op = opLe
			case opGe:
				op = opGt
			}
		}
		return &cmpNode{op: op, l: l, r: &litNode{t: l.typ(), v: scalar{i: q}}}
	}
	if lit, ok := l.(*litNode); ok {
		if lit.v.null {
			return &litNode{t: Boolean, v: scalar{null: true}}
		}
		if x, ok := mulExact(lit.v.i, p); ok {
			return &cmpNode{op: op.flip(), l: r, r: &litNode{t: r.typ(), v: scalar{i: x}}}
		}
		// lit·p is beyond every int64, so beyond every value of r.
		sign := 1
		if lit.v.i < 0 {
			sign = -1
		}
		return constCompare(r, cmpResult(op, sign))
	}
	if p == 1 {
		return &cmpNode{op: op, l: l, r: r}
	}
	return &cmpNode{op: op, l: l, r: r, up: p}
}

// constCompare is v for every row where the Int64 or Decimal x is not
// NULL, and NULL where it is: x ≤ MaxInt64 or x < MinInt64.
func constCompare(x node, v bool) node {
	if v {
		return &cmpNode{op: opLe, l: x, r: &litNode{t: x.typ(), v: scalar{i: math.MaxInt64}}}
	}
	return &cmpNode{op: opLt, l: x, r: &litNode{t: x.typ(), v: scalar{i: math.MinInt64}}}
}

// mulExact is x·p for p ≥ 1, and false when that overflows an int64.
func mulExact(x, p int64) (int64, bool) {
	if p == 1 {
		return x, true
	}
	if lim := math.MaxInt64 / p; x > lim || x < -lim {
		return 0, false
	}
	return x * p, true
}

func newCompare(call *Call, l, r node) (node, error) {
	op := cmpOps[call.Fn]
	lt, rt := l.typ(), r.typ()
	if lt.ID() == arrow.NULL || rt.ID() == arrow.NULL {
		return &litNode{t: Boolean, v: scalar{null: true}}, nil
	}
	var err error
	switch {
	case isNumeric(lt) && isNumeric(rt):
		if lt.ID() != arrow.FLOAT64 && rt.ID() != arrow.FLOAT64 && (isWide(lt) || isWide(rt)) {
			return &wideCmpNode{op: op, l: l, r: r, ls: ScaleOf(lt), rs: ScaleOf(rt)}, nil
		}
		if lt.ID() == arrow.FLOAT64 || rt.ID() == arrow.FLOAT64 {
			if l, err = toType(l, Float64); err != nil {
				return nil, err
			}
			if r, err = toType(r, Float64); err != nil {
				return nil, err
			}
		} else if ls, rs := ScaleOf(lt), ScaleOf(rt); ls != rs || lt.ID() != rt.ID() {
			return newScaledCompare(op, l, r, ls, rs), nil
		}
	case lt.ID() == arrow.BOOL && rt.ID() == arrow.BOOL:
		if l, err = toType(l, Int64); err != nil {
			return nil, err
		}
		if r, err = toType(r, Int64); err != nil {
			return nil, err
		}
	case lt.ID() == rt.ID() && (lt.ID() == arrow.DATE32 || lt.ID() == arrow.STRING):
	case isTemporal64(lt) && arrow.TypeEqual(lt, rt):
	case lt.ID() == arrow.INTERVAL_MONTH_DAY_NANO && rt.ID() == arrow.INTERVAL_MONTH_DAY_NANO:
	default:
		return nil, argErr(call, "cannot compare %s with %s", lt, rt)
	}
	if _, ok := l.(*litNode); ok {
		if _, ok := r.(*litNode); !ok {
			l, r, op = r, l, op.flip()
		}
	}
	return &cmpNode{op: op, l: l, r: r}, nil
}

// toType converts n to t when needed (a cast node, folded for literals).
func toType(n node, t arrow.DataType) (node, error) {
	if arrow.TypeEqual(n.typ(), t) || sameFamily(n.typ(), t) {
		return n, nil
	}
	c, err := newCast(n, t)
	if err != nil {
		return nil, err
	}
	if _, ok := n.(*litNode); ok {
		return fold(c), nil
	}
	return c, nil
}

func (n *cmpNode) typ() arrow.DataType { return Boolean }

func (n *cmpNode) operands(c *ctx, b arrow.RecordBatch) (operand, operand, error) {
	l, err := evalOperand(c, b, n.l)
	if err != nil {
		return operand{}, operand{}, err
	}
	r, err := evalOperand(c, b, n.r)
	if err != nil {
		l.release()
		return operand{}, operand{}, err
	}
	if l.sc != nil && !l.sc.null && r.sc != nil {
		l = operand{arr: materialize(c, n.l.typ(), l)}
	}
	return l, r, nil
}

func (n *cmpNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	l, r, err := n.operands(c, b)
	if err != nil {
		return nil, err
	}
	defer l.release()
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return dst, nil
	}
	dst = n.sel(l, r, cand, dst)
	dst = dropNulls(l.arr, cand, dst)
	return dropNulls(r.arr, cand, dst), nil
}

func (n *cmpNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	l, r, err := n.operands(c, b)
	if err != nil {
		return nil, err
	}
	defer l.release()
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return allNull(c, Boolean), nil
	}
	sel := n.sel(l, r, nil, make([]int32, 0, c.n))
	return boolFromSel(c.mem, c.n, sel, mergeValidity(c.mem, c.n, l.arr, r.arr)), nil
}

// sel runs the typed comparison loop, ignoring validity.
func (n *cmpNode) sel(l, r operand, cand, dst []int32) []int32 {
	switch n.l.typ().ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		if n.up > 1 {
			return selScaled(n.op, i64s(l.arr), i64s(r.arr), n.up, cand, dst)
		}
		if r.sc != nil {
			return selLit(n.op, i64s(l.arr), r.sc.i, cand, dst)
		}
		return selArr(n.op, i64s(l.arr), i64s(r.arr), cand, dst)
	case arrow.FLOAT64:
		if r.sc != nil {
			return selLitF64(n.op, f64s(l.arr), r.sc.f, cand, dst)
		}
		return selArrF64(n.op, f64s(l.arr), f64s(r.arr), cand, dst)
	case arrow.DATE32:
		if r.sc != nil {
			return selLit(n.op, i32s(l.arr), int32(r.sc.i), cand, dst)
		}
		return selArr(n.op, i32s(l.arr), i32s(r.arr), cand, dst)
	case arrow.STRING:
		return selStr(n.op, l, r, cand, dst)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return selInterval(n.op, l, r, cand, dst)
	}
	return dst
}

// selInterval compares intervals in DuckDB's order (compareIntervals).
// An array without a values buffer is all NULL: no row is selected.
func selInterval(op cmpOp, l, r operand, cand, dst []int32) []int32 {
	a := ivs(l.arr)
	var b []arrow.MonthDayNanoInterval
	if r.arr != nil {
		if b = ivs(r.arr); b == nil {
			return dst
		}
	}
	if a == nil {
		return dst
	}
	n := l.arr.Len()
	if cand != nil {
		n = len(cand)
	}
	for j := range n {
		i := j
		if cand != nil {
			i = int(cand[j])
		}
		var y arrow.MonthDayNanoInterval
		if b != nil {
			y = b[i]
		} else {
			y = r.sc.iv
		}
		if cmpResult(op, compareIntervals(a[i], y)) {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// dropNulls removes from sel the rows where a (nil: a scalar) is NULL.
func dropNulls(a arrow.Array, cand, sel []int32) []int32 {
	if a == nil {
		return sel
	}
	valid := validBits(a)
	if valid == nil {
		return sel
	}
	off := a.Data().Offset()
	k := 0
	for _, r := range sel {
		if bitSet(valid, off+int(r)) {
			sel[k] = r
			k++
		}
	}
	return sel[:k]
}

// boolFromSel builds a Boolean array that is true at the selected rows,
// taking ownership of valid.
func boolFromSel(mem memory.Allocator, n int, sel []int32, valid *memory.Buffer) arrow.Array {
	bm := newBitmap(mem, n)
	bs := bm.Bytes()
	for _, r := range sel {
		setBit(bs, int(r))
	}
	return finish(Boolean, n, valid, bm)
}

type ordered interface{ ~int64 | ~int32 | ~float64 }

// grow makes room for k more entries and returns dst at full length.
func growSel(dst []int32, k int) []int32 {
	if cap(dst)-len(dst) < k {
		nd := make([]int32, len(dst), len(dst)+k)
		copy(nd, dst)
		dst = nd
	}
	return dst[:len(dst)+k]
}

// selLit selects the rows where vals[i] op lit. The loops are branch-free:
// every row is written, the count advances only on a match.
func selLit[T ordered](op cmpOp, vals []T, lit T, cand, dst []int32) []int32 {
	base := len(dst)
	if cand == nil {
		dst = growSel(dst, len(vals))
		out := dst[base:]
		k := 0
		switch op {
		case opEq:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v == lit)
			}
		case opNe:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v != lit)
			}
		case opLt:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v < lit)
			}
		case opLe:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v <= lit)
			}
		case opGt:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v > lit)
			}
		case opGe:
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(v >= lit)
			}
		}
		return dst[:base+k]
	}
	dst = growSel(dst, len(cand))
	out := dst[base:]
	k := 0
	switch op {
	case opEq:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] == lit)
		}
	case opNe:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] != lit)
		}
	case opLt:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] < lit)
		}
	case opLe:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] <= lit)
		}
	case opGt:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] > lit)
		}
	case opGe:
		for _, r := range cand {
			out[k] = r
			k += b2i(vals[r] >= lit)
		}
	}
	return dst[:base+k]
}

func selArr[T ordered](op cmpOp, a, b []T, cand, dst []int32) []int32 {
	base := len(dst)
	n := len(a)
	if cand != nil {
		n = len(cand)
	}
	dst = growSel(dst, n)
	out := dst[base:]
	k := 0
	row := func(j int) int32 {
		if cand == nil {
			return int32(j)
		}
		return cand[j]
	}
	for j := 0; j < n; j++ {
		r := row(j)
		x, y := a[r], b[r]
		var m bool
		switch op {
		case opEq:
			m = x == y
		case opNe:
			m = x != y
		case opLt:
			m = x < y
		case opLe:
			m = x <= y
		case opGt:
			m = x > y
		case opGe:
			m = x >= y
		}
		out[k] = r
		k += b2i(m)
	}
	return dst[:base+k]
}

// CompareFloat orders doubles as DuckDB and PostgreSQL do: every NaN
// equals every other and is above every number, +Inf included; -0 equals
// 0. Comparisons, IN, min/max, sorting and grouping all use this order.
func CompareFloat(a, b float64) int {
	if an, bn := a != a, b != b; an || bn {
		return b2i(an) - b2i(bn)
	}
	return cmp.Compare(a, b)
}

// selLitF64 is selLit in CompareFloat's order. Against a number, only >
// and ≥ differ from IEEE: they are written as ¬≤ and ¬<, which hold for
// NaN. Against NaN, = and ≥ select the NaNs (x > +Inf in this order), ≠
// and < the numbers (x ≤ +Inf in IEEE), ≤ everything and > nothing.
func selLitF64(op cmpOp, vals []float64, lit float64, cand, dst []int32) []int32 {
	if lit != lit {
		switch op {
		case opEq, opGe:
			op = opGt
		case opNe, opLt:
			return selLit(opLe, vals, math.Inf(1), cand, dst)
		case opLe:
			return selAll(len(vals), cand, dst)
		case opGt:
			return dst
		}
		lit = math.Inf(1)
	}
	if op != opGt && op != opGe {
		return selLit(op, vals, lit, cand, dst)
	}
	gt := op == opGt
	base := len(dst)
	if cand == nil {
		dst = growSel(dst, len(vals))
		out := dst[base:]
		k := 0
		if gt {
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(!(v <= lit))
			}
		} else {
			for i, v := range vals {
				out[k] = int32(i)
				k += b2i(!(v < lit))
			}
		}
		return dst[:base+k]
	}
	dst = growSel(dst, len(cand))
	out := dst[base:]
	k := 0
	if gt {
		for _, r := range cand {
			out[k] = r
			k += b2i(!(vals[r] <= lit))
		}
	} else {
		for _, r := range cand {
			out[k] = r
			k += b2i(!(vals[r] < lit))
		}
	}
	return dst[:base+k]
}

// selAll selects every row: cand, or 0..n-1 without one.
func selAll(n int, cand, dst []int32) []int32 {
	if cand != nil {
		return append(dst, cand...)
	}
	base := len(dst)
	dst = growSel(dst, n)
	for i := range n {
		dst[base+i] = int32(i)
	}
	return dst
}

// selArrF64 is selArr in CompareFloat's order, three branch-free loops:
// = (≠ its negation), ≥ (< its negation) and ≤ (> its negation), each the
// IEEE comparison with the NaN cases it gets wrong or-ed in as bits (a
// || would branch on data).
func selArrF64(op cmpOp, a, b []float64, cand, dst []int32) []int32 {
	base := len(dst)
	n := len(a)
	if cand != nil {
		n = len(cand)
	}
	dst = growSel(dst, n)
	out := dst[base:]
	k := 0
	switch op {
	case opEq, opNe:
		flip := b2i(op == opNe)
		for j := 0; j < n; j++ {
			r := candRow(cand, j)
			x, y := a[r], b[r]
			out[k] = r
			k += (b2i(x == y) | b2i(x != x)&b2i(y != y)) ^ flip
		}
	case opGe, opLt:
		flip := b2i(op == opLt)
		for j := 0; j < n; j++ {
			r := candRow(cand, j)
			x, y := a[r], b[r]
			out[k] = r
			k += (b2i(x >= y) | b2i(x != x)) ^ flip
		}
	default: // opLe, opGt
		flip := b2i(op == opGt)
		for j := 0; j < n; j++ {
			r := candRow(cand, j)
			x, y := a[r], b[r]
			out[k] = r
			k += (b2i(x <= y) | b2i(y != y)) ^ flip
		}
	}
	return dst[:base+k]
}

// candRow is the j-th row of a selection: cand[j], or j without one.
func candRow(cand []int32, j int) int32 {
	if cand == nil {
		return int32(j)
	}
	return cand[j]
}

// selScaled selects the rows where a[i]·up op b[i], exactly: an a[i]
// whose product overflows is beyond every int64 b[i] can hold (the
// product is never exactly MinInt64: 2^63 is no multiple of 10).
func selScaled(op cmpOp, a, b []int64, up int64, cand, dst []int32) []int32 {
	lim := math.MaxInt64 / up
	n := len(a)
	if cand != nil {
		n = len(cand)
	}
	for j := 0; j < n; j++ {
		r := int32(j)
		if cand != nil {
			r = cand[j]
		}
		x, y := a[r], b[r]
		var c int
		switch {
		case x > lim:
			c = 1
		case x < -lim:
			c = -1
		default:
			c = cmp.Compare(x*up, y)
		}
		if cmpResult(op, c) {
			dst = append(dst, r)
		}
	}
	return dst
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpResult(op cmpOp, c int) bool {
	switch op {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}

func selStr(op cmpOp, l, r operand, cand, dst []int32) []int32 {
	lo, ld := strView(l.arr)
	n := l.arr.Len()
	if cand != nil {
		n = len(cand)
	}
	var ro []int32
	var rd []byte
	var lit string
	if r.arr != nil {
		ro, rd = strView(r.arr)
	} else {
		lit = r.sc.s
	}
	for j := 0; j < n; j++ {
		i := j
		if cand != nil {
			i = int(cand[j])
		}
		s := ld[lo[i]:lo[i+1]]
		if ro != nil {
			lit = bstr(rd[ro[i]:ro[i+1]])
		}
		var m bool
		if op == opEq || op == opNe {
			m = (len(s) == len(lit) && bstr(s) == lit) == (op == opEq)
		} else {
			c := 0
			if bs := bstr(s); bs < lit {
				c = -1
			} else if bs > lit {
				c = 1
			}
			m = cmpResult(op, c)
		}
		if m {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// wideCmpNode compares Int64 and Decimal values where one side is a
// decimal128 type, exactly, at any scales. Narrow batches of both sides
// (see narrower) at one scale compare with the int64 loops.
type wideCmpNode struct {
	op     cmpOp
	l, r   node
	ls, rs int32
}

func (n *wideCmpNode) typ() arrow.DataType { return Boolean }

func (n *wideCmpNode) operands(c *ctx, b arrow.RecordBatch) (operand, operand, error) {
	l, err := evalNarrowOperand(c, b, n.l)
	if err != nil {
		return operand{}, operand{}, err
	}
	r, err := evalNarrowOperand(c, b, n.r)
	if err != nil {
		l.release()
		return operand{}, operand{}, err
	}
	return l, r, nil
}

func (n *wideCmpNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	l, r, err := n.operands(c, b)
	if err != nil {
		return nil, err
	}
	defer l.release()
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return dst, nil
	}
	dst = n.sel(c, l, r, cand, dst)
	dst = dropNulls(l.arr, cand, dst)
	return dropNulls(r.arr, cand, dst), nil
}

func (n *wideCmpNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	l, r, err := n.operands(c, b)
	if err != nil {
		return nil, err
	}
	defer l.release()
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return allNull(c, Boolean), nil
	}
	sel := n.sel(c, l, r, nil, make([]int32, 0, c.n))
	return boolFromSel(c.mem, c.n, sel, mergeValidity(c.mem, c.n, l.arr, r.arr)), nil
}

func (n *wideCmpNode) sel(c *ctx, l, r operand, cand, dst []int32) []int32 {
	if n.ls == n.rs && l.narrow() && r.narrow() {
		switch {
		case l.arr != nil && r.arr != nil:
			return selArr(n.op, i64s(l.arr), i64s(r.arr), cand, dst)
		case l.arr != nil:
			return selLit(n.op, i64s(l.arr), r.sc.i, cand, dst)
		case r.arr != nil:
			return selLit(n.op.flip(), i64s(r.arr), l.sc.i, cand, dst)
		}
	}
	lv, lsc, lrel := wideOperand(c, l)
	defer lrel()
	rv, rsc, rrel := wideOperand(c, r)
	defer rrel()
	row := func(i int32) {
		x, y := lsc, rsc
		if lv != nil {
			x = lv[i]
		}
		if rv != nil {
			y = rv[i]
		}
		if cmpResult(n.op, cmpScaledW(x, n.ls, y, n.rs)) {
			dst = append(dst, i)
		}
	}
	if cand == nil {
		for i := 0; i < c.n; i++ {
			row(int32(i))
		}
		return dst
	}
	for _, i := range cand {
		row(i)
	}
	return dst
}

// cmpScaledW compares x at scale xs with y at scale ys exactly: -1, 0, 1.
// A value that passes 38 digits once rescaled is beyond every value of
// the other side, which has at most 38.
func cmpScaledW(x num, xs int32, y num, ys int32) int {
	switch {
	case xs < ys:
		v, ok := rescaleW(x, xs, ys)
		if !ok {
			return x.Sign()
		}
		x = v
	case ys < xs:
		v, ok := rescaleW(y, ys, xs)
		if !ok {
			return -y.Sign()
		}
		y = v
	}
	return x.Cmp(y)
}
