package expr

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// date_part(part, x) — and EXTRACT(part FROM x), hour(x), minute(x), …,
// which bind to it — is one field of a DATE, TIMESTAMP[TZ] or TIME as
// DuckDB gives it: BIGINT, but DOUBLE for epoch (seconds since 1970 with
// the fraction). part is a constant string. Of a DATE, year, month, day
// and quarter bind to extract_* (datefn.go), which the device runs; the
// other parts run on the CPU.
func init() {
	Register(&Function{Name: "date_part", SQL: []string{"date_part", "datepart"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			part, err := partArg(b, name, args[0])
			if err != nil {
				return nil, err
			}
			return bindDatePart(b, part, args[1])
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			part, err := partLiteral(call, args)
			if err != nil {
				return nil, err
			}
			if err := wantType(call, args[1], arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64); err != nil {
				return nil, err
			}
			k := &rowKernel{args: args[1:], t: call.Type}
			if part == "epoch" {
				k.f64 = func(r row) (float64, error) { return float64(r.micros(0)) / 1e6, nil }
			} else {
				k.i64 = func(r row) (int64, error) {
					if r.args[0].DataType().ID() == arrow.TIME64 {
						return timePart(part, r.int64(0)), nil
					}
					return timestampPart(part, r.micros(0)), nil
				}
			}
			return k, nil
		},
		NullPropagating: true,
		Doc:             "date_part(part VARCHAR, x DATE|TIMESTAMP|TIME) → BIGINT (DOUBLE for 'epoch')"})
	for part, names := range map[string][]string{
		"hour": {"hour"}, "minute": {"minute"}, "second": {"second"}, "millisecond": {"millisecond"},
		"microsecond": {"microsecond"}, "dow": {"dayofweek"}, "isodow": {"isodow"}, "doy": {"dayofyear"},
		"week": {"week", "weekofyear"}, "epoch": {"epoch"}, "isoyear": {"isoyear"},
	} {
		Register(&Function{SQL: names, MinArgs: 1, MaxArgs: 1,
			Bind: func(b Binder, _ string, args []Operand) (Operand, error) { return bindDatePart(b, part, args[0]) },
			Doc:  names[0] + "(x DATE|TIMESTAMP|TIME) → BIGINT: date_part('" + part + "', x)"})
	}
}

// partNames maps every spelling of a part DuckDB accepts to one name.
var partNames = map[string]string{}

func init() {
	for canon, names := range map[string]string{
		"year": "year years y yr yrs", "month": "month months mon mons", "day": "day days d dayofmonth",
		"hour": "hour hours h hr hrs", "minute": "minute minutes m min mins",
		"second": "second seconds s sec secs", "millisecond": "millisecond milliseconds ms msec msecs",
		"microsecond": "microsecond microseconds us usec usecs", "epoch": "epoch",
		"dow": "dow dayofweek weekday", "isodow": "isodow", "doy": "doy dayofyear",
		"week": "week weeks w weekofyear", "quarter": "quarter quarters", "decade": "decade decades",
		"century": "century centuries", "millennium": "millennium millennia", "isoyear": "isoyear",
	} {
		for _, n := range strings.Fields(names) {
			partNames[n] = canon
		}
	}
}

func canonicalPart(s string) (string, bool) {
	p, ok := partNames[strings.ToLower(strings.TrimSpace(s))]
	return p, ok
}

