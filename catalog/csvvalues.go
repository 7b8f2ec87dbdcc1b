package catalog

import (
	"bytes"
	"math"
	"strconv"
	"unsafe"

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
