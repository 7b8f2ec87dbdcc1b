package exec

import (
	"gq/expr"
)

// compileEvaluator compiles a non-column expression with expr.
func compileEvaluator(e expr.Expr) (evaluator, error) {
	ev, err := expr.Compile(e)
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return ev, nil
}
