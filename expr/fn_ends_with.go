package expr

import "bytes"

// ends_with(s, suffix) and contains(s, sub) (DuckDB's; starts_with is in
// strfn.go, where LIKE 'p%' also binds): BOOLEAN, case sensitive, and an
// empty suffix or sub is always found.
func init() {
	Register(&Function{Name: "ends_with", SQL: []string{"ends_with", "suffix"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("ends_with", "s", Boolean),
		CPU: boolRows(func(a []strArg, i int) (bool, bool, error) {
			return bytes.HasSuffix(a[0].str(i), a[1].str(i)), true, nil
		}),
		NullPropagating: true,
		Doc:             "ends_with(s VARCHAR, suffix VARCHAR) → BOOLEAN"})
	Register(&Function{Name: "contains", SQL: []string{"contains"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("contains", "s", Boolean),
		CPU: boolRows(func(a []strArg, i int) (bool, bool, error) {
			return bytes.Contains(a[0].str(i), a[1].str(i)), true, nil
		}),
		NullPropagating: true,
		Doc:             "contains(s VARCHAR, sub VARCHAR) → BOOLEAN"})
}
