package arrowgpu

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// Lowering of expr.Call to CUDA C: the operators here (expr/ir.go lists
// them), every other function by its registry entry's generator. NULL in → NULL out unless the function says otherwise;
// an operation that can fail writes its site number to *err only for rows
// that are present and not NULL, as the CPU evaluator errs only on those.

func (g *gen) call(c *expr.Call) (value, error) {
	switch c.Fn {
	case "case":
		return g.caseExpr(c)
	}
	if f := expr.Lookup(c.Fn); f != nil {
		return g.function(f, c)
	}
	args := make([]value, len(c.Args))
	for i, a := range c.Args {
		v, err := g.expr(a)
		if err != nil {
			return value{}, err
		}
		args[i] = v
	}
	// Strings take part only in comparisons with constants and LIKE.
	for _, a := range args {
		if a.t.ID() == arrow.STRING && !stringOps[c.Fn] {
			return value{}, unsupported(fmt.Sprintf("function %s of strings", c.Fn))
		}
	}
	switch c.Fn {
	case "like", "not_like":
		return g.like(c, args[0], args[1])
	case "add", "sub", "mul", "div", "mod":
		return g.arith(c, args)
	case "neg":
		v, err := expr.GPUNegAbs(devGen{g}, c, toDev(args[0]))
		return fromDev(v), err
	case "eq", "ne", "lt", "le", "gt", "ge":
		return g.compare(c, c.Fn, args[0], args[1])
	case "and", "or":
		return g.logic(c.Fn, args)
	case "not":
		return g.not(args[0])
	case "is_null", "is_not_null":
		r, _ := g.tmp(expr.Boolean)
		neg := ""
		if c.Fn == "is_not_null" {
			neg = "!"
		}
		g.line("%s = %s%s; %s = false;", r.val, neg, args[0].null, r.null)
		return r, nil
	case "in", "not_in":
		if n := len(args) - 1; n > maxInList {
			return value{}, unsupported(fmt.Sprintf("IN list of %d values (at most %d)", n, maxInList))
		}
		eqs := make([]value, 0, len(args)-1)
		for _, v := range args[1:] {
			e, err := g.compare(c, "eq", args[0], v)
			if err != nil {
				return value{}, err
			}
			eqs = append(eqs, e)
		}
		r, err := g.logic("or", eqs)
		if err != nil || c.Fn == "in" {
			return r, err
		}
		return g.not(r)
	case "cast":
		return g.convert(c, args[0], c.Type)
	}
	return value{}, unsupported("function " + c.Fn)
}

// function generates a registered function by its entry's device code
// generator; a function without one stays on the CPU.
func (g *gen) function(f *expr.Function, c *expr.Call) (value, error) {
	if f.GPU == nil {
		for _, a := range c.Args {
			if a.DataType().ID() == arrow.STRING {
				return value{}, unsupported(fmt.Sprintf("function %s of strings", c.Fn))
			}
		}
		return value{}, unsupported("function " + c.Fn)
	}
	v, err := f.GPU(devGen{g}, c)
	return fromDev(v), err
}

// devGen is gen as the registry's expr.DeviceGen.
type devGen struct{ g *gen }

func toDev(v value) expr.DevValue {
	return expr.DevValue{Val: v.val, Null: v.null, Type: v.t, Len: v.n, Lit: v.lit}
}

func fromDev(v expr.DevValue) value {
	return value{val: v.Val, null: v.Null, t: v.Type, n: v.Len, lit: v.Lit}
}

func (d devGen) Args(c *expr.Call) ([]expr.DevValue, error) {
	out := make([]expr.DevValue, len(c.Args))
	for i, a := range c.Args {
		v, err := d.g.expr(a)
		if err != nil {
			return nil, err
		}
		out[i] = toDev(v)
	}
	return out, nil
}

func (d devGen) Value(e expr.Expr) (expr.DevValue, error) {
	v, err := d.g.expr(e)
	return toDev(v), err
}

