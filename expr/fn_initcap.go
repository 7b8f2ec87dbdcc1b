package expr

import (
	"unicode"
	"unicode/utf8"
)

// initcap(s) (PostgreSQL's and Oracle's; neither MySQL nor DuckDB has it):
// the first letter of each word upper case and the others lower case, a
// word being a run of letters and digits.
func init() {
	Register(&Function{Name: "initcap", SQL: []string{"initcap"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("initcap", "s", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			inWord := false
			for _, r := range bstr(a[0].str(i)) {
				if inWord {
					r = unicode.ToLower(r)
				} else {
					r = unicode.ToUpper(r)
				}
				inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
				dst = utf8.AppendRune(dst, r)
			}
			return dst, true, nil
		}),
		NullPropagating: true,
		Doc:             "initcap(s VARCHAR) → VARCHAR: each word capitalised (PostgreSQL's)"})
}
