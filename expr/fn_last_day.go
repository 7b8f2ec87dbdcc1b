package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// last_day(x) is the last day of x's month, a DATE (x a DATE or a
// TIMESTAMP[TZ]). CPU only.
func init() {
	Register(&Function{Name: "last_day", SQL: []string{"last_day"}, MinArgs: 1, MaxArgs: 1, NullPropagating: true,
		Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
			x, err := timeArg(b, fn, args[0])
			if err != nil {
				return nil, err
			}
			return b.Call("last_day", []Operand{x}, Date), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if err := wantType(call, args[0], arrow.DATE32, arrow.TIMESTAMP); err != nil {
				return nil, err
			}
			return &rowKernel{args: args, t: Date, i64: func(r row) (int64, error) {
				days, _ := SplitTimestamp(r.micros(0))
				y, m, _ := civilFromDays(days)
				return int64(DaysFromCivil(y, m, DaysInMonth(y, m))), nil
			}}, nil
		},
		Doc: "last_day(x DATE|TIMESTAMP) → DATE: the last day of x's month"})
}