func (d devGen) Convert(e expr.Expr, v expr.DevValue, t arrow.DataType) (expr.DevValue, error) {
	r, err := d.g.convert(e, fromDev(v), t)
	return toDev(r), err
}

func (d devGen) AsDouble(v expr.DevValue) (string, error) { return asDouble(fromDev(v)) }

func (d devGen) Tmp(t arrow.DataType) (expr.DevValue, error) {
	v, err := d.g.tmp(t)
	return toDev(v), err
}

func (d devGen) Fresh() string {
	d.g.n++
	return fmt.Sprintf("t%d", d.g.n)
}

func (d devGen) Line(format string, args ...any) { d.g.line(format, args...) }
func (d devGen) Indent(delta int)                { d.g.indent += delta }
func (d devGen) Site(e expr.Expr) int            { return d.g.site(e) }
func (d devGen) Unsupported(what string) error   { return unsupported(what) }

// maxInList is the longest IN list the device evaluates: each value is a
// comparison in the kernel's source, and a list of 100,000 made 15 MB of
// it, minutes of compiling; a longer list is left to the CPU. (TPC-H's
// longest has 8.) maxKernelSource would refuse such a kernel too, once
// written; this refuses it first (a 100,000-value query plans in 0.24 s
// instead of 0.76 s on gqemu) and names the list.
const maxInList = 256

func isFloat(t arrow.DataType) bool { return t.ID() == arrow.FLOAT64 }
func isIntLike(t arrow.DataType) bool {
	return t.ID() == arrow.INT64 || t.ID() == arrow.DECIMAL64
}

// isWide: a DECIMAL(38) (decimal128), gq_i128 on the device.
func isWide(t arrow.DataType) bool { return t.ID() == arrow.DECIMAL128 }

// isScaled: a value that is a scaled integer of either width.
func isScaled(t arrow.DataType) bool { return isIntLike(t) || isWide(t) }

// wide is v's C expression as a gq_i128.
func wide(v value) string {
	if isWide(v.t) {
		return v.val
	}
	return "gq_i128((i64)" + v.val + ")"
}

// precision is a decimal type's precision, 0 for another type.
func precision(t arrow.DataType) int {
	if d, ok := t.(arrow.DecimalType); ok {
		return int(d.GetPrecision())
	}
	return 0
}

// asDouble renders an Int64/Decimal/Float64 value as a double exactly as
// the CPU converts (expr.DecimalToFloat64: the nearest double to v·10^-scale).
func asDouble(v value) (string, error) {
	switch {
	case isFloat(v.t):
		return v.val, nil
	case isIntLike(v.t):
		return fmt.Sprintf("gq_i128_to_double(gq_i128((i64)(%s)), %d)", v.val, scale(v.t)), nil
	case isWide(v.t):
		return fmt.Sprintf("gq_i128_to_double(%s, %d)", v.val, scale(v.t)), nil
	case v.t.ID() == arrow.NULL:
		return "0.0", nil
	}
	return "", unsupported(fmt.Sprintf("%s as a number", v.t))
}

