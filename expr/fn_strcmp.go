package expr

import "bytes"

// strcmp(a, b) (MySQL's): -1, 0 or 1 as a sorts before, with or after b,
// byte by byte (the binary collation gq compares strings in).
func init() {
	Register(&Function{Name: "strcmp", SQL: []string{"strcmp"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("strcmp", "s", Int64),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			return int64(bytes.Compare(a[0].str(i), a[1].str(i))), true, nil
		}),
		NullPropagating: true,
		Doc:             "strcmp(a VARCHAR, b VARCHAR) → BIGINT: -1, 0 or 1 (binary collation)"})
}
