package expr

import "gq/errs"

// unnest(l) would make one row per element of a list: gq does not expand
// rows in the select list yet, so the call is refused at binding with what
// can be done instead.
func init() {
	Register(&Function{SQL: []string{"unnest"}, MinArgs: 1, MaxArgs: Variadic,
		Bind: func(_ Binder, name string, args []Operand) (Operand, error) {
			return nil, errs.NewNear(errs.Unsupported, name, "%s(%s) is not supported yet: gq cannot expand a list into rows; list_extract(l, i) and len(l) read its elements",
				name, TypeName(args[0].Type()))
		},
		Doc: "unnest(l): not supported yet"})
}
