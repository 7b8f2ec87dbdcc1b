package expr

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// hex(x): a string's bytes, or an integer's 64-bit two's complement, as
// upper-case hex digits (MySQL's and DuckDB's: hex(-1) is sixteen Fs); a
// DECIMAL or DOUBLE argument is cast to BIGINT first, as MySQL rounds it.
// bin(n) and oct(n) (MySQL's) are n's two's complement in base 2 and 8.
func init() {
	Register(&Function{Name: "hex", SQL: []string{"hex", "to_hex"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			t := args[0].Type()
			switch {
			case isNumberType(t):
				return bindSig("hex", "i", String)(b, name, args)
			case IsNested(t):
				return nil, errs.New(errs.Binding, "%s of %s", name, TypeName(t))
			}
			return bindSig("hex", "s", String)(b, name, args)
		},
		CPU: func(call *Call, args []node) (node, error) {
			if len(args) == 1 && args[0].typ().ID() == arrow.INT64 {
				return strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
					start := len(dst)
					dst = strconv.AppendUint(dst, uint64(a[0].int(i)), 16)
					upperHex(dst[start:])
					return dst, true, nil
				})(call, args)
			}
			return strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				const digits = "0123456789ABCDEF"
				for _, c := range a[0].str(i) {
					dst = append(dst, digits[c>>4], digits[c&15])
				}
				return dst, true, nil
			})(call, args)
		},
		NullPropagating: true,
		Doc:             "hex(x VARCHAR or BIGINT) → VARCHAR: upper-case hex of the bytes, or of the 64-bit two's complement"})
	for _, c := range []struct {
		name string
		base int
	}{{"bin", 2}, {"oct", 8}} {
		name, base := c.name, c.base
		Register(&Function{Name: name, SQL: []string{name}, MinArgs: 1, MaxArgs: 1,
			Bind: bindSig(name, "i", String),
			CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				return strconv.AppendUint(dst, uint64(a[0].int(i)), base), true, nil
			}),
			NullPropagating: true,
			Doc:             name + "(n BIGINT) → VARCHAR: n's 64-bit two's complement in base " + strconv.Itoa(base) + " (MySQL's)"})
	}
}

// upperHex upper-cases the hex letters strconv writes in lower case.
func upperHex(b []byte) {
	for k, c := range b {
		if 'a' <= c && c <= 'f' {
			b[k] = c - 'a' + 'A'
		}
	}
}
