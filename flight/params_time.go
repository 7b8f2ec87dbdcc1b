package flight

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/expr"
	"gq/parser/sqlparser"
)

// timeLiteral is row i of a timestamp or time parameter as a TIMESTAMP
// '…' or TIME '…' literal (µs; finer units truncated, as gq stores µs). A
// zoned timestamp is an instant, written in UTC, gq's session zone; ok is
// false for other arrays.
func timeLiteral(arr arrow.Array, i int) (e sqlparser.Expr, ok bool) {
	toMicros := func(v int64, u arrow.TimeUnit) int64 {
		switch u {
		case arrow.Second:
			return v * 1_000_000
		case arrow.Millisecond:
			return v * 1000
		case arrow.Nanosecond:
			if v < 0 && v%1000 != 0 {
				return v/1000 - 1
			}
			return v / 1000
		}
		return v
	}
	switch a := arr.(type) {
	case *array.Timestamp:
		us := toMicros(int64(a.Value(i)), a.DataType().(*arrow.TimestampType).Unit)
		return &sqlparser.Literal{Type: sqlparser.TimestampVal, Val: expr.FormatTimestamp(us, false)}, true
	case *array.Time64:
		us := toMicros(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit)
		return &sqlparser.Literal{Type: sqlparser.TimeVal, Val: expr.FormatTime(us)}, true
	case *array.Time32:
		us := toMicros(int64(a.Value(i)), a.DataType().(*arrow.Time32Type).Unit)
		return &sqlparser.Literal{Type: sqlparser.TimeVal, Val: expr.FormatTime(us)}, true
	}
	return nil, false
}
