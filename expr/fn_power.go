package expr

import "math"

// power(x, y) is x to the y (pow is its MySQL alias). A result that is not
// a real number (a negative base to a fractional power) is NULL, and a
// finite x and y whose power overflows or divides by zero (pow(0, -1)) is
// an error, as in MySQL (DuckDB gives NaN and inf). CPU only: see fn_log.go.
func init() {
	Register(&Function{Name: "power", SQL: []string{"power", "pow"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindFloats("power"), CPU: floatRows(mathRow2("power", math.Pow, nil)), NullPropagating: true,
		Doc: "power(x DOUBLE, y DOUBLE) → DOUBLE; NULL where not real, an error on overflow (MySQL; DuckDB gives NaN/inf)"})
}
