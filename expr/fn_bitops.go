package expr

import (
	"fmt"
	"math/bits"

	"gq/errs"
)

// The bit operators a & b, a | b, a ^ b (XOR, MySQL's meaning: DuckDB's ^
// is a power), ~a, a << n and a >> n, and bit_count(a), over BIGINT in
// two's complement as DuckDB computes them (MySQL computes them in
// BIGINT UNSIGNED: ~0 is 18446744073709551615 there, -1 here). A shift by
// a count outside 0…63 gives 0, as in MySQL (DuckDB raises an error); >>
// keeps the sign (arithmetic shift). The planner binds the operators to
// these entries (they have no SQL names); all run on the device.
var bitOps = []struct {
	name string
	op   func(a, b int64) int64
	c    string // the C expression over a and b
	sym  string
}{
	{"bitand", func(a, b int64) int64 { return a & b }, "(a & b)", "&"},
	{"bitor", func(a, b int64) int64 { return a | b }, "(a | b)", "|"},
	{"bitxor", func(a, b int64) int64 { return a ^ b }, "(a ^ b)", "^"},
	{"shl", func(a, b int64) int64 {
		if b < 0 || b > 63 {
			return 0
		}
		return int64(uint64(a) << uint(b))
	}, "((b < 0 || b > 63) ? 0 : (i64)((u64)a << b))", "<<"},
	{"shr", func(a, b int64) int64 {
		if b < 0 || b > 63 {
			return 0
		}
		return a >> uint(b)
	}, "((b < 0 || b > 63) ? 0 : (a >> b))", ">>"},
}

func init() {
	for _, o := range bitOps {
		Register(&Function{Name: o.name, MinArgs: 2, MaxArgs: 2, Bind: bindBitOp(o.name),
			CPU: intRows(func(a []strArg, i int) (int64, bool, error) { return o.op(a[0].int(i), a[1].int(i)), true, nil }),
			GPU: gpuBitOp("i64 a = %[1]s, b = %[2]s; %[3]s = " + o.c + ";"), NullPropagating: true,
			Doc: "a " + o.sym + " b: BIGINT operator, two's complement (DuckDB's)"})
	}
	Register(&Function{Name: "bitnot", MinArgs: 1, MaxArgs: 1, Bind: bindBitOp("bitnot"),
		CPU:             intRows(func(a []strArg, i int) (int64, bool, error) { return ^a[0].int(i), true, nil }),
		GPU:             gpuBitOp("%[3]s = ~%[1]s;"),
		NullPropagating: true,
		Doc:             "~a: BIGINT operator, two's complement (DuckDB's; MySQL's ~0 is unsigned)"})
	Register(&Function{Name: "bit_count", SQL: []string{"bit_count"}, MinArgs: 1, MaxArgs: 1, Bind: bindBitOp("bit_count"),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			return int64(bits.OnesCount64(uint64(a[0].int(i)))), true, nil
		}),
		GPU:             gpuBitOp("u64 v = (u64)%[1]s; %[3]s = 0; while (v) { v &= v - 1; %[3]s++; }"),
		NullPropagating: true,
		Doc:             "bit_count(a BIGINT) → BIGINT: the bits set in a's 64-bit two's complement"})
}

// bindBitOp casts every argument to BIGINT (a DOUBLE or a DECIMAL as a
// cast rounds it, MySQL's conversion).
func bindBitOp(fn string) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, name string, args []Operand) (Operand, error) {
		for _, a := range args {
			if !isNumberType(a.Type()) && !isNullType(a.Type()) {
				return nil, errs.New(errs.Binding, "bit operation %s of %s: integers are needed", name, TypeName(a.Type()))
			}
		}
		out, err := castAll(b, args, Int64)
		if err != nil {
			return nil, err
		}
		return b.Call(fn, out, Int64), nil
	}
}

// gpuBitOp is the device code of a bit operation: format gets the
// arguments' values (%[1]s, %[2]s) and the result variable (%[3]s).
func gpuBitOp(format string) func(DeviceGen, *Call) (DevValue, error) {
	return func(g DeviceGen, c *Call) (DevValue, error) {
		args, err := g.Args(c)
		if err != nil {
			return DevValue{}, err
		}
		r, err := g.Tmp(Int64)
		if err != nil {
			return DevValue{}, err
		}
		vals, nulls := []any{"0", "0", r.Val}, []string{}
		for k, a := range args {
			if !isIntType(a.Type) {
				return DevValue{}, g.Unsupported(c.Fn + " of " + a.Type.String())
			}
			vals[k] = a.Val
			nulls = append(nulls, a.Null)
		}
		null := nulls[0]
		if len(nulls) == 2 {
			null += " || " + nulls[1]
		}
		g.Line("%s = %s;", r.Null, null)
		g.Line("if (!%s) { %s }", r.Null, fmt.Sprintf(format, vals...))
		return r, nil
	}
}
