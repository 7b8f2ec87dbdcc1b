package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// strftime(x, format) formats a DATE or TIMESTAMP[TZ] with DuckDB's
// specifiers (%Y-%m-%d %H:%M:%S.%f, %-d, %B, …), date_format(x, format)
// with MySQL's (%i minutes, %s seconds, %M month name); strptime(text,
// format) and str_to_date(text, format) read text back as a TIMESTAMP
// (an error names the text, the format and where they part). The format
// is a constant, compiled once (timefmt.go). CPU only.
func init() {
	for _, mysql := range []bool{false, true} {
		name, sql := "strftime", []string{"strftime"}
		if mysql {
			name, sql = "date_format", []string{"date_format", "time_format"}
		}
		Register(&Function{Name: name, SQL: sql, MinArgs: 2, MaxArgs: 2, NullPropagating: true,
			Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
				x, err := timeArg(b, fn, args[0])
				if err != nil {
					return nil, err
				}
				f, err := formatArg(b, fn, args[1], mysql)
				if err != nil {
					return nil, err
				}
				return b.Call(name, []Operand{x, f}, String), nil
			},
			CPU: func(call *Call, args []node) (node, error) {
				fs, _, err := compiledFormat(call, args, mysql)
				if err != nil {
					return nil, err
				}
				return &rowKernel{args: args[:1], t: String, str: func(dst []byte, r row) ([]byte, error) {
					return appendFormatted(dst, fs, r.micros(0), IsTZ(r.args[0].DataType())), nil
				}}, nil
			},
			Doc: name + "(x DATE|TIMESTAMP, format VARCHAR) → VARCHAR"})
		pname, psql := "strptime", []string{"strptime"}
		if mysql {
			pname, psql = "str_to_date", []string{"str_to_date"}
		}
		Register(&Function{Name: pname, SQL: psql, MinArgs: 2, MaxArgs: 2, NullPropagating: true,
			Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
				s, err := b.Cast(args[0], String)
				if err != nil {
					return nil, err
				}
				f, err := formatArg(b, fn, args[1], mysql)
				if err != nil {
					return nil, err
				}
				return b.Call(pname, []Operand{s, f}, Timestamp), nil
			},
			CPU: func(call *Call, args []node) (node, error) {
				fs, format, err := compiledFormat(call, args, mysql)
				if err != nil {
					return nil, err
				}
				if err := wantType(call, args[0], arrow.STRING); err != nil {
					return nil, err
				}
				return &rowKernel{args: args[:1], t: Timestamp, i64: func(r row) (int64, error) {
					return parseFormatted(r.string(0), fs, format)
				}}, nil
			},
			Doc: pname + "(text VARCHAR, format VARCHAR) → TIMESTAMP"})
	}
}

// timeArg is a formatting function's value argument: a DATE or
// TIMESTAMP[TZ] (a string constant read as a TIMESTAMP).
func timeArg(b Binder, fn string, x Operand) (Operand, error) {
	t := x.Type()
	if _, c := b.Constant(x); c && t.ID() == arrow.STRING {
		return b.Cast(x, Timestamp)
	}
	if t.ID() != arrow.DATE32 && !IsTimestamp(t) && !isNullType(t) {
		return nil, errs.New(errs.Binding, "%s of %s: a DATE or TIMESTAMP is needed", fn, TypeName(t))
	}
	return x, nil
}

// formatArg checks that a format argument is a constant string that
// compiles, so that a bad one fails at binding, naming itself.
func formatArg(b Binder, fn string, f Operand, mysql bool) (Operand, error) {
	v, ok := b.Constant(f)
	s, isStr := v.(string)
	if !ok || (!isStr && v != nil) {
		return nil, errs.New(errs.Binding, "%s needs a constant format string", fn)
	}
	if isStr {
		if _, err := compileTimeFormat(s, mysql); err != nil {
			return nil, errs.NewNear(errs.Binding, s, "%s: %v", fn, err)
		}
	}
	return f, nil
}

// compiledFormat compiles the literal format of a formatting call.
func compiledFormat(call *Call, args []node, mysql bool) ([]tfField, string, error) {
	if err := wantArgs(call, args, 2, 2); err != nil {
		return nil, "", err
	}
	l, ok := args[1].(*litNode)
	if !ok {
		return nil, "", argErr(call, "format must be a literal")
	}
	fs, err := compileTimeFormat(l.v.s, mysql)
	return fs, l.v.s, err
}
