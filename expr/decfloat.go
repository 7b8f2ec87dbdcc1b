package expr

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// DECIMAL → DOUBLE, correctly rounded: the double nearest the exact value
// v·10^-s, ties to even, as DuckDB converts. arrow-go's Num.ToFloat64
// multiplies by an inexact 10^-s and can land a few ulps off, and
// float64(v)/10^s rounds twice once |v| passes 2^53. Every conversion of a
// decimal to a double goes through decToFloat, and the device's
// gq_dec_to_double (arrowgpu/kernels/fused.cuh) is the same algorithm
// word for word, so the CPU and the GPU agree bit for bit.

// DecimalToFloat64 is the DECIMAL(p<=18) (or BIGINT, s = 0) value v·10^-s
// as the nearest double.
func DecimalToFloat64(v int64, s int32) float64 {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	return decToFloat(v < 0, 0, u, s)
}

// Decimal128ToFloat64 is the DECIMAL(38) value v·10^-s as the nearest
// double.
func Decimal128ToFloat64(v decimal128.Num, s int32) float64 {
	neg := v.Sign() < 0
	if neg {
		v = v.Negate() // the most negative value wraps to itself: 2^127 unsigned
	}
	return decToFloat(neg, uint64(v.HighBits()), v.LowBits(), s)
}

// exactPow10 holds the powers of ten a double represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decToFloat is ±(hi·2^64+lo)·10^-s rounded to nearest even.
func decToFloat(neg bool, hi, lo uint64, s int32) float64 {
	var f float64
	switch {
	case hi == 0 && lo == 0:
		f = 0
	case hi == 0 && lo < 1<<53 && s >= 0 && int(s) < len(exactPow10):
		// Both operands exact: IEEE division rounds once, correctly.
		f = float64(lo) / exactPow10[s]
	case s >= 0 && s <= MaxWidePrecision:
		f = decToFloatExact(hi, lo, s)
	default: // no gq type has such a scale; exact all the same
		f = decToFloatBig(hi, lo, s)
	}
	if neg {
		return -f
	}
	return f
}

// decToFloatExact is u/10^s (u = hi·2^64+lo > 0 as an unsigned 128-bit
// integer, 0 <= s <= 38) rounded to nearest even by exact integer
// division. With lu and ld the bit lengths of u and d = 10^s, the
// quotient Q = floor(u·2^k/d) for k = 55+ld-lu lies in [2^54, 2^56): 55 or
// 56 bits, the 53 of the result, a rounding bit and at least one more,
// and the remainder (with any bits of u shifted out when k < 0) is the
// sticky bit. Q comes from restoring division: the numerator's bits above
// its lowest 56 are already below d (Q < 2^56), and each step doubles a
// remainder below d < 2^127, so it never leaves 128 bits.
func decToFloatExact(hi, lo uint64, s int32) float64 {
	dh, dl := pow10Words(s)
	lu, ld := bitLen128(hi, lo), bitLen128(dh, dl)
	k := 55 + ld - lu
	rh, rl := shift128(hi, lo, k-56)
	var q uint64
	for i := 55; i >= 0; i-- {
		rh, rl = rh<<1|rl>>63, rl<<1|bit128(hi, lo, i-k)
		if rh > dh || rh == dh && rl >= dl {
			var b uint64
			rl, b = bits.Sub64(rl, dl, 0)
			rh, _ = bits.Sub64(rh, dh, b)
			q |= 1 << i
		}
	}
	sticky := rh|rl != 0
	if k < 0 { // bits of u below 2^-k never entered the division
		ml, mh := lowMask128(-k)
		sticky = sticky || lo&ml != 0 || hi&mh != 0
	}
	sh := 2
	if q >= 1<<55 {
		sh = 3
	}
	m := q >> sh
	rem, half := q&(1<<sh-1), uint64(1)<<(sh-1)
	if rem > half || rem == half && (sticky || m&1 == 1) {
		m++
	}
	// m·2^(sh-k) with m in [2^52, 2^53]: the double's fields directly.
	e := 52 + sh - k
	if m == 1<<53 {
		m >>= 1
		e++
	}
	return math.Float64frombits(uint64(e+1023)<<52 | (m - 1<<52))
}

// decToFloatBig is u·10^-s by math/big, correctly rounded (the mode is
// nearest even): for scales outside 0..38, which gq does not produce.
func decToFloatBig(hi, lo uint64, s int32) float64 {
	u := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	u.Or(u, new(big.Int).SetUint64(lo))
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(s))), nil)
	num, den := u, big.NewInt(1)
	if s > 0 {
		den = p
	} else {
		num = u.Mul(u, p)
	}
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

func abs32(s int32) int32 {
	if s < 0 {
		return -s
	}
	return s
}

// pow10Words is 10^s (0 <= s <= 38) as two unsigned words.
func pow10Words(s int32) (hi, lo uint64) {
	p := decimal128.GetScaleMultiplier(int(s))
	return uint64(p.HighBits()), p.LowBits()
}

func bitLen128(hi, lo uint64) int {
	if hi != 0 {
		return 64 + bits.Len64(hi)
	}
	return bits.Len64(lo)
}

// shift128 is hi·2^64+lo shifted left by n (right by -n when n < 0).
func shift128(hi, lo uint64, n int) (uint64, uint64) {
	switch {
	case n >= 128 || n <= -128:
		return 0, 0
	case n >= 64:
		return lo << (n - 64), 0
	case n > 0:
		return hi<<n | lo>>(64-n), lo << n
	case n == 0:
		return hi, lo
	case n > -64:
		return hi >> -n, lo>>-n | hi<<(64+n)
	}
	return 0, hi >> (-n - 64)
}

// bit128 is bit j of hi·2^64+lo, 0 outside 0..127.
func bit128(hi, lo uint64, j int) uint64 {
	switch {
	case j < 0 || j >= 128:
		return 0
	case j < 64:
		return lo >> j & 1
	}
	return hi >> (j - 64) & 1
}

// lowMask128 is the mask of the low n bits (0 <= n <= 128), as lo, hi.
func lowMask128(n int) (lo, hi uint64) {
	switch {
	case n >= 128:
		return ^uint64(0), ^uint64(0)
	case n >= 64:
		return ^uint64(0), 1<<(n-64) - 1
	}
	return 1<<n - 1, 0
}
