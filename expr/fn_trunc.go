package expr

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// trunc(x [, d]) and MySQL's truncate(x, d): x with the digits after the
// d-th decimal place dropped (toward zero; d < 0 zeroes digits left of the
// point). d is a constant. A DOUBLE stays DOUBLE (device: the same IEEE
// operations as the CPU); a BIGINT stays BIGINT; a DECIMAL(p,s) becomes
// DECIMAL(p-s+d, d) for 0 ≤ d < s (MySQL's type), computed exactly as
// x - x % 10^-d by the decimal operators.
func init() {
	Register(&Function{Name: "trunc", SQL: []string{"trunc", "truncate"}, MinArgs: 1, MaxArgs: 2,
		Bind: bindTrunc,
		CPU: func(call *Call, args []node) (node, error) {
			m, err := truncScale(call)
			if err != nil {
				return nil, err
			}
			return floatRows(func(a []strArg, i int) (float64, bool, error) {
				return math.Trunc(a[0].float(i)*m) / m, true, nil
			})(call, args[:1])
		},
		GPU: func(g DeviceGen, c *Call) (DevValue, error) {
			m, err := truncScale(c)
			if err != nil {
				return DevValue{}, g.Unsupported(err.Error())
			}
			x, err := g.Value(c.Args[0])
			if err != nil {
				return DevValue{}, err
			}
			r, err := g.Tmp(Float64)
			if err != nil {
				return DevValue{}, err
			}
			k := strconv.FormatFloat(m, 'e', -1, 64)
			g.Line("%s = %s; %s = trunc(%s * %s) / %s;", r.Null, x.Null, r.Val, x.Val, k, k)
			return r, nil
		},
		NullPropagating: true,
		Doc:             "trunc(x [, d BIGINT constant]) → x's type (DECIMAL: scale min(s, d), MySQL's truncate): toward zero at d decimals"})
}

// truncScale is 10^d of a DOUBLE trunc call (d its constant second
// argument, 0 without one).
func truncScale(c *Call) (float64, error) {
	if len(c.Args) == 1 {
		return 1, nil
	}
	l, ok := c.Args[1].(*Literal)
	if !ok {
		return 0, errs.New(errs.Internal, "trunc: digits must be an integer literal")
	}
	d, isInt := l.Value.(int64)
	if !isInt {
		return 0, errs.New(errs.Internal, "trunc: digits must be an integer literal")
	}
	return math.Pow10(int(max(min(d, 400), -400))), nil
}

func bindTrunc(b Binder, name string, args []Operand) (Operand, error) {
	x := args[0]
	d := int64(0)
	if len(args) == 2 {
		v, ok := b.Constant(args[1])
		k, isInt := v.(int64)
		if !ok || !isIntType(args[1].Type()) || !isInt {
			return nil, errs.New(errs.Unsupported, "%s() needs a constant integer number of digits", name)
		}
		d = k
	}
	t := x.Type()
	switch {
	case isNullType(t):
		return b.Literal(nil, Float64), nil
	case isType(t, arrow.FLOAT64):
		return b.Call("trunc", []Operand{x, b.Literal(d, Int64)}, Float64), nil
	case isIntType(t) && d >= 0:
		return x, nil
	case isIntType(t):
		if -d > 18 {
			return b.Op("mul", x, b.Literal(int64(0), Int64))
		}
		unit := b.Literal(int64(math.Pow10(int(-d))), Int64)
		return truncBy(b, x, unit)
	case IsDecimal(t):
		p, s := DecimalPS(t)
		if int64(s) <= d {
			return x, nil
		}
		var unit Operand
		switch {
		case d >= 0:
			unit = b.Literal(int64(1), Decimal(int32(d)+1, int32(d)))
		case -d <= 18:
			unit = b.Literal(int64(math.Pow10(int(-d))), Decimal(int32(-d)+1, 0))
		default:
			return nil, errs.New(errs.Unsupported, "%s(%s, %d) is not supported", name, TypeName(t), d)
		}
		r, err := truncBy(b, x, unit)
		if err != nil {
			return nil, err
		}
		ds := int32(max(d, 0))
		return b.Cast(r, Decimal(p-s+ds, ds))
	}
	return nil, errs.New(errs.Binding, "%s of %s: a number is needed", name, TypeName(t))
}

// truncBy is x - x % unit: x truncated toward zero to a multiple of unit
// (the remainder has x's sign).
func truncBy(b Binder, x, unit Operand) (Operand, error) {
	r, err := b.Op("mod", x, unit)
	if err != nil {
		return nil, err
	}
	return b.Op("sub", x, r)
}
