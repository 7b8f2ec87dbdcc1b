package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Timestamp and interval arithmetic, the functions the planner binds + and
// − to (planner/bind_time.go): ts_add_interval and ts_sub_interval
// (TIMESTAMP[TZ] ± INTERVAL, months first, clamped to the month's end),
// ts_diff (TIMESTAMP − TIMESTAMP: days and µs, DuckDB's), interval_add and
// interval_sub (part by part). CPU only: the device leaves them to the CPU.
func init() {
	for _, sub := range []bool{false, true} {
		name := "ts_add_interval"
		if sub {
			name = "ts_sub_interval"
		}
		Register(&Function{Name: name, MinArgs: 2, MaxArgs: 2, NullPropagating: true,
			CPU: func(call *Call, args []node) (node, error) {
				if err := wantArgs(call, args, 2, 2); err != nil {
					return nil, err
				}
				if err := wantType(call, args[0], arrow.TIMESTAMP); err != nil {
					return nil, err
				}
				if err := wantType(call, args[1], arrow.INTERVAL_MONTH_DAY_NANO); err != nil {
					return nil, err
				}
				return &rowKernel{args: args, t: call.Type, i64: func(r row) (int64, error) {
					iv := r.interval(1)
					if sub {
						iv = negInterval(iv)
					}
					v, ok := AddInterval(r.int64(0), iv)
					if !ok {
						return 0, errs.New(errs.Execution, "%s %s INTERVAL '%s' is out of the TIMESTAMP range",
							FormatTimestamp(r.int64(0), false), map[bool]string{false: "+", true: "-"}[sub], FormatInterval(r.interval(1)))
					}
					return v, nil
				}}, nil
			},
			Doc: name + "(t TIMESTAMP, i INTERVAL) → TIMESTAMP: t ± i (what + and - bind to)"})
	}
	Register(&Function{Name: "ts_diff", MinArgs: 2, MaxArgs: 2, NullPropagating: true,
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			for _, a := range args {
				if err := wantType(call, a, arrow.TIMESTAMP); err != nil {
					return nil, err
				}
			}
			return &rowKernel{args: args, t: Interval, iv: func(r row) (arrow.MonthDayNanoInterval, error) {
				a, b := r.int64(0), r.int64(1)
				if _, ok := addOvf(a, -b); !ok {
					return arrow.MonthDayNanoInterval{}, errs.New(errs.Execution, "%s - %s overflows an INTERVAL",
						FormatTimestamp(a, false), FormatTimestamp(b, false))
				}
				return intervalBetween(a, b), nil
			}}, nil
		},
		Doc: "ts_diff(a TIMESTAMP, b TIMESTAMP) → INTERVAL: a - b in days and µs"})
	for _, sub := range []bool{false, true} {
		name := "interval_add"
		if sub {
			name = "interval_sub"
		}
		Register(&Function{Name: name, MinArgs: 2, MaxArgs: 2, NullPropagating: true,
			CPU: func(call *Call, args []node) (node, error) {
				if err := wantArgs(call, args, 2, 2); err != nil {
					return nil, err
				}
				return &rowKernel{args: args, t: Interval, iv: func(r row) (arrow.MonthDayNanoInterval, error) {
					b := r.interval(1)
					if sub {
						b = negInterval(b)
					}
					return sumIntervals(r.interval(0), b), nil
				}}, nil
			},
			Doc: name + "(a INTERVAL, b INTERVAL) → INTERVAL"})
	}
}

// time_add_interval and time_sub_interval: TIME ± INTERVAL, DuckDB's: the
// interval's months and days are ignored, the clock wraps at midnight.
func init() {
	for _, sub := range []bool{false, true} {
		name := "time_add_interval"
		if sub {
			name = "time_sub_interval"
		}
		Register(&Function{Name: name, MinArgs: 2, MaxArgs: 2, NullPropagating: true,
			CPU: func(call *Call, args []node) (node, error) {
				if err := wantArgs(call, args, 2, 2); err != nil {
					return nil, err
				}
				if err := wantType(call, args[0], arrow.TIME64); err != nil {
					return nil, err
				}
				return &rowKernel{args: args, t: Time, i64: func(r row) (int64, error) {
					d := r.interval(1).Nanoseconds / 1000 % usPerDay
					if sub {
						d = -d
					}
					v := (r.int64(0) + d) % usPerDay
					if v < 0 {
						v += usPerDay
					}
					return v, nil
				}}, nil
			},
			Doc: name + "(t TIME, i INTERVAL) → TIME: t ± i's time part, wrapping at midnight"})
	}
}
