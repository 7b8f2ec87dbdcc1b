package expr

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// Wide decimals: DECIMAL(p,s) with 18 < p <= 38 is Arrow's decimal128, a
// two's-complement 128-bit integer scaled by 10^s (decimal128.Num). The
// kernels here are the 128-bit twins of the int64 ones; every result is
// checked against 38 digits, the widest value a decimal128 type holds, so
// that overflow is an error only past 38 digits.
//
// Arithmetic whose result type is wide but whose operands are narrow
// (Int64, Decimal64) runs the int64 kernels first and widens only the
// batches where a value overflows them (arithNode.evalNarrow): TPC-H's
// DECIMAL(15,2) products are typed DECIMAL(38,6) but their values fit.

type num = decimal128.Num

// pow10W holds 10^0 … 10^38 as 128-bit values.
var pow10W = func() [39]num {
	var p [39]num
	p[0] = decimal128.FromI64(1)
	ten := decimal128.FromI64(10)
	for i := 1; i < 39; i++ {
		p[i] = p[i-1].Mul(ten)
	}
	return p
}()

// isWide: a decimal128 type.
func isWide(t arrow.DataType) bool { return t.ID() == arrow.DECIMAL128 }

// isIntOrDec: Int64 or a decimal of either width (values scaled integers).
func isIntOrDec(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128:
		return true
	}
	return false
}

// fits38 reports whether v has at most 38 digits.
func fits38(v num) bool {
	return v.Abs().Less(pow10W[38]) && v != decimal128.New(math.MinInt64, 0)
}

// wideFits reports whether v has at most p digits (p <= 38).
func wideFits(v num, p int32) bool {
	if v.HighBits() == math.MinInt64 && v.LowBits() == 0 {
		return false
	}
	return v.Abs().Less(pow10W[p])
}

// addW adds with overflow past 38 digits reported as !ok.
func addW(a, b num) (num, bool) {
	r := a.Add(b)
	if (a.Sign() >= 0) == (b.Sign() >= 0) && (r.Sign() >= 0) != (a.Sign() >= 0) {
		return r, false
	}
	return r, fits38(r)
}

func subW(a, b num) (num, bool) { return addW(a, b.Negate()) }

// mulW multiplies with overflow past 38 digits reported as !ok.
func mulW(a, b num) (num, bool) {
	neg := (a.Sign() < 0) != (b.Sign() < 0)
	ua, ub := a.Abs(), b.Abs()
	ah, al := uint64(ua.HighBits()), ua.LowBits()
	bh, bl := uint64(ub.HighBits()), ub.LowBits()
	if ah != 0 && bh != 0 {
		return num{}, false
	}
	hi, lo := bits.Mul64(al, bl)
	c1h, c1 := bits.Mul64(ah, bl)
	c2h, c2 := bits.Mul64(al, bh)
	if c1h != 0 || c2h != 0 {
		return num{}, false
	}
	var carry uint64
	hi, carry = bits.Add64(hi, c1, 0)
	if carry != 0 {
		return num{}, false
	}
	hi, carry = bits.Add64(hi, c2, 0)
	if carry != 0 || hi>>63 != 0 {
		return num{}, false
	}
	r := decimal128.New(int64(hi), lo)
	if !fits38(r) {
		return num{}, false
	}
	if neg {
		r = r.Negate()
	}
	return r, true
}

// mul64W is the exact product of two int64s: |a·b| ≤ 2^126 < 10^38, so
// it never overflows a decimal128.
func mul64W(a, b int64) num {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// The unsigned product's high word, corrected for negative factors.
	hi -= uint64(a>>63)&uint64(b) + uint64(b>>63)&uint64(a)
	return decimal128.New(int64(hi), lo)
}

// mulNarrowW sets out[i] to the 128-bit product of two int64 sides (a
// slice, or with a nil slice the scalar) on the rows valid in vb.
func mulNarrowW(out []num, vb []byte, lv []int64, ls int64, rv []int64, rs int64) {
	for i := range out {
		if !bitSet(vb, i) {
			continue
		}
		x, y := ls, rs
		if lv != nil {
			x = lv[i]
		}
		if rv != nil {
			y = rv[i]
		}
		out[i] = mul64W(x, y)
	}
}

