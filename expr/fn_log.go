package expr

import "math"

// The logarithms and exp. MySQL's log(x) is the natural logarithm (DuckDB's
// is base 10: the dialect decides); log(b, x) is x's logarithm in base b in
// both. A logarithm of zero or of a negative number is NULL (MySQL; DuckDB
// raises an error). The device does not run them: its libm may differ from
// Go's in the last bit, and the device must give the CPU's answer exactly.
func init() {
	Register(&Function{Name: "ln", SQL: []string{"ln"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindFloats("ln"), CPU: floatRows(mathRow1("ln", math.Log, positive)), NullPropagating: true,
		Doc: "ln(x DOUBLE) → DOUBLE: natural logarithm; NULL for x ≤ 0 (MySQL; DuckDB errs)"})
	Register(&Function{Name: "log", SQL: []string{"log"}, MinArgs: 1, MaxArgs: 2,
		Bind: bindFloats("log"),
		CPU: func(call *Call, args []node) (node, error) {
			if len(args) == 1 {
				return floatRows(mathRow1("log", math.Log, positive))(call, args)
			}
			// DuckDB's ratio of base-10 logarithms (MySQL divides natural
			// ones): exact where both are powers of ten, log(10, 0.001) = -3.
			return floatRows(mathRow2("log", func(b, x float64) float64 { return math.Log10(x) / math.Log10(b) },
				func(b, x float64) bool { return b > 0 && b != 1 && x > 0 }))(call, args)
		}, NullPropagating: true,
		Doc: "log(x DOUBLE) → DOUBLE: natural logarithm (MySQL; DuckDB's log(x) is base 10); log(b, x): base b; NULL for x ≤ 0, b ≤ 0 or b = 1"})
	Register(&Function{Name: "log10", SQL: []string{"log10"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindFloats("log10"), CPU: floatRows(mathRow1("log10", math.Log10, positive)), NullPropagating: true,
		Doc: "log10(x DOUBLE) → DOUBLE; NULL for x ≤ 0 (MySQL; DuckDB errs)"})
	Register(&Function{Name: "log2", SQL: []string{"log2"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindFloats("log2"), CPU: floatRows(mathRow1("log2", math.Log2, positive)), NullPropagating: true,
		Doc: "log2(x DOUBLE) → DOUBLE; NULL for x ≤ 0 (MySQL; DuckDB errs)"})
	Register(&Function{Name: "exp", SQL: []string{"exp"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindFloats("exp"), CPU: floatRows(mathRow1("exp", math.Exp, nil)), NullPropagating: true,
		Doc: "exp(x DOUBLE) → DOUBLE: e to the x; an error where it overflows (MySQL; DuckDB gives inf)"})
}
