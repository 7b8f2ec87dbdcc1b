package expr

import "unicode/utf8"

// translate(s, from, to) (DuckDB's, PostgreSQL's): each character of s
// that occurs in from is replaced by the character at the same position
// in to, or removed where to is shorter; the first occurrence in from
// decides.
func init() {
	Register(&Function{Name: "translate", SQL: []string{"translate"}, MinArgs: 3, MaxArgs: 3,
		Bind: bindSig("translate", "s", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			from, to := []rune(bstr(a[1].str(i))), []rune(bstr(a[2].str(i)))
			for _, r := range bstr(a[0].str(i)) {
				k := 0
				for k < len(from) && from[k] != r {
					k++
				}
				switch {
				case k == len(from):
					dst = utf8.AppendRune(dst, r)
				case k < len(to):
					dst = utf8.AppendRune(dst, to[k])
				}
			}
			return dst, true, nil
		}),
		NullPropagating: true,
		Doc:             "translate(s VARCHAR, from VARCHAR, to VARCHAR) → VARCHAR: characters mapped one to one, or removed"})
}
