package expr

import (
	"bytes"
	"unicode/utf8"
)

// The substring searches, all giving a 1-based character position and 0
// where the substring does not occur: instr(s, sub) (MySQL), strpos(s,
// sub) (DuckDB's name), locate(sub, s [, pos]) and position(sub IN s)
// (MySQL; the search starts at character pos, and a pos before the first
// character or past the end gives 0). An empty sub is found where the
// search starts.
func init() {
	Register(&Function{Name: "instr", SQL: []string{"instr", "strpos"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("instr", "s", Int64),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			return findFrom(a[0].str(i), a[1].str(i), 1), true, nil
		}),
		NullPropagating: true,
		Doc:             "instr(s VARCHAR, sub VARCHAR) → BIGINT: sub's first character position in s, 0 if absent"})
	Register(&Function{Name: "locate", SQL: []string{"locate", "position"}, MinArgs: 2, MaxArgs: 3,
		Bind: bindSig("locate", "ssi", Int64),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			pos := int64(1)
			if len(a) == 3 {
				pos = a[2].int(i)
			}
			return findFrom(a[1].str(i), a[0].str(i), pos), true, nil
		}),
		NullPropagating: true,
		Doc:             "locate(sub VARCHAR, s VARCHAR [, pos BIGINT]) → BIGINT: sub's position in s from character pos, 0 if absent"})
}

// findFrom is the character position (1-based) of sub's first occurrence
// in s at or after character pos, 0 if none.
func findFrom(s, sub []byte, pos int64) int64 {
	if pos < 1 {
		return 0
	}
	off, ch := 0, int64(1)
	for ch < pos {
		if off >= len(s) {
			return 0
		}
		_, size := utf8.DecodeRune(s[off:])
		off += size
		ch++
	}
	k := bytes.Index(s[off:], sub)
	if k < 0 {
		return 0
	}
	return ch + int64(utf8.RuneCount(s[off:off+k]))
}