func (g *gen) arith(c *expr.Call, a []value) (value, error) {
	l, rr := a[0], a[1]
	r, err := g.tmp(c.Type)
	if err != nil {
		return value{}, err
	}
	g.line("%s = %s || %s;", r.null, l.null, rr.null)
	if isFloat(c.Type) {
		x, err := asDouble(l)
		if err != nil {
			return value{}, err
		}
		y, err := asDouble(rr)
		if err != nil {
			return value{}, err
		}
		switch c.Fn {
		case "add", "sub", "mul":
			op := map[string]string{"add": "+", "sub": "-", "mul": "*"}[c.Fn]
			g.line("%s = %s %s %s;", r.val, x, op, y)
		case "div":
			g.line("if (%s == 0.0) %s = true; else %s = %s / %s;", y, r.null, r.val, x, y)
		default:
			return value{}, unsupported("float " + c.Fn)
		}
		return r, nil
	}
	if isWide(c.Type) {
		return g.arithWide(c, r, l, rr)
	}
	if !isIntLike(c.Type) || !isIntLike(l.t) && l.t.ID() != arrow.NULL || !isIntLike(rr.t) && rr.t.ID() != arrow.NULL {
		return value{}, unsupported(fmt.Sprintf("%s of %s and %s to %s", c.Fn, l.t, rr.t, c.Type))
	}
	ls, rs, ts := scale(l.t), scale(rr.t), scale(c.Type)
	code := g.site(c)
	switch c.Fn {
	case "add", "sub", "mod":
		w := max(ts, ls, rs) // working scale; rounded to ts afterwards
		if w-ls > 18 || w-rs > 18 {
			return value{}, unsupported("decimal scales out of range in " + c.String())
		}
		var op string
		switch c.Fn {
		case "add":
			op = fmt.Sprintf("gq_add(x, y, &%s)", r.val)
		case "sub":
			op = fmt.Sprintf("gq_sub(x, y, &%s)", r.val)
		default:
			op = fmt.Sprintf("(y == 0 ? (%s = true, true) : (%s = (y == -1 ? 0 : x %% y), true))", r.null, r.val)
		}
		g.line("if (!%s) { i64 x, y; if (!(gq_rescale(%s, %d, %d, &x) && gq_rescale(%s, %d, %d, &y) && %s && gq_rescale(%s, %d, %d, &%s))) *err = %d; }",
			r.null, l.val, ls, w, rr.val, rs, w, op, r.val, w, ts, r.val, code)
	case "mul":
		if ls+rs > 18 || ts > 18 {
			return value{}, unsupported("decimal scales out of range in " + c.String())
		}
		g.line("if (!%s) { i64 p; if (!(gq_mul(%s, %s, &p) && gq_rescale(p, %d, %d, &%s))) *err = %d; }", r.null, l.val, rr.val, ls+rs, ts, r.val, code)
	case "div":
		e := ts - ls + rs
		if e < 0 || e > 18 {
			return value{}, unsupported(fmt.Sprintf("decimal division with scales %d/%d → %d", ls, rs, ts))
		}
		g.line("if (!%s) { if (%s == 0) %s = true; else if (!gq_div_scaled(%s, %d, %s, &%s)) *err = %d; }", r.null, rr.val, r.null, l.val, e, rr.val, r.val, code)
	}
	return r, nil
}

// arithWide is + − × ÷ % of scaled integers into a DECIMAL(38) r, in 128
// bits as the CPU's wide kernels (arithNode.evalWide): operands of + − %
// at r's scale, a product rounded to it, a quotient a·10^e / b in 256
// bits; x/0 and x%0 are NULL.
func (g *gen) arithWide(c *expr.Call, r, l, rr value) (value, error) {
	for _, v := range []value{l, rr} {
		if !isScaled(v.t) && v.t.ID() != arrow.NULL {
			return value{}, unsupported(fmt.Sprintf("%s of %s and %s to %s", c.Fn, l.t, rr.t, c.Type))
		}
	}
	ls, rs, ts := scale(l.t), scale(rr.t), scale(c.Type)
	switch c.Fn {
	case "add", "sub":
		code := g.site(c)
		g.line("if (!%s) { gq_i128 x, y; if (!(gq_rescale128(%s, %d, %d, &x) && gq_rescale128(%s, %d, %d, &y) && gq_%s128(x, y, &%s))) *err = %d; }",
			r.null, wide(l), ls, ts, wide(rr), rs, ts, c.Fn, r.val, code)
	case "mul":
		code := g.site(c)
		g.line("if (!%s) { gq_i128 p; if (!(gq_mul128(%s, %s, &p) && gq_rescale128(p, %d, %d, &%s))) *err = %d; }",
			r.null, wide(l), wide(rr), ls+rs, ts, r.val, code)
	case "div":
		e := ts - ls + rs
		if e < 0 || e > 38 {
			return value{}, unsupported(fmt.Sprintf("decimal division with scales %d/%d → %d", ls, rs, ts))
		}
		code := g.site(c)
		g.line("if (!%s) { gq_i128 y = %s; if (y == gq_i128(0)) %s = true; else if (!gq_divscaled128(%s, %d, y, &%s)) *err = %d; }",
			r.null, wide(rr), r.null, wide(l), e, r.val, code)
	case "mod":
		code := g.site(c)
		g.line("if (!%s) { gq_i128 x, y; if (!(gq_rescale128(%s, %d, %d, &x) && gq_rescale128(%s, %d, %d, &y))) *err = %d; else if (y == gq_i128(0)) %s = true; else %s = gq_mod128(x, y); }",
			r.null, wide(l), ls, ts, wide(rr), rs, ts, code, r.null, r.val)
	default:
		return value{}, unsupported(fmt.Sprintf("%s into %s", c.Fn, c.Type))
	}
	return r, nil
}

