package slt

import (
	"crypto/md5"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/format"
)

// Render returns row r of col as sqllogictest writes a value of type typ
// ('I', 'R' or 'T'). It follows slt_odbc3.c, which fetches I as an integer
// (fractions truncated toward zero), R as a double printed "%.3f" and T as
// text, with NULL as "NULL", the empty string as "(empty)" and bytes
// outside ' '..'~' as '@'. Integers are kept at 64 bits, as SQLite, which
// produced the expected results, keeps them.
func Render(col arrow.Array, r int, typ byte) string {
	if format.IsNull(col, r) {
		return "NULL"
	}
	switch typ {
	case 'I':
		switch a := col.(type) {
		case *array.Int64:
			return strconv.FormatInt(a.Value(r), 10)
		case *array.Int32:
			return strconv.FormatInt(int64(a.Value(r)), 10)
		case *array.Boolean:
			if a.Value(r) {
				return "1"
			}
			return "0"
		case *array.Float64:
			return truncFloat(a.Value(r))
		case *array.Decimal64:
			scale := a.DataType().(*arrow.Decimal64Type).Scale
			v := int64(a.Value(r))
			for s := int32(0); s < scale; s++ {
				v /= 10 // Go's division truncates toward zero, as the conversion does
			}
			return strconv.FormatInt(v, 10)
		}
		return truncFloat(leadingNumber(format.Value(col, r)))
	case 'R':
		var f float64
		switch a := col.(type) {
		case *array.Float64:
			f = a.Value(r)
		case *array.Int64:
			f = float64(a.Value(r))
		case *array.Int32:
			f = float64(a.Value(r))
		case *array.Boolean:
			if a.Value(r) {
				f = 1
			}
		default:
			// Decimals and text: through their decimal text, as a driver
			// converting to SQL_C_DOUBLE parses it.
			f = leadingNumber(format.Value(col, r))
		}
		return fmt.Sprintf("%.3f", f)
	}
	v := format.Value(col, r)
	if v == "" {
		return "(empty)"
	}
	b := []byte(v)
	changed := false
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i], changed = '@', true
		}
	}
	if changed {
		return string(b)
	}
	return v
}

func truncFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	return strconv.FormatInt(int64(math.Trunc(f)), 10)
}

// leadingNumber parses the longest numeric prefix of s (0 when none), as
// MySQL converts a string to a number.
func leadingNumber(s string) float64 {
	s = strings.TrimLeft(s, " \t\n")
	end := 0
	seenDigit, seenDot, seenExp := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case (c == '+' || c == '-') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		case c == '.' && !seenDot && !seenExp:
			seenDot = true
		case (c == 'e' || c == 'E') && seenDigit && !seenExp:
			seenExp = true
		default:
			i = len(s)
			continue
		}
		if seenDigit && c >= '0' && c <= '9' {
			end = i + 1
		}
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return 0
	}
	return f
}

// Values renders a result's rows per the type string, sorts them per the
// sort mode and returns them in order, one value per element.
func Values(rows [][]string, sortMode string) []string {
	if sortMode == "rowsort" {
		// sqllogictest.c's rowCompare: column by column, strcmp.
		sort.SliceStable(rows, func(a, b int) bool {
			for k := range rows[a] {
				if rows[a][k] != rows[b][k] {
					return rows[a][k] < rows[b][k]
				}
			}
			return false
		})
	}
	var vals []string
	for _, r := range rows {
		vals = append(vals, r...)
	}
	if sortMode == "valuesort" {
		sort.Strings(vals)
	}
	return vals
}

// Hash is the "N values hashing to H" line for vals.
func Hash(vals []string) string {
	h := md5.New()
	for _, v := range vals {
		h.Write([]byte(v))
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%d values hashing to %x", len(vals), h.Sum(nil))
}

// Compare reports whether vals matches the expected lines want, the way
// sqllogictest.c does in verify mode: by hash when threshold > 0 and
// there are more values than threshold, else value by value. A labelled
// query with few values lists them, so the label changes nothing here.
func Compare(vals, want []string, threshold int) bool {
	if threshold > 0 && len(vals) > threshold {
		return len(want) == 1 && want[0] == Hash(vals)
	}
	if len(vals) != len(want) {
		return false
	}
	for i := range vals {
		if vals[i] != want[i] {
			return false
		}
	}
	return true
}
