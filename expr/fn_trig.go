package expr

import (
	"math"
	"strconv"
)

// The trigonometric functions over radians, and degrees/radians. An
// argument outside a function's domain (asin(2)) is NULL, as in MySQL
// (DuckDB raises an error); atan(y, x) is atan2(y, x) (MySQL). The
// transcendental ones are CPU only (see fn_log.go); degrees and radians
// are one IEEE multiplication, which the device computes bit for bit.
func init() {
	type trig struct {
		name    string
		f       func(float64) float64
		defined func(float64) bool
	}
	inUnit := func(x float64) bool { return x >= -1 && x <= 1 }
	for _, t := range []trig{
		{"sin", math.Sin, nil}, {"cos", math.Cos, nil}, {"tan", math.Tan, nil},
		{"asin", math.Asin, inUnit}, {"acos", math.Acos, inUnit},
		{"cot", func(x float64) float64 { return 1 / math.Tan(x) }, func(x float64) bool { return x != 0 }},
	} {
		Register(&Function{Name: t.name, SQL: []string{t.name}, MinArgs: 1, MaxArgs: 1,
			Bind: bindFloats(t.name), CPU: floatRows(mathRow1(t.name, t.f, t.defined)), NullPropagating: true,
			Doc: t.name + "(x DOUBLE) → DOUBLE, radians; NULL outside its domain (MySQL; DuckDB errs)"})
	}
	Register(&Function{Name: "atan", SQL: []string{"atan"}, MinArgs: 1, MaxArgs: 2,
		Bind: bindFloats("atan"),
		CPU: func(call *Call, args []node) (node, error) {
			if len(args) == 2 {
				return floatRows(mathRow2("atan", math.Atan2, nil))(call, args)
			}
			return floatRows(mathRow1("atan", math.Atan, nil))(call, args)
		}, NullPropagating: true,
		Doc: "atan(x DOUBLE) → DOUBLE, radians; atan(y, x) is atan2(y, x)"})
	Register(&Function{Name: "atan2", SQL: []string{"atan2"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindFloats("atan2"), CPU: floatRows(mathRow2("atan2", math.Atan2, nil)), NullPropagating: true,
		Doc: "atan2(y DOUBLE, x DOUBLE) → DOUBLE: the angle of (x, y), radians"})
	for _, c := range []struct {
		name string
		k    float64
	}{{"degrees", 180 / math.Pi}, {"radians", math.Pi / 180}} {
		name, k := c.name, c.k
		Register(&Function{Name: name, SQL: []string{name}, MinArgs: 1, MaxArgs: 1,
			Bind: bindFloats(name), CPU: floatRows(mathRow1(name, func(x float64) float64 { return x * k }, nil)),
			GPU: gpuScale(k), NullPropagating: true,
			Doc: name + "(x DOUBLE) → DOUBLE"})
	}
}

// gpuScale is the device code of x·k for a constant k: the literal is
// written with every digit, so the device multiplies by the CPU's k.
func gpuScale(k float64) func(DeviceGen, *Call) (DevValue, error) {
	return func(g DeviceGen, c *Call) (DevValue, error) {
		args, err := g.Args(c)
		if err != nil {
			return DevValue{}, err
		}
		x, err := g.AsDouble(args[0])
		if err != nil {
			return DevValue{}, err
		}
		r, err := g.Tmp(Float64)
		if err != nil {
			return DevValue{}, err
		}
		g.Line("%s = %s; %s = %s * %s;", r.Null, args[0].Null, r.Val, x, strconv.FormatFloat(k, 'e', -1, 64))
		return r, nil
	}
}