var cmpOps = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}

// stringOps are the operators the generator runs over strings (of the
// functions, substring's generator takes a string itself).
var stringOps = map[string]bool{"eq": true, "ne": true, "in": true, "not_in": true, "like": true, "not_like": true, "is_null": true, "is_not_null": true}

func (g *gen) compare(c *expr.Call, fn string, a, b value) (value, error) {
	if a.t.ID() == arrow.STRING || b.t.ID() == arrow.STRING {
		return g.compareString(fn, a, b)
	}
	r, _ := g.tmp(expr.Boolean)
	op := cmpOps[fn]
	g.line("%s = %s || %s;", r.null, a.null, b.null)
	switch {
	case a.t.ID() == arrow.NULL || b.t.ID() == arrow.NULL:
		// NULL compared with anything is NULL: r stays NULL.
	case isFloat(a.t) || isFloat(b.t):
		x, err := asDouble(a)
		if err != nil {
			return value{}, err
		}
		y, err := asDouble(b)
		if err != nil {
			return value{}, err
		}
		// In the CPU's order of doubles (expr.CompareFloat): NaN equals
		// NaN and is above every number.
		g.line("%s = gq_dcmp(%s, %s) %s 0;", r.val, x, y, op)
	case isIntLike(a.t) && isIntLike(b.t):
		as, bs := scale(a.t), scale(b.t)
		if as == bs {
			g.line("%s = %s %s %s;", r.val, a.val, op, b.val)
			break
		}
		// Exact, as the CPU evaluator: a value that does not fit at the
		// common scale is beyond every value of the other side.
		g.line("%s = gq_cmp_scaled(%s, %d, %s, %d) %s 0;", r.val, a.val, as, b.val, bs, op)
	case isScaled(a.t) && isScaled(b.t):
		// A DECIMAL(38) on either side: both in 128 bits.
		as, bs := scale(a.t), scale(b.t)
		if as == bs {
			g.line("%s = %s %s %s;", r.val, wide(a), op, wide(b))
			break
		}
		g.line("%s = gq_cmp_scaled128(%s, %d, %s, %d) %s 0;", r.val, wide(a), as, wide(b), bs, op)
	case a.t.ID() == b.t.ID() && (a.t.ID() == arrow.DATE32 || a.t.ID() == arrow.BOOL):
		g.line("%s = %s %s %s;", r.val, a.val, op, b.val)
	default:
		return value{}, unsupported(fmt.Sprintf("comparison of %s and %s", a.t, b.t))
	}
	return r, nil
}

// logic is SQL three-valued AND/OR over any number of operands: AND is
// false if any operand is false, else NULL if any is NULL, else true (OR
// dually).
func (g *gen) logic(fn string, args []value) (value, error) {
	r, _ := g.tmp(expr.Boolean)
	decisive, other := "false", "true" // AND: a false decides
	if fn == "or" {
		decisive, other = "true", "false"
	}
	var dec, nul []string
	for _, a := range args {
		if a.t.ID() != arrow.BOOL && a.t.ID() != arrow.NULL {
			return value{}, unsupported(fmt.Sprintf("%s of %s", fn, a.t))
		}
		dec = append(dec, fmt.Sprintf("(!%s && %s == %s)", a.null, a.val, decisive))
		nul = append(nul, a.null)
	}
	g.line("if (%s) { %s = %s; %s = false; } else if (%s) { %s = true; } else { %s = %s; %s = false; }",
		strings.Join(dec, " || "), r.val, decisive, r.null, strings.Join(nul, " || "), r.null, r.val, other, r.null)
	return r, nil
}

