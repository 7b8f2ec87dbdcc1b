package expr

import (
	"bytes"
	"unicode/utf8"
)

// split_part(s, sep, n): the n-th field of s split at sep (DuckDB's): n
// counts from 1, a negative n from the end; a field past either end (or n
// = 0) is ”. An empty sep splits s into its characters.
func init() {
	Register(&Function{Name: "split_part", SQL: []string{"split_part"}, MinArgs: 3, MaxArgs: 3,
		Bind: bindSig("split_part", "ssi", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			return append(dst, splitPart(a[0].str(i), a[1].str(i), a[2].int(i))...), true, nil
		}),
		NullPropagating: true,
		Doc:             "split_part(s VARCHAR, sep VARCHAR, n BIGINT) → VARCHAR: the n-th field (negative: from the end), '' past the ends"})
}

func splitPart(s, sep []byte, n int64) []byte {
	var fields [][]byte
	if len(sep) == 0 {
		for len(s) > 0 {
			_, size := utf8.DecodeRune(s)
			fields, s = append(fields, s[:size]), s[size:]
		}
	} else {
		fields = bytes.Split(s, sep)
	}
	if n < 0 {
		n += int64(len(fields)) + 1
	}
	if n < 1 || n > int64(len(fields)) {
		return nil
	}
	return fields[n-1]
}
