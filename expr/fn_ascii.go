package expr

import (
	"unicode/utf8"

	"gq/errs"
)

// ascii(s) is the code of s's first byte, 0 for ” (MySQL's; DuckDB gives
// the first character's code point, which differs past ASCII); chr(n) is
// the character with code point n as UTF-8 (DuckDB's; MySQL's CHAR(n)
// builds bytes instead), an error for a value that is not a code point.
func init() {
	Register(&Function{Name: "ascii", SQL: []string{"ascii"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("ascii", "s", Int64),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			s := a[0].str(i)
			if len(s) == 0 {
				return 0, true, nil
			}
			return int64(s[0]), true, nil
		}),
		NullPropagating: true,
		Doc:             "ascii(s VARCHAR) → BIGINT: the first byte's code, 0 for '' (MySQL)"})
	Register(&Function{Name: "chr", SQL: []string{"chr"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("chr", "i", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			n := a[0].int(i)
			if n < 0 || n > utf8.MaxRune || !utf8.ValidRune(rune(n)) {
				return dst, false, errs.New(errs.Execution, "chr(%d): not a Unicode code point", n)
			}
			return utf8.AppendRune(dst, rune(n)), true, nil
		}),
		NullPropagating: true,
		Doc:             "chr(n BIGINT) → VARCHAR: the character with code point n (DuckDB's)"})
}