func (g *gen) not(a value) (value, error) {
	r, _ := g.tmp(expr.Boolean)
	g.line("%s = !%s; %s = %s;", r.val, a.val, r.null, a.null)
	return r, nil
}

// convert casts v to type t (also used to bring CASE branches to the
// result type).
func (g *gen) convert(c expr.Expr, v value, t arrow.DataType) (value, error) {
	if arrow.TypeEqual(v.t, t) {
		return v, nil
	}
	r, err := g.tmp(t)
	if err != nil {
		return value{}, err
	}
	if v.t.ID() == arrow.NULL {
		return r, nil // NULL of any type
	}
	g.line("%s = %s;", r.null, v.null)
	switch {
	case isIntLike(v.t) && isIntLike(t):
		code := g.site(c)
		g.line("if (!%s && !gq_rescale(%s, %d, %d, &%s)) *err = %d;", r.null, v.val, scale(v.t), scale(t), r.val, code)
	case isFloat(t) && (isIntLike(v.t) || isFloat(v.t)):
		x, _ := asDouble(v)
		g.line("%s = %s;", r.val, x)
	case isWide(t) && isScaled(v.t):
		code := g.site(c)
		g.line("if (!%s && !(gq_rescale128(%s, %d, %d, &%s) && gq_fits_digits(%s, %d))) *err = %d;", r.null, wide(v), scale(v.t), scale(t), r.val, r.val, precision(t), code)
	case isIntLike(t) && isWide(v.t):
		// BIGINT: any int64 (p -1); DECIMAL(p,s): p digits.
		p := -1
		if t.ID() == arrow.DECIMAL64 {
			p = precision(t)
		}
		code := g.site(c)
		g.line("if (!%s && !gq_narrow128(%s, %d, %d, %d, &%s)) *err = %d;", r.null, v.val, scale(v.t), scale(t), p, r.val, code)
	case isFloat(t) && isWide(v.t):
		x, _ := asDouble(v)
		g.line("%s = %s;", r.val, x)
	case isIntLike(t) && isFloat(v.t):
		code := g.site(c)
		g.line("if (!%s && !gq_f2i(%s, %d, &%s)) *err = %d;", r.null, v.val, scale(t), r.val, code)
	default:
		return value{}, unsupported(fmt.Sprintf("cast from %s to %s", v.t, t))
	}
	return r, nil
}

// caseExpr evaluates branches lazily: a branch not taken cannot fail.
func (g *gen) caseExpr(c *expr.Call) (value, error) {
	r, err := g.tmp(c.Type)
	if err != nil {
		return value{}, err
	}
	depth := 0
	assign := func(e expr.Expr) error {
		v, err := g.expr(e)
		if err != nil {
			return err
		}
		if v, err = g.convert(c, v, c.Type); err != nil {
			return err
		}
		g.line("%s = %s; %s = %s;", r.val, v.val, r.null, v.null)
		return nil
	}
	for i := 0; i+1 < len(c.Args); i += 2 {
		cond, err := g.expr(c.Args[i])
		if err != nil {
			return value{}, err
		}
		g.line("if (!%s && %s) {", cond.null, cond.val)
		g.indent++
		if err := assign(c.Args[i+1]); err != nil {
			return value{}, err
		}
		g.indent--
		g.line("} else {")
		g.indent++
		depth++
	}
	if len(c.Args)%2 == 1 {
		if err := assign(c.Args[len(c.Args)-1]); err != nil {
			return value{}, err
		}
	}
	for ; depth > 0; depth-- {
		g.indent--
		g.line("}")
	}
	return r, nil
}

