package expr

// typeof(x) (DuckDB's) is the name of x's type as gq types it (BIGINT,
// DOUBLE, DECIMAL(p,s), VARCHAR, DATE, …), a constant fixed at binding:
// gq's types are not always DuckDB's (an integer literal is BIGINT here,
// INTEGER there).
func init() {
	Register(&Function{SQL: []string{"typeof"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			return b.Literal(TypeName(args[0].Type()), String), nil
		},
		Doc: "typeof(x) → VARCHAR: the name of x's type"})
}
