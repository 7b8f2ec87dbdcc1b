package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// date_trunc(part, x) is x (DATE or TIMESTAMP[TZ]) cut down to the start
// of its part: millennium … microsecond, week (to Monday), quarter. The
// result is a TIMESTAMP, of a DATE too (DuckDB's), TIMESTAMPTZ of one.
func init() {
	Register(&Function{Name: "date_trunc", SQL: []string{"date_trunc", "datetrunc"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			part, err := partArg(b, name, args[0], "epoch", "dow", "isodow", "doy", "isoyear")
			if err != nil {
				return nil, err
			}
			x := args[1]
			t := x.Type()
			switch {
			case isNullType(t):
				return b.Literal(nil, Timestamp), nil
			case t.ID() == arrow.DATE32:
				t = Timestamp
			case t.ID() == arrow.STRING:
				if _, c := b.Constant(x); !c {
					return nil, errs.New(errs.Binding, "%s of VARCHAR: cast it to TIMESTAMP", name)
				}
				var err error
				if x, err = b.Cast(x, Timestamp); err != nil {
					return nil, err
				}
				t = Timestamp
			case !IsTimestamp(t):
				return nil, errs.New(errs.Binding, "%s of %s: a DATE or TIMESTAMP is needed", name, TypeName(t))
			}
			return b.Call("date_trunc", []Operand{b.Literal(part, String), x}, t), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			part, err := partLiteral(call, args)
			if err != nil {
				return nil, err
			}
			if err := wantType(call, args[1], arrow.DATE32, arrow.TIMESTAMP); err != nil {
				return nil, err
			}
			return &rowKernel{args: args[1:], t: call.Type, i64: func(r row) (int64, error) {
				return truncMicros(part, r.micros(0)), nil
			}}, nil
		},
		NullPropagating: true,
		Doc:             "date_trunc(part VARCHAR, x DATE|TIMESTAMP) → TIMESTAMP: x at the start of its part"})
}

// truncMicros cuts µs since the epoch to the start of part.
func truncMicros(part string, us int64) int64 {
	unit := map[string]int64{"microsecond": 1, "millisecond": 1000, "second": usPerSecond,
		"minute": usPerMinute, "hour": usPerHour, "day": usPerDay}[part]
	if unit > 0 {
		return floorDiv(us, unit) * unit
	}
	days, _ := SplitTimestamp(us)
	y, m, _ := civilFromDays(days)
	var d int32
	switch part {
	case "week":
		d = days - int32((int64(days)%7+10)%7)
	case "month":
		d = DaysFromCivil(y, m, 1)
	case "quarter":
		d = DaysFromCivil(y, (m-1)/3*3+1, 1)
	case "year":
		d = DaysFromCivil(y, 1, 1)
	case "decade":
		d = DaysFromCivil(int32(floorDiv(int64(y), 10)*10), 1, 1)
	case "century":
		d = DaysFromCivil(int32(floorDiv(int64(y)-1, 100)*100+1), 1, 1)
	case "millennium":
		d = DaysFromCivil(int32(floorDiv(int64(y)-1, 1000)*1000+1), 1, 1)
	default:
		d = days
	}
	return int64(d) * usPerDay
}