// compareString is = or <> of a string column and a constant (bytewise,
// as the CPU evaluator).
func (g *gen) compareString(fn string, a, b value) (value, error) {
	if a.lit != nil || (a.n == "" && b.n != "") {
		a, b = b, a
	}
	if (fn != "eq" && fn != "ne") || a.n == "" || b.n != "" || b.t.ID() != arrow.STRING {
		return value{}, unsupported(fmt.Sprintf("%s of %s and %s", fn, a.t, b.t))
	}
	r, _ := g.tmp(expr.Boolean)
	if b.null == "true" { // a NULL constant
		return r, nil
	}
	neg := ""
	if fn == "ne" {
		neg = "!"
	}
	l := g.bytesConst(b.lit)
	g.line("%s = %s; %s = %s(%s == %d && gq_bytes_eq(%s, %s, %d));", r.null, a.null, r.val, neg, a.n, len(b.lit), a.val, l, len(b.lit))
	return r, nil
}

// bytesConst declares b as a constant byte array and returns its name.
func (g *gen) bytesConst(b []byte) string {
	g.n++
	name := fmt.Sprintf("k%d", g.n)
	parts := make([]string, max(len(b), 1))
	if len(b) == 0 {
		parts[0] = "0"
	}
	for i, x := range b {
		parts[i] = fmt.Sprintf("%d", x)
	}
	g.line("const u8 %s[] = {%s};", name, strings.Join(parts, ", "))
	return name
}

// like is LIKE / NOT LIKE with a constant pattern of literal runs and '%'
// (a pattern with '_', which matches one character, not one byte, stays
// on the CPU). Segments are matched leftmost first, which is exact without
// '_'; '\' escapes the next character, as in the CPU evaluator.
func (g *gen) like(c *expr.Call, s, p value) (value, error) {
	if s.n == "" || p.n != "" || p.t.ID() != arrow.STRING {
		return value{}, unsupported("LIKE with a pattern that is not a constant")
	}
	r, _ := g.tmp(expr.Boolean)
	if p.null == "true" {
		return r, nil
	}
	var segs [][]byte
	var cur []byte
	pat := p.lit
	for i := 0; i < len(pat); i++ {
		switch ch := pat[i]; {
		case ch == '\\' && i+1 < len(pat):
			i++
			cur = append(cur, pat[i])
		case ch == '_':
			return value{}, unsupported("LIKE pattern with '_'")
		case ch == '%':
			segs = append(segs, cur)
			cur = nil
		default:
			cur = append(cur, ch)
		}
	}
	segs = append(segs, cur)
	g.line("%s = %s;", r.null, s.null)
	g.line("{")
	g.indent++
	if len(segs) == 1 { // no '%': the whole string
		l := g.bytesConst(segs[0])
		g.line("bool ok = %s == %d && gq_bytes_eq(%s, %s, %d);", s.n, len(segs[0]), s.val, l, len(segs[0]))
	} else {
		anyStart, anyEnd := len(segs[0]) == 0, len(segs[len(segs)-1]) == 0
		var lits [][]byte
		for _, sg := range segs {
			if len(sg) > 0 {
				lits = append(lits, sg)
			}
		}
		g.line("bool ok = true; i32 p = 0;")
		for k, lit := range lits {
			l := g.bytesConst(lit)
			m := len(lit)
			switch {
			case k == 0 && !anyStart:
				g.line("ok = %s >= %d && gq_bytes_eq(%s, %s, %d); p = %d;", s.n, m, s.val, l, m, m)
			case k == len(lits)-1 && !anyEnd:
				g.line("ok = ok && %s - %d >= p && gq_bytes_eq(%s + %s - %d, %s, %d);", s.n, m, s.val, s.n, m, l, m)
			default:
				g.line("if (ok) { i32 at = gq_find(%s, %s, p, %s, %d); ok = at >= 0; p = at + %d; }", s.val, s.n, l, m, m)
			}
		}
	}
	neg := ""
	if c.Fn == "not_like" {
		neg = "!"
	}
	g.line("%s = %sok;", r.val, neg)
	g.indent--
	g.line("}")
	return r, nil
}
