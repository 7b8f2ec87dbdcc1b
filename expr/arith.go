package expr

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// pow10 holds 10^0 … 10^18, the decimal rescaling factors.
var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < 19; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// arithNode is add, sub, mul, div or mod. Int64 is treated as a decimal of
// scale 0, so one set of int64 kernels serves both.
type arithNode struct {
	op    string
	l, r  node
	t     arrow.DataType
	float bool
	// integer/decimal: the operands are rescaled by lm, rm before the
	// operation (add, sub, mod); mul's raw product has scale ls+rs and is
	// rescaled to the result's scale; div scales the dividend by 10^divExp.
	lm, rm int64
	ls, rs int32
	ts     int32
	// wide: the result is a decimal128. narrowOK: the int64 kernels can
	// compute it where the operands are narrow and nothing overflows;
	// nt is the narrow result's type then (see wide.go).
	wide, narrowOK bool
	nt             arrow.DataType
}

func newArith(call *Call, l, r node) (node, error) {
	t := call.Type
	if !isNumeric(l.typ()) || !isNumeric(r.typ()) {
		return nil, argErr(call, "arguments %s, %s not numeric", l.typ(), r.typ())
	}
	n := &arithNode{op: call.Fn, l: l, r: r, t: t, lm: 1, rm: 1}
	switch t.ID() {
	case arrow.FLOAT64:
		n.float = true
		var err error
		if n.l, err = toType(l, Float64); err != nil {
			return nil, err
		}
		if n.r, err = toType(r, Float64); err != nil {
			return nil, err
		}
		return n, nil
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128:
	case arrow.NULL:
		return &litNode{t: t, v: scalar{null: true}}, nil
	default:
		return nil, argErr(call, "result type %s not numeric", t)
	}
	if l.typ().ID() == arrow.FLOAT64 || r.typ().ID() == arrow.FLOAT64 {
		return nil, argErr(call, "float argument with %s result", t)
	}
	n.ls, n.rs, n.ts = ScaleOf(l.typ()), ScaleOf(r.typ()), ScaleOf(t)
	if isWide(t) || isWide(l.typ()) || isWide(r.typ()) {
		if !isWide(t) {
			// A narrow result of wide operands: computed wide, then cast.
			wt := Decimal(MaxWidePrecision, n.ts)
			inner, err := newArith(&Call{Fn: call.Fn, Args: call.Args, Type: wt}, l, r)
			if err != nil {
				return nil, err
			}
			return newCast(inner, t)
		}
		return n.prepareWide(call)
	}
	switch n.op {
	case "add", "sub", "mod":
		if n.ts < n.ls || n.ts < n.rs {
			// Align both to the larger scale, then round to the result.
			m := max(n.ls, n.rs)
			inner := &arithNode{op: n.op, l: l, r: r, t: Decimal(MaxDecimalPrecision, m), ls: n.ls, rs: n.rs, ts: m,
				lm: pow10[m-n.ls], rm: pow10[m-n.rs]}
			return newCast(inner, t)
		}
		if n.ts-n.ls > 18 || n.ts-n.rs > 18 {
			return nil, argErr(call, "scale out of range")
		}
		n.lm, n.rm = pow10[n.ts-n.ls], pow10[n.ts-n.rs]
	case "mul":
		if n.ls+n.rs > 18 || n.ts > 18 {
			return nil, argErr(call, "scale out of range")
		}
	case "div":
		e := n.ts - n.ls + n.rs
		if e < 0 || e > 36 {
			return nil, argErr(call, "unsupported scales for division (%d/%d → %d)", n.ls, n.rs, n.ts)
		}
	}
	return n, nil
}

// prepareWide sets up an operation with a decimal128 result: the 128-bit
// kernels always apply; the int64 ones where the scales allow.
func (n *arithNode) prepareWide(call *Call) (node, error) {
	n.wide = true
	n.nt = &arrow.Decimal64Type{Precision: MaxDecimalPrecision, Scale: n.ts}
	switch n.op {
	case "add", "sub", "mod":
		if n.ts < n.ls || n.ts < n.rs {
			return nil, argErr(call, "result scale %d below the operands' (%d, %d)", n.ts, n.ls, n.rs)
		}
		if n.ts-n.ls <= 18 && n.ts-n.rs <= 18 {
			n.lm, n.rm = pow10[n.ts-n.ls], pow10[n.ts-n.rs]
			n.narrowOK = true
		}
	case "mul":
		if n.ls+n.rs > MaxWidePrecision || n.ts > n.ls+n.rs {
			return nil, argErr(call, "scale out of range")
		}
		n.narrowOK = n.ls+n.rs <= 18
	case "div":
		e := n.ts - n.ls + n.rs
		if e < 0 || e > 2*MaxWidePrecision {
			return nil, argErr(call, "unsupported scales for division (%d/%d → %d)", n.ls, n.rs, n.ts)
		}
		n.narrowOK = e <= 36
	}
	return n, nil
}

