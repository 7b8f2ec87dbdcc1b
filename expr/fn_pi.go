package expr

import "math"

// pi() is π as a DOUBLE constant: it binds to the literal, so that it folds
// and runs wherever a constant does.
func init() {
	Register(&Function{SQL: []string{"pi"}, MinArgs: 0, MaxArgs: 0,
		Bind: func(b Binder, _ string, _ []Operand) (Operand, error) { return b.Literal(math.Pi, Float64), nil },
		Doc:  "pi() → DOUBLE: 3.141592653589793"})
}
