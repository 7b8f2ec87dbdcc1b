package expr

import (
	"unicode/utf8"

	"gq/errs"
)

// lpad(s, n, pad) and rpad(s, n, pad): s padded on the left or right with
// pad repeated to n characters, or cut to its first n characters when it
// is longer (MySQL's and DuckDB's). A negative n, or an empty pad where
// padding is needed, is NULL (MySQL; DuckDB raises an error).
func init() {
	for _, name := range []string{"lpad", "rpad"} {
		left := name == "lpad"
		Register(&Function{Name: name, SQL: []string{name}, MinArgs: 3, MaxArgs: 3,
			Bind: bindSig(name, "sis", String),
			CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				return appendPadded(dst, a[0].str(i), a[1].int(i), a[2].str(i), left)
			}),
			NullPropagating: true,
			Doc:             name + "(s VARCHAR, n BIGINT, pad VARCHAR) → VARCHAR: n characters; NULL for n < 0 or an empty pad (MySQL)"})
	}
}

// maxStringResult bounds the strings, in bytes, that a function builds
// from a count (repeat, space, lpad, rpad): beyond it the query fails
// rather than exhaust memory. It is MySQL's default max_allowed_packet,
// past which MySQL gives NULL.
const maxStringResult = 64 << 20

func appendPadded(dst, s []byte, n int64, pad []byte, left bool) ([]byte, bool, error) {
	if n < 0 {
		return dst, false, nil
	}
	nch := int64(utf8.RuneCount(s))
	if nch >= n {
		return append(dst, substring(s, 1, n, true)...), true, nil
	}
	if len(pad) == 0 {
		return dst, false, nil
	}
	if n > maxStringResult/utf8.UTFMax {
		return dst, false, errs.New(errs.Execution, "pad to %d characters: the result is too large", n)
	}
	if !left {
		dst = append(dst, s...)
	}
	for need := n - nch; need > 0; {
		for _, r := range bstr(pad) {
			if need == 0 {
				break
			}
			dst = utf8.AppendRune(dst, r)
			need--
		}
	}
	if left {
		dst = append(dst, s...)
	}
	return dst, true, nil
}
