package expr

// concat_ws(sep, a, b, …): the arguments that are not NULL joined by sep;
// NULL only when sep is (MySQL's and DuckDB's rule, unlike concat).
func init() {
	Register(&Function{Name: "concat_ws", SQL: []string{"concat_ws"}, MinArgs: 2, MaxArgs: Variadic,
		Bind: bindSig("concat_ws", "s", String),
		CPU: func(call *Call, args []node) (node, error) {
			n, err := strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				if a[0].null(i) {
					return dst, false, nil
				}
				sep, first := a[0].str(i), true
				for k := 1; k < len(a); k++ {
					if a[k].null(i) {
						continue
					}
					if !first {
						dst = append(dst, sep...)
					}
					dst, first = append(dst, a[k].str(i)...), false
				}
				return dst, true, nil
			})(call, args)
			if r, ok := n.(*rowNode); ok {
				r.seesNulls = true
			}
			return n, err
		},
		Doc: "concat_ws(sep VARCHAR, s VARCHAR, …) → VARCHAR: NULL arguments skipped; NULL if sep is NULL"})
}
