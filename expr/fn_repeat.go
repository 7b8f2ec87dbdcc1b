package expr

import "gq/errs"

// repeat(s, n) is s n times, and space(n) n spaces; n ≤ 0 gives ” (MySQL
// and DuckDB). A result beyond maxStringResult bytes is an error.
func init() {
	Register(&Function{Name: "repeat", SQL: []string{"repeat"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("repeat", "si", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			return appendRepeated(dst, a[0].str(i), a[1].int(i))
		}),
		NullPropagating: true,
		Doc:             "repeat(s VARCHAR, n BIGINT) → VARCHAR: s n times; '' for n ≤ 0"})
	Register(&Function{Name: "space", SQL: []string{"space"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("space", "i", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			return appendRepeated(dst, []byte{' '}, a[0].int(i))
		}),
		NullPropagating: true,
		Doc:             "space(n BIGINT) → VARCHAR: n spaces; '' for n ≤ 0"})
}

func appendRepeated(dst, s []byte, n int64) ([]byte, bool, error) {
	if n <= 0 || len(s) == 0 {
		return dst, true, nil
	}
	if n > maxStringResult/int64(len(s)) {
		return dst, false, errs.New(errs.Execution, "repeat of %d bytes %d times: the result is too large", len(s), n)
	}
	for ; n > 0; n-- {
		dst = append(dst, s...)
	}
	return dst, true, nil
}