func (n *arithNode) typ() arrow.DataType { return n.t }

func (n *arithNode) overflowErr() error {
	switch n.t.ID() {
	case arrow.DECIMAL64:
		return errs.New(errs.Execution, "decimal overflow in %s", n.op)
	case arrow.DECIMAL128:
		return errOverflowNarrow
	}
	return errs.New(errs.Execution, "integer overflow in %s", n.op)
}

// errOverflowNarrow is how the int64 kernels of a wide operation say that
// a value overflowed them: the batch is then computed in 128 bits.
var errOverflowNarrow = errs.New(errs.Internal, "narrow decimal overflow")

func (n *arithNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	if n.wide {
		a, err := n.evalNarrow(c, b)
		if err != nil || isWide(a.DataType()) {
			return a, err
		}
		defer a.Release()
		return widenArray(c, a, n.t), nil
	}
	l, err := evalOperand(c, b, n.l)
	if err != nil {
		return nil, err
	}
	defer l.release()
	r, err := evalOperand(c, b, n.r)
	if err != nil {
		return nil, err
	}
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return allNull(c, n.t), nil
	}
	if n.float {
		if l.sc != nil && r.sc != nil {
			la := materialize(c, n.l.typ(), l)
			defer la.Release()
			l = operand{arr: la}
		}
		return n.evalFloat(c, l, r)
	}
	return n.evalInt(c, l, r, n.t)
}

// evalNarrow computes a wide operation: its result is an array of type
// n.nt (int64 values at the result's scale) where the operands are narrow
// and the int64 kernels do not overflow, else one of type n.t.
func (n *arithNode) evalNarrow(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	if !n.wide {
		return n.eval(c, b) // its own type is narrow
	}
	l, err := evalNarrowOperand(c, b, n.l)
	if err != nil {
		return nil, err
	}
	defer l.release()
	r, err := evalNarrowOperand(c, b, n.r)
	if err != nil {
		return nil, err
	}
	defer r.release()
	if l.nullScalar() || r.nullScalar() {
		return allNull(c, n.t), nil
	}
	if n.narrowOK && l.narrow() && r.narrow() {
		a, err := n.evalInt(c, l, r, n.nt)
		if err != errOverflowNarrow {
			return a, err
		}
	}
	return n.evalWide(c, l, r)
}

// evalInt runs the int64 kernels, the result typed t.
func (n *arithNode) evalInt(c *ctx, l, r operand, t arrow.DataType) (arrow.Array, error) {
	if l.sc != nil && r.sc != nil {
		// Unfolded literal pair (folding failed): materialise one side.
		la := materialize(c, Int64, l)
		defer la.Release()
		l = operand{arr: la}
	}
	valid := mergeValidity(c.mem, c.n, l.arr, r.arr)
	lv, ls, lrel, err := n.intSide(c, l, n.lm)
	if err != nil {
		releaseBuf(valid)
		return nil, err
	}
	defer lrel()
	rv, rs, rrel, err := n.intSide(c, r, n.rm)
	if err != nil {
		releaseBuf(valid)
		return nil, err
	}
	defer rrel()
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	switch n.op {
	case "div":
		return n.evalDiv(c, lv, ls, rv, rs, valid, t)
	case "mod":
		return n.evalMod(c, lv, ls, rv, rs, valid, t)
	}
	buf, out := rawI64(c.mem, c.n)
	var bad bool
	switch n.op {
	case "add":
		bad = addI64(out, lv, ls, rv, rs)
	case "sub":
		bad = subI64(out, lv, ls, rv, rs)
	case "mul":
		bad = mulI64(out, lv, ls, rv, rs)
	}
	if bad && overflowOnValid(n.op, out, lv, ls, rv, rs, vb) {
		buf.Release()
		releaseBuf(valid)
		return nil, n.overflowErr()
	}
	if n.op == "mul" && n.ls+n.rs != n.ts {
		if err := rescaleInPlace(out, n.ls+n.rs, n.ts, vb); err != nil {
			buf.Release()
			releaseBuf(valid)
			if n.wide {
				return nil, errOverflowNarrow
			}
			return nil, err
		}
	}
	return finish(t, c.n, valid, buf), nil
}

