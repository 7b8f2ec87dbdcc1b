package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// date_diff(part, a, b) (also datediff with three arguments' spelling
// date_diff) is the number of part boundaries from a to b, DuckDB's:
// b's part minus a's once both are cut to it (months: year*12+month).
// a and b are DATEs or TIMESTAMP[TZ]s. MySQL's datediff(a, b) — days,
// a - b — stays datefn.go's. CPU only.
func init() {
	Register(&Function{Name: "date_diff", SQL: []string{"date_diff"}, MinArgs: 3, MaxArgs: 3, NullPropagating: true,
		Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
			part, err := partArg(b, fn, args[0], "dow", "isodow", "doy", "epoch")
			if err != nil {
				return nil, err
			}
			x, err := timeArg(b, fn, args[1])
			if err != nil {
				return nil, err
			}
			y, err := timeArg(b, fn, args[2])
			if err != nil {
				return nil, err
			}
			return b.Call("date_diff", []Operand{b.Literal(part, String), x, y}, Int64), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 3, 3); err != nil {
				return nil, err
			}
			part, err := partLiteral(call, args)
			if err != nil {
				return nil, err
			}
			for _, a := range args[1:] {
				if err := wantType(call, a, arrow.DATE32, arrow.TIMESTAMP); err != nil {
					return nil, err
				}
			}
			return &rowKernel{args: args[1:], t: Int64, i64: func(r row) (int64, error) {
				return diffParts(part, r.micros(0), r.micros(1)), nil
			}}, nil
		},
		Doc: "date_diff(part VARCHAR, a, b DATE|TIMESTAMP) → BIGINT: part boundaries from a to b"})
}

// diffParts counts part boundaries from a to b (µs since the epoch).
func diffParts(part string, a, b int64) int64 {
	switch part {
	case "year", "quarter", "month", "decade", "century", "millennium", "isoyear":
		months := func(us int64) int64 {
			days, _ := SplitTimestamp(us)
			y, m, _ := civilFromDays(days)
			return int64(y)*12 + int64(m) - 1
		}
		ma, mb := months(a), months(b)
		per := map[string]int64{"year": 12, "isoyear": 12, "quarter": 3, "month": 1, "decade": 120, "century": 1200, "millennium": 12000}[part]
		return floorDiv(mb, per) - floorDiv(ma, per)
	case "week": // whole weeks between the days, toward zero (DuckDB's)
		return (floorDiv(b, usPerDay) - floorDiv(a, usPerDay)) / 7
	}
	unit := map[string]int64{"microsecond": 1, "millisecond": 1000, "second": usPerSecond,
		"minute": usPerMinute, "hour": usPerHour, "day": usPerDay}[part]
	return floorDiv(b, unit) - floorDiv(a, unit)
}
