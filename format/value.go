package format

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/expr"
)

// Value returns the canonical text of arr[i]: "" for NULL (callers that
// show NULL check IsNull themselves), YYYY-MM-DD dates, decimals as plain
// text with their scale, floats without an exponent in [1e-4, 1e15), and
// true/false for booleans.
func Value(arr arrow.Array, i int) string {
	switch a := arr.(type) {
	case *array.String: // no copy
		if a.IsNull(i) {
			return ""
		}
		return a.Value(i)
	case *array.LargeString:
		if a.IsNull(i) {
			return ""
		}
		return a.Value(i)
	}
	var buf [32]byte
	return string(AppendValue(buf[:0], arr, i))
}

// AppendValue appends Value(arr, i) to dst (nothing for NULL), without
// making a string of it: result writers format every cell this way.
func AppendValue(dst []byte, arr arrow.Array, i int) []byte {
	if IsNull(arr, i) {
		return dst
	}
	switch a := arr.(type) {
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Float64:
		return append(dst, FormatFloat(a.Value(i))...)
	case *array.Decimal64:
		return expr.AppendDecimal(dst, int64(a.Value(i)), a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.Decimal128:
		return expr.AppendDecimal128(dst, a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Date32:
		return expr.AppendDate(dst, a.Value(i))
	case *array.Timestamp:
		return expr.AppendTimestamp(dst, int64(a.Value(i)), expr.IsTZ(a.DataType()))
	case *array.Time64:
		return expr.AppendTime(dst, int64(a.Value(i)))
	case *array.MonthDayNanoInterval:
		return expr.AppendInterval(dst, a.Value(i))
	case *array.String:
		return append(dst, a.Value(i)...)
	case *array.LargeString:
		return append(dst, a.Value(i)...)
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i))
	}
	if expr.IsNested(arr.DataType()) {
		return appendNested(dst, arr, i)
	}
	return append(dst, arr.ValueStr(i)...)
}

// IsNull reports whether arr[i] is NULL. An array of the Null type is all
// NULL even where it carries no validity bitmap.
func IsNull(arr arrow.Array, i int) bool {
	return arr.DataType().ID() == arrow.NULL || arr.IsNull(i)
}

// FormatFloat renders v as the shortest text that reads back as v, without
// an exponent for magnitudes in [1e-4, 1e15).
func FormatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	if a := math.Abs(v); a == 0 || (a >= 1e-4 && a < 1e15) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// TypeName is the SQL name of a gq value type: BIGINT, DOUBLE,
// DECIMAL(p,s), DATE, VARCHAR, BOOLEAN.
func TypeName(t arrow.DataType) string {
	if expr.IsNested(t) {
		return expr.TypeName(t)
	}
	switch t.ID() {
	case arrow.INT64, arrow.INT32, arrow.INT16, arrow.INT8:
		return "BIGINT"
	case arrow.FLOAT64, arrow.FLOAT32:
		return "DOUBLE"
	case arrow.DECIMAL64, arrow.DECIMAL128:
		d := t.(arrow.DecimalType)
		return "DECIMAL(" + strconv.Itoa(int(d.GetPrecision())) + "," + strconv.Itoa(int(d.GetScale())) + ")"
	case arrow.DATE32:
		return "DATE"
	case arrow.STRING, arrow.LARGE_STRING:
		return "VARCHAR"
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.NULL:
		return "NULL"
	case arrow.TIMESTAMP, arrow.TIME64, arrow.INTERVAL_MONTH_DAY_NANO:
		return expr.TypeName(t)
	}
	return t.String()
}

// isNumeric reports whether values of t are right-aligned in tables and
// unquoted in JSON.
func isNumeric(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.INT32, arrow.INT16, arrow.INT8, arrow.FLOAT64, arrow.FLOAT32, arrow.DECIMAL64, arrow.DECIMAL128:
		return true
	}
	return false
}
