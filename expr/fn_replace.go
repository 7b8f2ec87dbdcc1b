package expr

import "bytes"

// replace(s, from, to): every occurrence of from in s replaced by to,
// scanning left to right without overlaps (MySQL's and DuckDB's; case
// sensitive). An empty from leaves s unchanged.
func init() {
	Register(&Function{Name: "replace", SQL: []string{"replace"}, MinArgs: 3, MaxArgs: 3,
		Bind: bindSig("replace", "s", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			s, from, to := a[0].str(i), a[1].str(i), a[2].str(i)
			if len(from) == 0 {
				return append(dst, s...), true, nil
			}
			for {
				k := bytes.Index(s, from)
				if k < 0 {
					return append(dst, s...), true, nil
				}
				dst = append(append(dst, s[:k]...), to...)
				s = s[k+len(from):]
			}
		}),
		NullPropagating: true,
		Doc:             "replace(s VARCHAR, from VARCHAR, to VARCHAR) → VARCHAR: every from replaced by to"})
}
