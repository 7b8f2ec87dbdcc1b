package catalog

import (
	"bytes"
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/expr"
)

// Parsers of CSV field text; none allocates.

func parseBool(f []byte) (value, ok bool) {
	switch {
	case bytes.EqualFold(f, []byte("true")):
		return true, true
	case bytes.EqualFold(f, []byte("false")):
		return false, true
	}
	return false, false
}

// parseInt parses an optionally signed decimal integer without allocating.
func parseInt(f []byte) (int64, bool) {
	i, neg := 0, false
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		neg, i = f[0] == '-', 1
	}
	if i == len(f) {
		return 0, false
	}
	var v uint64
	for ; i < len(f); i++ {
		d := f[i] - '0'
		if d > 9 {
			return 0, false
		}
		if v > (math.MaxInt64+1)/10 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	if neg {
		if v > math.MaxInt64+1 {
			return 0, false
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// parseFloat accepts plain decimal numbers with an optional exponent (not
// "inf", "nan" or hex floats, which would make words look numeric).
func parseFloat(f []byte) (float64, bool) {
	digits := false
	for _, c := range f {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E':
		default:
			return 0, false
		}
	}
	if !digits {
		return 0, false
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(f), len(f)), 64)
	return v, err == nil
}

// parseDate parses YYYY-MM-DD into days since 1970-01-01.
func parseDate(f []byte) (int32, bool) {
	if len(f) != 10 || f[4] != '-' || f[7] != '-' {
		return 0, false
	}
	num := func(b []byte) (int, bool) {
		v := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(f[0:4])
	m, ok2 := num(f[5:7])
	d, ok3 := num(f[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > int(expr.DaysInMonth(int32(y), int32(m))) {
		return 0, false
	}
	return expr.DaysFromCivil(int32(y), int32(m), int32(d)), true
}

// decimalShape reads plain decimal text (an optional sign, digits, at most
// one point, no exponent): its significant digits before the point and
// its digits after it; ok is false for other text.
func decimalShape(f []byte) (intDigits, scale int, ok bool) {
	i := 0
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		i = 1
	}
	digits, point, lead := 0, false, true
	for ; i < len(f); i++ {
		c := f[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if point {
				scale++
			} else if !lead || c != '0' {
				lead = false
				intDigits++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, 0, false
		}
	}
	return intDigits, scale, digits > 0
}

// parseDecimal128 reads plain decimal text as an unscaled value of the
// given scale (fraction digits past it are refused, not rounded: the
// sniffed scale is the widest in the sample); ok is false past 38 digits.
func parseDecimal128(f []byte, scale int) (decimal128.Num, bool) {
	intDigits, s, ok := decimalShape(f)
	if !ok || s > scale || intDigits+scale > expr.MaxWidePrecision {
		return decimal128.Num{}, false
	}
	var hi, lo uint64
	mul10 := func(d uint64) {
		h, l := bits.Mul64(lo, 10)
		hi = hi*10 + h
		var c uint64
		lo, c = bits.Add64(l, d, 0)
		hi += c
	}
	neg := false
	for _, c := range f {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			mul10(uint64(c - '0'))
		}
	}
	for ; s < scale; s++ {
		mul10(0)
	}
	v := decimal128.New(int64(hi), lo)
	if neg {
		v = v.Negate()
	}
	return v, true
}
