package exec

import (
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// 128-bit arithmetic for sums and averages whose result is DECIMAL(38)
// (Arrow decimal128): signed two's complement values as decimal128.Num
// (high word signed, low word unsigned).

// maxDecimalDigits is the widest DECIMAL gq holds (decimal128).
const maxDecimalDigits = 38

var errWideSumOverflow = errs.New(errs.Execution, "sum overflows the range of DECIMAL(38)")

// add128 is a+b and whether it overflowed 128 bits.
func add128(a, b decimal128.Num) (decimal128.Num, bool) {
	lo, c := bits.Add64(a.LowBits(), b.LowBits(), 0)
	x, y := a.HighBits(), b.HighBits()
	hi := x + y + int64(c)
	return decimal128.New(hi, lo), (x^hi)&(y^hi) < 0
}

// num is a as a decimal128.Num.
func (a i128) num() decimal128.Num { return decimal128.New(a.hi, a.lo) }

// fitsInt64 reports whether n is within int64 (its high word is the sign
// extension of its low word).
func fitsInt64(n decimal128.Num) bool {
	return n.HighBits() == int64(n.LowBits())>>63
}

// fitsDigits reports whether |n| < 10^digits (1 <= digits <= 38).
func fitsDigits(n decimal128.Num, digits int32) bool {
	lim := decimal128.GetScaleMultiplier(int(digits))
	return n.Less(lim) && lim.Negate().Less(n)
}

// avgRound128 is sum*mul/count rounded half away from zero (as
// expr.MulDivRound rounds), exact for any 128-bit sum; ok is false when
// the quotient does not fit in 128 bits.
func avgRound128(sum decimal128.Num, mul, count int64) (decimal128.Num, bool) {
	if fitsInt64(sum) {
		if q, ok := expr.MulDivRound(int64(sum.LowBits()), mul, count); ok {
			return decimal128.FromI64(q), true
		}
	}
	num := sum.BigInt()
	num.Mul(num, big.NewInt(mul))
	neg := num.Sign() < 0
	num.Abs(num)
	d := big.NewInt(count)
	q, r := new(big.Int).QuoRem(num, d, new(big.Int))
	if r.Lsh(r, 1).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	if q.BitLen() > 127 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(q), true
}

// decScale is the scale of a Decimal64 or Decimal128 type, 0 for others.
func decScale(t arrow.DataType) int32 {
	if d, ok := t.(arrow.DecimalType); ok {
		return d.GetScale()
	}
	return 0
}

// wideArray is nums (NULL where !valid) as a column of type t: DECIMAL(38)
// as they are, BIGINT or DECIMAL(18) where every value fits in int64 (an
// Execution error where one does not).
func wideArray(mem memory.Allocator, t arrow.DataType, nums []decimal128.Num, valid []bool) (arrow.Array, error) {
	if t.ID() == arrow.DECIMAL128 {
		return aggArray(mem, t, nums, valid), nil
	}
	out := make([]int64, len(nums))
	for i, v := range nums {
		if !valid[i] {
			continue
		}
		if !fitsInt64(v) {
			return nil, errSumOverflow
		}
		out[i] = int64(v.LowBits())
	}
	return aggArray(mem, t, out, valid), nil
}
