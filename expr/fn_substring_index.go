package expr

import "bytes"

// substring_index(s, delim, count) (MySQL): s up to the count-th delim
// from the left, or for a negative count after the |count|-th delim from
// the right; all of s when delim occurs fewer times, ” for count 0 or an
// empty delim.
func init() {
	Register(&Function{Name: "substring_index", SQL: []string{"substring_index"}, MinArgs: 3, MaxArgs: 3,
		Bind: bindSig("substring_index", "ssi", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			return append(dst, substringIndex(a[0].str(i), a[1].str(i), a[2].int(i))...), true, nil
		}),
		NullPropagating: true,
		Doc:             "substring_index(s VARCHAR, delim VARCHAR, count BIGINT) → VARCHAR (MySQL)"})
}

func substringIndex(s, delim []byte, count int64) []byte {
	if count == 0 || len(delim) == 0 {
		return nil
	}
	if count > 0 {
		off := 0
		for ; count > 0; count-- {
			k := bytes.Index(s[off:], delim)
			if k < 0 {
				return s
			}
			off += k + len(delim)
		}
		return s[:off-len(delim)]
	}
	end := len(s)
	for ; count < 0; count++ {
		k := bytes.LastIndex(s[:end], delim)
		if k < 0 {
			return s
		}
		end = k
	}
	return s[end+len(delim):]
}