// bindDatePart is date_part(part, x)'s type rule.
func bindDatePart(b Binder, part string, x Operand) (Operand, error) {
	p, ok := canonicalPart(part)
	if !ok {
		return nil, errs.NewNear(errs.Binding, part, "unknown date part %q", part)
	}
	t := x.Type()
	if _, isConst := b.Constant(x); isConst && t.ID() == arrow.STRING {
		var err error
		if x, err = b.Cast(x, Timestamp); err != nil {
			return nil, err
		}
		t = Timestamp
	}
	switch t.ID() {
	case arrow.NULL:
		return b.Literal(nil, Int64), nil
	case arrow.DATE32:
		switch p {
		case "year", "month", "day", "quarter":
			return b.Call("extract_"+p, []Operand{x}, Int64), nil
		}
	case arrow.TIMESTAMP:
	case arrow.TIME64:
		switch p {
		case "hour", "minute", "second", "millisecond", "microsecond", "epoch":
		default:
			return nil, errs.New(errs.Binding, "date part %q of a TIME is not supported (hour to microsecond, epoch)", part)
		}
	default:
		return nil, errs.New(errs.Binding, "date_part of %s: a DATE, TIMESTAMP or TIME is needed", TypeName(t))
	}
	rt := Int64
	if p == "epoch" {
		rt = Float64
	}
	return b.Call("date_part", []Operand{b.Literal(p, String), x}, rt), nil
}

// timePart is a part of µs since midnight.
func timePart(part string, us int64) int64 {
	switch part {
	case "hour":
		return us / usPerHour
	case "minute":
		return us / usPerMinute % 60
	case "second":
		return us / usPerSecond % 60
	case "millisecond":
		return us % usPerMinute / 1000
	case "microsecond":
		return us % usPerMinute
	}
	return 0
}

// timestampPart is a part of µs since the epoch (parts of a day's time
// through timePart).
func timestampPart(part string, us int64) int64 {
	days, tod := SplitTimestamp(us)
	y, m, d := civilFromDays(days)
	switch part {
	case "year":
		return int64(y)
	case "month":
		return int64(m)
	case "day":
		return int64(d)
	case "quarter":
		return int64((m + 2) / 3)
	case "decade":
		return int64(floorDiv(int64(y), 10))
	case "century":
		if y > 0 {
			return int64((y-1)/100 + 1)
		}
		return int64(y/100 - 1)
	case "millennium":
		if y > 0 {
			return int64((y-1)/1000 + 1)
		}
		return int64(y/1000 - 1)
	case "dow": // Sunday 0 … Saturday 6; 1970-01-01 was a Thursday
		return (int64(days)%7 + 11) % 7
	case "isodow": // Monday 1 … Sunday 7
		return (int64(days)%7+10)%7 + 1
	case "doy":
		return int64(days-DaysFromCivil(y, 1, 1)) + 1
	case "week", "isoyear":
		wy, w := isoWeek(days)
		if part == "week" {
			return w
		}
		return wy
	}
	return timePart(part, tod)
}

// isoWeek is the ISO 8601 year and week of a day: weeks start on Monday,
// week 1 holds the year's first Thursday.
func isoWeek(days int32) (year, week int64) {
	mon0 := (int64(days)%7 + 10) % 7 // days since Monday
	thu := int32(int64(days) - mon0 + 3)
	y, _, _ := civilFromDays(thu)
	return int64(y), int64(thu-DaysFromCivil(y, 1, 1))/7 + 1
}

// partArg is a date function's constant part argument, by its canonical
// name; a part in refused (what the function cannot take) is an error
// naming the text.
func partArg(b Binder, fn string, arg Operand, refused ...string) (string, error) {
	v, ok := b.Constant(arg)
	s, isStr := v.(string)
	if !ok || !isStr {
		return "", errs.New(errs.Binding, "%s needs a constant string part ('year', 'day', 'hour', …)", fn)
	}
	p, ok := canonicalPart(s)
	if !ok {
		return "", errs.NewNear(errs.Binding, s, "unknown date part %q", s)
	}
	for _, r := range refused {
		if p == r {
			return "", errs.NewNear(errs.Binding, s, "%s of part %q is not supported", fn, s)
		}
	}
	return p, nil
}

// partLiteral is the canonical part a bound call carries as its first
// argument (partArg's result, a literal).
func partLiteral(call *Call, args []node) (string, error) {
	if len(args) == 0 {
		return "", argErr(call, "no part")
	}
	l, ok := args[0].(*litNode)
	if !ok {
		return "", argErr(call, "part must be a literal")
	}
	return l.v.s, nil
}
