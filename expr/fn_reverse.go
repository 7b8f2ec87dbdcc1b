package expr

import (
	"unicode/utf8"
)

// reverse(s) is s with its characters in reverse order (MySQL's REVERSE);
// the whole function is this file. The device does not run it (GPU is
// nil: a string result cannot leave a fused kernel), so a projection of
// it stays on the CPU.
func init() {
	Register(&Function{Name: "reverse", SQL: []string{"reverse"}, MinArgs: 1, MaxArgs: 1,
		Bind: unary("reverse", String, String),
		CPU: stringKernel(func(dst []byte, args []strArg, i int) []byte {
			return appendReversed(dst, args[0].str(i))
		}),
		NullPropagating: true,
		Doc:             "reverse(s VARCHAR) → VARCHAR: characters in reverse order"})
}

// appendReversed appends s's characters (UTF-8 sequences kept whole; an
// invalid byte counts as one character) in reverse order.
func appendReversed(dst, s []byte) []byte {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRune(s)
		if r == utf8.RuneError && size <= 1 {
			size = 1
		}
		dst = append(dst, s[len(s)-size:]...)
		s = s[:len(s)-size]
	}
	return dst
}
