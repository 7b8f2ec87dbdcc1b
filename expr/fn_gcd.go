package expr

import (
	"math"

	"gq/errs"
)

// gcd(a, b) and lcm(a, b) of BIGINTs, as DuckDB defines them: never
// negative, gcd(0, 0) = 0 and lcm(x, 0) = 0; a result beyond BIGINT
// (gcd(-2^63, 0), lcm of large coprimes) is an error. The device runs
// the same Euclid loop with the same overflow checks.
func init() {
	for _, name := range []string{"gcd", "lcm"} {
		lcm := name == "lcm"
		Register(&Function{Name: name, SQL: []string{name}, MinArgs: 2, MaxArgs: 2,
			Bind: func(b Binder, fn string, args []Operand) (Operand, error) {
				for _, a := range args {
					if !isIntType(a.Type()) && !isNullType(a.Type()) {
						return nil, errs.New(errs.Binding, "%s of %s: integers are needed", fn, TypeName(a.Type()))
					}
				}
				out, err := castAll(b, args, Int64)
				if err != nil {
					return nil, err
				}
				return b.Call(name, out, Int64), nil
			},
			CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
				x, y := a[0].int(i), a[1].int(i)
				r, ok := gcdLcm(x, y, lcm)
				if !ok {
					return 0, false, errs.New(errs.Execution, "%s(%d, %d) is out of range for BIGINT", name, x, y)
				}
				return r, true, nil
			}),
			GPU: func(g DeviceGen, c *Call) (DevValue, error) {
				args, err := g.Args(c)
				if err != nil {
					return DevValue{}, err
				}
				r, err := g.Tmp(Int64)
				if err != nil {
					return DevValue{}, err
				}
				code := g.Site(c)
				l := "false"
				if lcm {
					l = "true"
				}
				g.Line("%s = %s || %s;", r.Null, args[0].Null, args[1].Null)
				g.Line("if (!%s) { i64 x = %s, y = %s; u64 a = x < 0 ? 0 - (u64)x : (u64)x, b = y < 0 ? 0 - (u64)y : (u64)y, p = a, q = b;", r.Null, args[0].Val, args[1].Val)
				g.Line("  while (q != 0) { u64 t = p %% q; p = q; q = t; }")
				g.Line("  if (%s) { if (a == 0 || b == 0) p = 0; else { u64 k = a / p; if (k != 0 && b > 9223372036854775807ULL / k) p = 9223372036854775808ULL; else p = k * b; } }", l)
				g.Line("  if (p > 9223372036854775807ULL) *err = %d; else %s = (i64)p; }", code, r.Val)
				return r, nil
			},
			NullPropagating: true,
			Doc:             name + "(a BIGINT, b BIGINT) → BIGINT, never negative (DuckDB's)"})
	}
}

// gcdLcm is gcd(x, y) or lcm(x, y) of the absolute values, ok false when
// it exceeds BIGINT.
func gcdLcm(x, y int64, lcm bool) (int64, bool) {
	abs := func(v int64) uint64 {
		if v < 0 {
			return -uint64(v)
		}
		return uint64(v)
	}
	a, b := abs(x), abs(y)
	p, q := a, b
	for q != 0 {
		p, q = q, p%q
	}
	if lcm {
		if a == 0 || b == 0 {
			p = 0
		} else {
			k := a / p
			if b > math.MaxInt64/k {
				return 0, false
			}
			p = k * b
		}
	}
	if p > math.MaxInt64 {
		return 0, false
	}
	return int64(p), true
}