// evalWide runs the 128-bit kernels over operands of any width.
func (n *arithNode) evalWide(c *ctx, l, r operand) (arrow.Array, error) {
	valid := ownValidity(c.mem, c.n, mergeValidity(c.mem, c.n, l.arr, r.arr))
	vb := valid.Bytes()
	lv, lsc, lrel := wideOperand(c, l)
	defer lrel()
	rv, rsc, rrel := wideOperand(c, r)
	defer rrel()
	buf, out := outW128(c.mem, c.n)
	if n.op == "mul" && n.ts == n.ls+n.rs && l.narrow() && r.narrow() {
		// Two int64 factors: their product always has 38 digits or fewer.
		// (intSide by 1 neither copies nor fails.)
		lv, ls, _, _ := n.intSide(c, l, 1)
		rv, rs, _, _ := n.intSide(c, r, 1)
		mulNarrowW(out, vb, lv, ls, rv, rs)
		return finish(n.t, c.n, valid, buf), nil
	}
	for i := range out {
		if !bitSet(vb, i) {
			continue
		}
		x, y := lsc, rsc
		if lv != nil {
			x = lv[i]
		}
		if rv != nil {
			y = rv[i]
		}
		var v num
		ok := true
		switch n.op {
		case "add", "sub", "mod":
			var ok1, ok2 bool
			x, ok1 = rescaleW(x, n.ls, n.ts)
			y, ok2 = rescaleW(y, n.rs, n.ts)
			if !ok1 || !ok2 {
				ok = false
				break
			}
			switch n.op {
			case "add":
				v, ok = addW(x, y)
			case "sub":
				v, ok = subW(x, y)
			default:
				if y.Sign() == 0 {
					clearBit(vb, i)
					continue
				}
				_, v = quoRemW(x, y)
			}
		case "mul":
			if v, ok = mulW(x, y); ok {
				v, ok = rescaleW(v, n.ls+n.rs, n.ts)
			}
		case "div":
			if y.Sign() == 0 {
				clearBit(vb, i)
				continue
			}
			v, ok = divScaledW(x, n.ts-n.ls+n.rs, y)
		}
		if !ok {
			buf.Release()
			valid.Release()
			return nil, wideOverflow(n.op)
		}
		out[i] = v
	}
	return finish(n.t, c.n, valid, buf), nil
}

func releaseBuf(b *memory.Buffer) {
	if b != nil {
		b.Release()
	}
}

// intSide returns an operand's int64 values (or scalar) multiplied by m.
func (n *arithNode) intSide(c *ctx, o operand, m int64) ([]int64, int64, func(), error) {
	if o.sc != nil {
		v, ok := mulOvf(o.sc.i, m)
		if !ok {
			return nil, 0, nil, n.overflowErr()
		}
		return nil, v, func() {}, nil
	}
	vals := i64s(o.arr)
	if m == 1 {
		return vals, 0, func() {}, nil
	}
	buf, out := rawI64(c.mem, len(vals))
	valid := validBits(o.arr)
	off := o.arr.Data().Offset()
	for i, v := range vals {
		p, ok := mulOvf(v, m)
		if !ok && isValid(valid, off, i) {
			buf.Release()
			return nil, 0, nil, n.overflowErr()
		}
		out[i] = p
	}
	return out, 0, func() { buf.Release() }, nil
}

// mulOvf multiplies with overflow detection.
func mulOvf(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	sh := int64(hi) - (a>>63)&b - (b>>63)&a
	return int64(lo), sh == int64(lo)>>63
}

// The kernels below take each side as a slice, or (nil slice) a scalar.
// They report whether any row overflowed; the loops are branch-free.

func addI64(out, a []int64, as int64, b []int64, bs int64) bool {
	var o int64
	switch {
	case a != nil && b != nil:
		b = b[:len(a)]
		for i, x := range a {
			s := x + b[i]
			o |= (x ^ s) & (b[i] ^ s)
			out[i] = s
		}
	case a != nil:
		for i, x := range a {
			s := x + bs
			o |= (x ^ s) & (bs ^ s)
			out[i] = s
		}
	default:
		for i, y := range b {
			s := as + y
			o |= (as ^ s) & (y ^ s)
			out[i] = s
		}
	}
	return o < 0
}

