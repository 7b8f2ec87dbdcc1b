package expr

import (
	"math/rand/v2"
)

// uuid() (gen_random_uuid() in DuckDB) is a random version-4 UUID as
// VARCHAR text, one per row (Volatile). MySQL's uuid() is a version-1
// (time-based) UUID; the text has the same form.
func init() {
	Register(&Function{Name: "uuid", SQL: []string{"uuid", "gen_random_uuid"}, MinArgs: 0, MaxArgs: 0,
		Bind: func(b Binder, _ string, _ []Operand) (Operand, error) { return b.Call("uuid", nil, String), nil },
		CPU: strRows(func(dst []byte, _ []strArg, _ int) ([]byte, bool, error) {
			var u [16]byte
			x, y := rand.Uint64(), rand.Uint64()
			for k := 0; k < 8; k++ {
				u[k], u[8+k] = byte(x>>(8*k)), byte(y>>(8*k))
			}
			u[6] = u[6]&0x0f | 0x40 // version 4
			u[8] = u[8]&0x3f | 0x80 // the RFC 4122 variant
			const hexDigits = "0123456789abcdef"
			for k, c := range u {
				if k == 4 || k == 6 || k == 8 || k == 10 {
					dst = append(dst, '-')
				}
				dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
			}
			return dst, true, nil
		}),
		Volatile: true,
		Doc:      "uuid() → VARCHAR: a random (version 4) UUID, a new value each row"})
}
