package expr

import (
	"math/rand/v2"

	"gq/errs"
)

// rand() (random() in DuckDB) is a DOUBLE drawn uniformly from [0, 1),
// one per row: Volatile, so that neither the planner nor the compiler
// folds it to one constant. MySQL's rand(seed) (a repeatable sequence) is
// refused by name. CPU only: the device has no generator of its own.
func init() {
	Register(&Function{Name: "rand", SQL: []string{"rand", "random"}, MinArgs: 0, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			if len(args) > 0 {
				return nil, errs.New(errs.Unsupported, "%s(seed) is not supported: call %s() without a seed", name, name)
			}
			return b.Call("rand", nil, Float64), nil
		},
		CPU:      floatRows(func([]strArg, int) (float64, bool, error) { return rand.Float64(), true, nil }),
		Volatile: true,
		Doc:      "rand() → DOUBLE in [0, 1), a new value each row; rand(seed) is not supported"})
}