// rescaleW changes v's scale from s to t, rounding half away from zero
// when t < s; ok is false when the result passes 38 digits.
func rescaleW(v num, s, t int32) (num, bool) {
	switch {
	case t == s:
		return v, true
	case t > s:
		if t-s > 38 {
			return num{}, v.Sign() == 0
		}
		return mulW(v, pow10W[t-s])
	}
	if s-t > 38 {
		return num{}, true
	}
	return divRoundW(v, pow10W[s-t]), true
}

// divRoundW divides by d > 0 rounding half away from zero.
func divRoundW(v, d num) num {
	neg := v.Sign() < 0
	u := v.Abs()
	var q num
	if d.HighBits() == 0 && u.HighBits() >= 0 {
		dl := d.LowBits()
		qh, r1 := bits.Div64(0, uint64(u.HighBits()), dl)
		ql, r := bits.Div64(r1, u.LowBits(), dl)
		q = decimal128.New(int64(qh), ql)
		if r >= dl-r {
			q = q.Add(decimal128.FromI64(1))
		}
	} else {
		bq, br := new(big.Int).QuoRem(u.BigInt(), d.BigInt(), new(big.Int))
		if new(big.Int).Lsh(br, 1).Cmp(d.BigInt()) >= 0 {
			bq.Add(bq, big.NewInt(1))
		}
		q = decimal128.FromBigInt(bq)
	}
	if neg {
		return q.Negate()
	}
	return q
}

// divScaledW is a·10^e / b rounded half away from zero (b ≠ 0); ok is
// false when the quotient passes 38 digits.
func divScaledW(a num, e int32, b num) (num, bool) {
	x := a.BigInt()
	if e > 0 {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	}
	return quoRound(x, b.BigInt())
}

// quoRound is x/y (y ≠ 0) rounded half away from zero as a decimal128;
// ok is false past 38 digits.
func quoRound(x, y *big.Int) (num, bool) {
	neg := (x.Sign() < 0) != (y.Sign() < 0)
	q, r := new(big.Int).QuoRem(new(big.Int).Abs(x), new(big.Int).Abs(y), new(big.Int))
	if r.Lsh(r, 1).CmpAbs(y) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if q.BitLen() > 127 {
		return num{}, false
	}
	if neg {
		q.Neg(q)
	}
	v := decimal128.FromBigInt(q)
	return v, fits38(v)
}

// quoRemW is the truncated quotient and remainder of a / b (b ≠ 0).
func quoRemW(a, b num) (num, num) {
	q, r := new(big.Int).QuoRem(a.BigInt(), b.BigInt(), new(big.Int))
	return decimal128.FromBigInt(q), decimal128.FromBigInt(r)
}

// WidenConstant is the constant v (an int64 of scale from, or a
// decimal128.Num) as a value of the decimal128 type to, exactly: ok is
// false where that needs rounding or passes to's precision (the planner
// folds only exact casts of constants).
func WidenConstant(v any, from int32, to arrow.DataType) (decimal128.Num, bool) {
	var w num
	switch x := v.(type) {
	case int64:
		w = decimal128.FromI64(x)
	case decimal128.Num:
		w = x
	default:
		return num{}, false
	}
	p, ts := DecimalPS(to)
	if !isWide(to) || ts < from {
		return num{}, false
	}
	r, ok := rescaleW(w, from, ts)
	return r, ok && wideFits(r, p)
}

// wideOperand is an operand's values as 128-bit integers at its own
// scale: a slice, or (nil slice) its scalar; rel releases what it made.
func wideOperand(c *ctx, o operand) (vals []num, sc num, rel func()) {
	switch {
	case o.arr != nil:
		v, rel := wideVals(c, o.arr)
		return v, num{}, rel
	case o.wideSc:
		return nil, o.sc.w, func() {}
	}
	return nil, decimal128.FromI64(o.sc.i), func() {}
}

// FormatDecimal128 renders an unscaled decimal128 as plain text ("-12.30").
func FormatDecimal128(v decimal128.Num, scale int32) string {
	return string(AppendDecimal128(nil, v, scale))
}

