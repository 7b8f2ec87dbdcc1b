package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// Conversions between timestamps and numbers, DuckDB's: epoch_ms(ts) and
// epoch_us(ts) are BIGINT ms / µs since 1970 (epoch_ms(n) of a BIGINT is
// the TIMESTAMP n ms after 1970), to_timestamp(seconds) a TIMESTAMPTZ,
// make_timestamp(y, m, d, h, mi, s) a TIMESTAMP (s may have a fraction).
// CPU only.
func init() {
	for _, e := range []struct {
		name string
		per  int64 // µs per unit
	}{{"epoch_ms", 1000}, {"epoch_us", 1}} {
		Register(&Function{Name: e.name, SQL: []string{e.name}, MinArgs: 1, MaxArgs: 1, NullPropagating: true,
			Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
				x := args[0]
				if isIntType(x.Type()) { // BIGINT → TIMESTAMP
					return b.Call(fn, []Operand{x}, Timestamp), nil
				}
				x, err := timeArg(b, fn, x)
				if err != nil {
					return nil, err
				}
				return b.Call(fn, []Operand{x}, Int64), nil
			},
			CPU: func(call *Call, args []node) (node, error) {
				if err := wantArgs(call, args, 1, 1); err != nil {
					return nil, err
				}
				if call.Type.ID() == arrow.TIMESTAMP {
					return &rowKernel{args: args, t: call.Type, i64: func(r row) (int64, error) {
						v := r.int64(0)
						if v > math.MaxInt64/e.per || v < math.MinInt64/e.per {
							return 0, errs.New(errs.Execution, "%s(%d) is out of the TIMESTAMP range", e.name, v)
						}
						return v * e.per, nil
					}}, nil
				}
				return &rowKernel{args: args, t: Int64, i64: func(r row) (int64, error) {
					return floorDiv(r.micros(0), e.per), nil
				}}, nil
			},
			Doc: e.name + "(x TIMESTAMP) → BIGINT since 1970; " + e.name + "(n BIGINT) → TIMESTAMP"})
	}
	Register(&Function{Name: "to_timestamp", SQL: []string{"to_timestamp"}, MinArgs: 1, MaxArgs: 1, NullPropagating: true,
		Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
			if !isNumberType(args[0].Type()) && !isNullType(args[0].Type()) {
				return nil, errs.New(errs.Binding, "%s of %s: seconds since 1970 are needed", fn, TypeName(args[0].Type()))
			}
			x, err := b.Cast(args[0], Float64)
			if err != nil {
				return nil, err
			}
			return b.Call("to_timestamp", []Operand{x}, TimestampTZ), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			return &rowKernel{args: args, t: TimestampTZ, i64: func(r row) (int64, error) {
				s := r.float64(0)
				us := math.Round(s * 1e6)
				if !(us >= -9.2e18 && us <= 9.2e18) {
					return 0, errs.New(errs.Execution, "to_timestamp(%v) is out of the TIMESTAMP range", s)
				}
				return int64(us), nil
			}}, nil
		},
		Doc: "to_timestamp(seconds DOUBLE) → TIMESTAMPTZ"})
	Register(&Function{Name: "make_timestamp", SQL: []string{"make_timestamp"}, MinArgs: 6, MaxArgs: 6, NullPropagating: true,
		Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
			out := make([]Operand, 6)
			for i, a := range args {
				t := Int64
				if i == 5 {
					t = Float64
				}
				if !isNumberType(a.Type()) && !isNullType(a.Type()) {
					return nil, errs.New(errs.Binding, "%s: argument %d is %s, a number is needed", fn, i+1, TypeName(a.Type()))
				}
				var err error
				if out[i], err = b.Cast(a, t); err != nil {
					return nil, err
				}
			}
			return b.Call("make_timestamp", out, Timestamp), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 6, 6); err != nil {
				return nil, err
			}
			return &rowKernel{args: args, t: Timestamp, i64: func(r row) (int64, error) {
				y, m, d, h, mi := r.int64(0), r.int64(1), r.int64(2), r.int64(3), r.int64(4)
				s := r.float64(5)
				if y < -290000 || y > 290000 || m < 1 || m > 12 || d < 1 || d > int64(DaysInMonth(int32(y), int32(m))) ||
					h < 0 || h > 23 || mi < 0 || mi > 59 || !(s >= 0 && s < 60) {
					return 0, errs.New(errs.Execution, "make_timestamp(%d, %d, %d, %d, %d, %v): no such timestamp", y, m, d, h, mi, s)
				}
				days := int64(DaysFromCivil(int32(y), int32(m), int32(d)))
				return days*usPerDay + h*usPerHour + mi*usPerMinute + int64(math.Round(s*1e6)), nil
			}}, nil
		},
		Doc: "make_timestamp(year, month, day, hour, minute, seconds DOUBLE) → TIMESTAMP"})
}
