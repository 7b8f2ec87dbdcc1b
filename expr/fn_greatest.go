package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// greatest(a, b, …) and least(a, b, …): the largest or smallest argument,
// the arguments brought to the type they meet in (as CASE branches). A
// NULL argument makes the result NULL, as in MySQL; DuckDB skips NULLs
// instead. The call binds to CASE WHEN a ≥ b AND a ≥ c THEN a WHEN b ≥ a
// AND b ≥ c THEN b … END over the comparison operators: a NULL makes every
// condition it is in not true, so the CASE falls through to NULL, and the
// CASE runs wherever its comparisons do (the device included).
func init() {
	for _, name := range []string{"greatest", "least"} {
		op := "ge"
		if name == "least" {
			op = "le"
		}
		Register(&Function{SQL: []string{name}, MinArgs: 1, MaxArgs: maxGreatestArgs,
			Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
				t, args, err := b.Unify(fn, args)
				if err != nil {
					return nil, err
				}
				if IsNested(t) || isType(t, arrow.INTERVAL_MONTH_DAY_NANO) {
					return nil, errs.New(errs.Binding, "%s of %s values", fn, TypeName(t))
				}
				if len(args) == 1 {
					return args[0], nil
				}
				var parts []Operand
				for i, a := range args {
					var cond Operand
					for j, o := range args {
						if i == j {
							continue
						}
						c, err := b.Op(op, a, o)
						if err != nil {
							return nil, err
						}
						if cond == nil {
							cond = c
						} else if cond, err = b.Op("and", cond, c); err != nil {
							return nil, err
						}
					}
					parts = append(parts, cond, a)
				}
				return b.Op("case", append(parts, b.Literal(nil, t))...)
			},
			Doc: name + "(x, y, …) → the arguments' common type; NULL if any is NULL (MySQL; DuckDB skips NULLs)"})
	}
}

// maxGreatestArgs bounds greatest/least: the CASE it binds to compares
// every pair of arguments.
const maxGreatestArgs = 64