// AppendDecimal128 appends FormatDecimal128(v, scale) to dst.
func AppendDecimal128(dst []byte, v decimal128.Num, scale int32) []byte {
	if v.HighBits() == int64(v.LowBits())>>63 {
		return AppendDecimal(dst, int64(v.LowBits()), scale)
	}
	if v.Sign() < 0 {
		dst = append(dst, '-')
		v = v.Negate()
	}
	// Two base-10^19 limbs and the rest: 10^38 < 10^19·10^19·2.
	hi, lo := uint64(v.HighBits()), v.LowBits()
	const d19 = 10_000_000_000_000_000_000
	q1h, r1 := bits.Div64(0, hi, d19)
	q1l, r := bits.Div64(r1, lo, d19)
	// q1 = q1h:q1l < 2^128/10^19 < 2^65, so one more division by 10^19.
	q2h, r2 := bits.Div64(0, q1h, d19)
	q2l, r3 := bits.Div64(r2, q1l, d19)
	_ = q2h // zero: 2^128 / 10^38 < 4
	var digits []byte
	if q2l != 0 {
		digits = appendUint(digits, q2l, 0)
		digits = appendUint(digits, r3, 19)
		digits = appendUint(digits, r, 19)
	} else if r3 != 0 {
		digits = appendUint(digits, r3, 0)
		digits = appendUint(digits, r, 19)
	} else {
		digits = appendUint(digits, r, 0)
	}
	return appendScaled(dst, digits, scale)
}

// appendUint appends u in decimal, zero-padded to width.
func appendUint(dst []byte, u uint64, width int) []byte {
	var b [20]byte
	i := len(b)
	for u > 0 || i == len(b) {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	for len(b)-i < width {
		i--
		b[i] = '0'
	}
	return append(dst, b[i:]...)
}

// appendScaled appends the unsigned digits d with a point scale digits
// from the right.
func appendScaled(dst, d []byte, scale int32) []byte {
	if scale <= 0 {
		return append(dst, d...)
	}
	if len(d) <= int(scale) { // "0.05": a zero, the point, zeros, the digits
		dst = append(dst, '0', '.')
		for range int(scale) - len(d) {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	cut := len(d) - int(scale)
	dst = append(dst, d[:cut]...)
	dst = append(dst, '.')
	return append(dst, d[cut:]...)
}

// ParseDecimal128 reads decimal text ("-12.345", "1e20") as an unscaled
// value of scale scale, rounding half away from zero; ok is false for
// text that is not a number or a value past 38 digits.
func ParseDecimal128(s string, scale int32) (decimal128.Num, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return num{}, false
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	return quoRound(r.Num(), r.Denom())
}

// w128s is a decimal128 array's values.
func w128s(a arrow.Array) []num {
	d := a.Data()
	if d.Len() == 0 || d.Buffers()[1] == nil {
		return nil
	}
	return arrow.Decimal128Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

// rawW128 is an output buffer of n decimal128 values the caller fills.
func rawW128(mem memory.Allocator, n int) (*memory.Buffer, []num) {
	b := rawBuf(mem, n*16)
	return b, arrow.Decimal128Traits.CastFromBytes(b.Bytes())[:n]
}

// outW128 is a zeroed output buffer of n decimal128 values.
func outW128(mem memory.Allocator, n int) (*memory.Buffer, []num) {
	b := newBuf(mem, n*16)
	clear(b.Bytes())
	return b, arrow.Decimal128Traits.CastFromBytes(b.Bytes())[:n]
}

// wideVals is the values of an Int64, Decimal64 or Decimal128 array as
// 128-bit integers at their own scale; rel releases what it allocated.
func wideVals(c *ctx, a arrow.Array) (vals []num, rel func()) {
	if isWide(a.DataType()) {
		return w128s(a), func() {}
	}
	buf, out := rawW128(c.mem, a.Len())
	for i, v := range i64s(a) {
		out[i] = decimal128.FromI64(v)
	}
	return out, func() { buf.Release() }
}

// widenArray is a narrow (Int64 or Decimal64) array as the decimal128 type t
// of the same scale, values unchanged.
func widenArray(c *ctx, a arrow.Array, t arrow.DataType) arrow.Array {
	buf, out := rawW128(c.mem, a.Len())
	for i, v := range i64s(a) {
		out[i] = decimal128.FromI64(v)
	}
	return finish(t, a.Len(), mergeValidity(c.mem, a.Len(), a), buf)
}

// wideOverflow is the error of a value past 38 digits in op.
func wideOverflow(op string) error {
	return errs.New(errs.Execution, "decimal overflow in %s (more than 38 digits)", op)
}
