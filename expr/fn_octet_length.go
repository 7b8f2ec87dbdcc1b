package expr

// octet_length(s) is s's length in bytes (MySQL's length(s) counts bytes
// too, but gq's length counts characters, as DuckDB's does), bit_length(s)
// eight times that.
func init() {
	for _, c := range []struct {
		name string
		k    int64
	}{{"octet_length", 1}, {"bit_length", 8}} {
		name, k := c.name, c.k
		Register(&Function{Name: name, SQL: []string{name}, MinArgs: 1, MaxArgs: 1,
			Bind: bindSig(name, "s", Int64),
			CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
				return k * int64(len(a[0].str(i))), true, nil
			}),
			NullPropagating: true,
			Doc:             name + "(s VARCHAR) → BIGINT"})
	}
}
