package expr

import "math"

// cbrt(x) is x's cube root (DuckDB's; defined for negative x too). CPU
// only: see fn_log.go.
func init() {
	Register(&Function{Name: "cbrt", SQL: []string{"cbrt"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindFloats("cbrt"), CPU: floatRows(mathRow1("cbrt", math.Cbrt, nil)), NullPropagating: true,
		Doc: "cbrt(x DOUBLE) → DOUBLE: cube root"})
}