func subI64(out, a []int64, as int64, b []int64, bs int64) bool {
	var o int64
	switch {
	case a != nil && b != nil:
		b = b[:len(a)]
		for i, x := range a {
			s := x - b[i]
			o |= (x ^ b[i]) & (x ^ s)
			out[i] = s
		}
	case a != nil:
		for i, x := range a {
			s := x - bs
			o |= (x ^ bs) & (x ^ s)
			out[i] = s
		}
	default:
		for i, y := range b {
			s := as - y
			o |= (as ^ y) & (as ^ s)
			out[i] = s
		}
	}
	return o < 0
}

func mulI64(out, a []int64, as int64, b []int64, bs int64) bool {
	var o int64
	switch {
	case a != nil && b != nil:
		b = b[:len(a)]
		for i, x := range a {
			y := b[i]
			hi, lo := bits.Mul64(uint64(x), uint64(y))
			o |= (int64(hi) - (x>>63)&y - (y>>63)&x) ^ (int64(lo) >> 63)
			out[i] = int64(lo)
		}
	case a != nil:
		for i, x := range a {
			hi, lo := bits.Mul64(uint64(x), uint64(bs))
			o |= (int64(hi) - (x>>63)&bs - (bs>>63)&x) ^ (int64(lo) >> 63)
			out[i] = int64(lo)
		}
	default:
		for i, y := range b {
			hi, lo := bits.Mul64(uint64(as), uint64(y))
			o |= (int64(hi) - (as>>63)&y - (y>>63)&as) ^ (int64(lo) >> 63)
			out[i] = int64(lo)
		}
	}
	return o != 0
}

// overflowOnValid rechecks a flagged kernel row by row: garbage under NULL
// slots must not raise an error.
func overflowOnValid(op string, out, a []int64, as int64, b []int64, bs int64, valid []byte) bool {
	for i := range out {
		if valid != nil && !bitSet(valid, i) {
			continue
		}
		x, y := as, bs
		if a != nil {
			x = a[i]
		}
		if b != nil {
			y = b[i]
		}
		switch op {
		case "add":
			s := x + y
			if (x^s)&(y^s) < 0 {
				return true
			}
		case "sub":
			s := x - y
			if (x^y)&(x^s) < 0 {
				return true
			}
		case "mul":
			if _, ok := mulOvf(x, y); !ok {
				return true
			}
		}
	}
	return false
}

// rescaleInPlace changes the scale of valid values from s to t, rounding
// half away from zero when t < s.
func rescaleInPlace(vals []int64, s, t int32, valid []byte) error {
	if t > s {
		m := pow10[t-s]
		for i, v := range vals {
			p, ok := mulOvf(v, m)
			if !ok && (valid == nil || bitSet(valid, i)) {
				return errs.New(errs.Execution, "decimal overflow")
			}
			vals[i] = p
		}
		return nil
	}
	d := pow10[s-t]
	for i, v := range vals {
		vals[i] = divRound(v, d)
	}
	return nil
}

