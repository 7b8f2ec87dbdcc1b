package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// isnan(x), isinf(x) and isfinite(x) of a DOUBLE (DuckDB's); an integer or
// a decimal is never NaN nor infinite. The device tests the same bits.
func init() {
	for _, f := range []struct {
		name, c string
		test    func(float64) bool
	}{
		{"isnan", "isnan(%s)", math.IsNaN},
		{"isinf", "isinf(%s)", func(x float64) bool { return math.IsInf(x, 0) }},
		{"isfinite", "isfinite(%s)", func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }},
	} {
		Register(&Function{Name: f.name, SQL: []string{f.name}, MinArgs: 1, MaxArgs: 1,
			Bind: bindFloatsTo(f.name, Boolean),
			CPU:  boolRows(func(a []strArg, i int) (bool, bool, error) { return f.test(a[0].float(i)), true, nil }),
			GPU: func(g DeviceGen, c *Call) (DevValue, error) {
				args, err := g.Args(c)
				if err != nil {
					return DevValue{}, err
				}
				if !isType(args[0].Type, arrow.FLOAT64) {
					return DevValue{}, g.Unsupported(f.name + " of " + args[0].Type.String())
				}
				r, err := g.Tmp(Boolean)
				if err != nil {
					return DevValue{}, err
				}
				g.Line("%s = %s; %s = "+f.c+";", r.Null, args[0].Null, r.Val, args[0].Val)
				return r, nil
			},
			NullPropagating: true,
			Doc:             f.name + "(x DOUBLE) → BOOLEAN"})
	}
}
