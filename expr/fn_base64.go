package expr

import "encoding/base64"

// to_base64(s) is s's bytes in standard Base64 without line breaks
// (DuckDB's; MySQL breaks the text every 76 characters); from_base64(s)
// decodes it, NULL for text that is not Base64 (MySQL's).
func init() {
	Register(&Function{Name: "to_base64", SQL: []string{"to_base64", "base64"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("to_base64", "s", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			return base64.StdEncoding.AppendEncode(dst, a[0].str(i)), true, nil
		}),
		NullPropagating: true,
		Doc:             "to_base64(s VARCHAR) → VARCHAR: standard Base64, no line breaks (DuckDB's)"})
	Register(&Function{Name: "from_base64", SQL: []string{"from_base64"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("from_base64", "s", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			out, err := base64.StdEncoding.AppendDecode(dst, a[0].str(i))
			if err != nil {
				return dst, false, nil
			}
			return out, true, nil
		}),
		NullPropagating: true,
		Doc:             "from_base64(s VARCHAR) → VARCHAR: the decoded bytes; NULL for invalid Base64 (MySQL's)"})
}