// divRound divides by d > 0 rounding half away from zero.
func divRound(v, d int64) int64 {
	q, r := v/d, v%d
	if r < 0 {
		r = -r
	}
	if 2*uint64(r) >= uint64(d) {
		if v < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// divScaled computes a*10^e / b rounded half away from zero through a
// 128-bit intermediate; ok is false when the quotient does not fit.
func divScaled(a int64, e int32, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	ua, ub := absU(a), absU(b)
	var hi, lo uint64
	if e <= 18 {
		hi, lo = bits.Mul64(ua, uint64(pow10[e]))
	} else {
		h1, l1 := bits.Mul64(ua, uint64(pow10[18]))
		// (h1:l1) * 10^(e-18)
		m := uint64(pow10[e-18])
		h2, l2 := bits.Mul64(l1, m)
		h3, l3 := bits.Mul64(h1, m)
		if h3 != 0 {
			return 0, false
		}
		var carry uint64
		hi, carry = bits.Add64(h2, l3, 0)
		if carry != 0 {
			return 0, false
		}
		lo = l2
	}
	return divRound128(hi, lo, ub, neg)
}

// MulDivRound returns v*mul/div rounded half away from zero (mul, div > 0)
// through a 128-bit product; ok is false when the result overflows. It is
// the one decimal rescale-by-ratio that the kernels and the aggregates
// (avg's division, window averages) share.
func MulDivRound(v, mul, div int64) (int64, bool) {
	hi, lo := bits.Mul64(absU(v), uint64(mul))
	return divRound128(hi, lo, uint64(div), v < 0)
}

// divRound128 divides the 128-bit hi:lo by d > 0 rounding half away from
// zero, negated when neg; ok is false when the quotient does not fit.
func divRound128(hi, lo, d uint64, neg bool) (int64, bool) {
	if hi >= d {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, d)
	if r >= d-r { // 2r >= d without overflow
		q++
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(q), true
	}
	return int64(q), true
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func (n *arithNode) evalDiv(c *ctx, a []int64, as int64, b []int64, bs int64, valid *memory.Buffer, t arrow.DataType) (arrow.Array, error) {
	valid = ownValidity(c.mem, c.n, valid)
	vb := valid.Bytes()
	buf, out := outI64(c.mem, c.n)
	e := n.ts - n.ls + n.rs
	for i := range out {
		if !bitSet(vb, i) {
			out[i] = 0
			continue
		}
		x, y := as, bs
		if a != nil {
			x = a[i]
		}
		if b != nil {
			y = b[i]
		}
		if y == 0 {
			clearBit(vb, i)
			out[i] = 0
			continue
		}
		q, ok := divScaled(x, e, y)
		if !ok {
			buf.Release()
			valid.Release()
			return nil, n.overflowErr()
		}
		out[i] = q
	}
	return finish(t, c.n, valid, buf), nil
}

func (n *arithNode) evalMod(c *ctx, a []int64, as int64, b []int64, bs int64, valid *memory.Buffer, t arrow.DataType) (arrow.Array, error) {
	valid = ownValidity(c.mem, c.n, valid)
	vb := valid.Bytes()
	buf, out := outI64(c.mem, c.n)
	for i := range out {
		x, y := as, bs
		if a != nil {
			x = a[i]
		}
		if b != nil {
			y = b[i]
		}
		if y == 0 {
			clearBit(vb, i)
			out[i] = 0
			continue
		}
		out[i] = x % y
	}
	return finish(t, c.n, valid, buf), nil
}

func (n *arithNode) evalFloat(c *ctx, l, r operand) (arrow.Array, error) {
	valid := mergeValidity(c.mem, c.n, l.arr, r.arr)
	buf, out := rawF64(c.mem, c.n)
	var a, b []float64
	var as, bs float64
	if l.arr != nil {
		a = f64s(l.arr)
	} else {
		as = l.sc.f
	}
	if r.arr != nil {
		b = f64s(r.arr)
	} else {
		bs = r.sc.f
	}
	get := func(i int) (float64, float64) {
		x, y := as, bs
		if a != nil {
			x = a[i]
		}
		if b != nil {
			y = b[i]
		}
		return x, y
	}
	switch n.op {
	case "add":
		for i := range out {
			x, y := get(i)
			out[i] = x + y
		}
	case "sub":
		for i := range out {
			x, y := get(i)
			out[i] = x - y
		}
	case "mul":
		for i := range out {
			x, y := get(i)
			out[i] = x * y
		}
	case "div", "mod":
		valid = ownValidity(c.mem, c.n, valid)
		vb := valid.Bytes()
		for i := range out {
			x, y := get(i)
			if y == 0 {
				clearBit(vb, i)
				out[i] = 0
				continue
			}
			if n.op == "div" {
				out[i] = x / y
			} else {
				out[i] = math.Mod(x, y)
			}
		}
	}
	if floatOverflowed(out, valid, get) {
		releaseBuf(valid)
		releaseBuf(buf)
		return nil, errs.New(errs.Execution, "DOUBLE value is out of range in %s", n.op)
	}
	return finish(n.t, c.n, valid, buf), nil
}

// floatOverflowed reports whether a valid row turned finite operands into an
// infinity, which MySQL (and DuckDB) report as an error rather than return.
// Infinite inputs propagate silently. The first pass is a cheap scan; rows
// are only rechecked when an infinity is present at all.
func floatOverflowed(out []float64, valid *memory.Buffer, get func(int) (float64, float64)) bool {
	sawInf := false
	for _, v := range out {
		if math.IsInf(v, 0) {
			sawInf = true
			break
		}
	}
	if !sawInf {
		return false
	}
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	for i, v := range out {
		if !math.IsInf(v, 0) || (vb != nil && !bitSet(vb, i)) {
			continue
		}
		x, y := get(i)
		if !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return true
		}
	}
	return false
}
