package expr

import "unicode/utf8"

// left(s, n) and right(s, n): s's first or last n characters (MySQL's: n ≤
// 0 gives ”; DuckDB's left(s, -k) drops k characters instead).
func init() {
	Register(&Function{Name: "left", SQL: []string{"left"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("left", "si", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			n := a[1].int(i)
			if n <= 0 {
				return dst, true, nil
			}
			return append(dst, substring(a[0].str(i), 1, n, true)...), true, nil
		}),
		NullPropagating: true,
		Doc:             "left(s VARCHAR, n BIGINT) → VARCHAR: the first n characters; '' for n ≤ 0 (MySQL)"})
	Register(&Function{Name: "right", SQL: []string{"right"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("right", "si", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			s, n := a[0].str(i), a[1].int(i)
			switch {
			case n <= 0:
				return dst, true, nil
			case n >= int64(len(s)) || n >= int64(utf8.RuneCount(s)):
				return append(dst, s...), true, nil
			}
			return append(dst, substring(s, -n, n, true)...), true, nil
		}),
		NullPropagating: true,
		Doc:             "right(s VARCHAR, n BIGINT) → VARCHAR: the last n characters; '' for n ≤ 0 (MySQL)"})
}
