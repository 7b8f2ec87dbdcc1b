package arrowgpu

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// Lowering of expr.Call to CUDA C, function by function (the catalogue in
// expr/ir.go). NULL in → NULL out unless the function says otherwise;
// an operation that can fail writes its site number to *err only for rows
// that are present and not NULL, as the CPU evaluator errs only on those.

func (g *gen) call(c *expr.Call) (value, error) {
	switch c.Fn {
	case "case":
		return g.caseExpr(c)
	case "coalesce":
		return g.coalesce(c)
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
		if a.t.ID() == arrow.STRING && !stringFns[c.Fn] {
			return value{}, unsupported(fmt.Sprintf("function %s of strings", c.Fn))
		}
	}
	switch c.Fn {
	case "substring":
		return g.substring(args)
	case "like", "not_like":
		return g.like(c, args[0], args[1])
	case "add", "sub", "mul", "div", "mod":
		return g.arith(c, args)
	case "neg", "abs":
		return g.negAbs(c, args[0])
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
	case "extract_year", "extract_month", "extract_day", "extract_quarter":
		return g.extract(c.Fn, args[0])
	case "date_add_days":
		r, _ := g.tmp(expr.Date)
		g.line("%s = %s || %s; %s = (i32)((i64)%s + %s);", r.null, args[0].null, args[1].null, r.val, args[0].val, args[1].val)
		return r, nil
	case "date_diff_days":
		r, _ := g.tmp(expr.Int64)
		g.line("%s = %s || %s; %s = (i64)%s - (i64)%s;", r.null, args[0].null, args[1].null, r.val, args[0].val, args[1].val)
		return r, nil
	case "round", "floor", "ceil", "sqrt":
		return g.rounding(c, args)
	}
	return value{}, unsupported("function " + c.Fn)
}

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

// asDouble renders an Int64/Decimal/Float64 value as a double exactly as
// the CPU converts (float64(v) / 10^scale).
func asDouble(v value) (string, error) {
	switch {
	case isFloat(v.t):
		return v.val, nil
	case isIntLike(v.t):
		return fmt.Sprintf("((double)%s / (double)gq_pow10[%d])", v.val, scale(v.t)), nil
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

func (g *gen) negAbs(c *expr.Call, a value) (value, error) {
	r, err := g.tmp(c.Type)
	if err != nil {
		return value{}, err
	}
	g.line("%s = %s;", r.null, a.null)
	switch {
	case isFloat(a.t) && c.Fn == "neg":
		g.line("%s = -%s;", r.val, a.val)
	case isFloat(a.t):
		g.line("%s = fabs(%s);", r.val, a.val)
	case isIntLike(a.t):
		code := g.site(c)
		op := "-" + a.val
		if c.Fn == "abs" {
			op = fmt.Sprintf("(%s < 0 ? -%s : %s)", a.val, a.val, a.val)
		}
		g.line("if (!%s) { if (%s == (-9223372036854775807LL - 1)) *err = %d; else %s = %s; }", r.null, a.val, code, r.val, op)
	default:
		return value{}, unsupported(fmt.Sprintf("%s of %s", c.Fn, a.t))
	}
	return r, nil
}

var cmpOps = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}

// stringFns are the functions the generator runs over strings.
var stringFns = map[string]bool{"eq": true, "ne": true, "in": true, "not_in": true, "like": true, "not_like": true, "is_null": true, "is_not_null": true, "substring": true}

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
		g.line("%s = %s %s %s;", r.val, x, op, y)
	case isIntLike(a.t) && isIntLike(b.t):
		as, bs := scale(a.t), scale(b.t)
		if as == bs {
			g.line("%s = %s %s %s;", r.val, a.val, op, b.val)
			break
		}
		// Exact, as the CPU evaluator: a value that does not fit at the
		// common scale is beyond every value of the other side.
		g.line("%s = gq_cmp_scaled(%s, %d, %s, %d) %s 0;", r.val, a.val, as, b.val, bs, op)
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

// coalesce evaluates operands lazily, stopping at the first non-NULL.
func (g *gen) coalesce(c *expr.Call) (value, error) {
	r, err := g.tmp(c.Type)
	if err != nil {
		return value{}, err
	}
	depth := 0
	for _, a := range c.Args {
		v, err := g.expr(a)
		if err != nil {
			return value{}, err
		}
		if v, err = g.convert(c, v, c.Type); err != nil {
			return value{}, err
		}
		g.line("if (!%s) { %s = %s; %s = false; } else {", v.null, r.val, v.val, r.null)
		g.indent++
		depth++
	}
	for ; depth > 0; depth-- {
		g.indent--
		g.line("}")
	}
	return r, nil
}

func (g *gen) extract(fn string, a value) (value, error) {
	if a.t.ID() != arrow.DATE32 {
		return value{}, unsupported(fmt.Sprintf("%s of %s", fn, a.t))
	}
	r, _ := g.tmp(expr.Int64)
	part := map[string]string{"extract_year": "y", "extract_month": "m", "extract_day": "d", "extract_quarter": "(m + 2) / 3"}[fn]
	g.line("%s = %s; { i64 y, m, d; gq_civil(%s, &y, &m, &d); %s = %s; }", r.null, a.null, a.val, r.val, part)
	return r, nil
}

func (g *gen) rounding(c *expr.Call, args []value) (value, error) {
	a := args[0]
	r, err := g.tmp(c.Type)
	if err != nil {
		return value{}, err
	}
	g.line("%s = %s;", r.null, a.null)
	switch {
	case c.Fn == "sqrt" && isFloat(a.t):
		g.line("%s = sqrt(%s);", r.val, a.val)
	case (c.Fn == "floor" || c.Fn == "ceil") && isFloat(a.t):
		g.line("%s = %s(%s);", r.val, c.Fn, a.val)
	case c.Fn == "round" && isIntLike(a.t) && isIntLike(c.Type):
		// round(x, digits): the result type's scale is the digits.
		code := g.site(c)
		g.line("if (!%s && !gq_rescale(%s, %d, %d, &%s)) *err = %d;", r.null, a.val, scale(a.t), scale(c.Type), r.val, code)
	case (c.Fn == "floor" || c.Fn == "ceil") && isIntLike(a.t) && isIntLike(c.Type):
		s := scale(a.t)
		adj := "q -= (rem < 0);"
		if c.Fn == "ceil" {
			adj = "q += (rem > 0);"
		}
		code := g.site(c)
		g.line("if (!%s) { i64 q = %s / gq_pow10[%d], rem = %s %% gq_pow10[%d]; %s if (!gq_rescale(q, 0, %d, &%s)) *err = %d; }",
			r.null, a.val, s, a.val, s, adj, scale(c.Type), r.val, code)
	default:
		return value{}, unsupported(fmt.Sprintf("%s of %s", c.Fn, a.t))
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

// substring is SUBSTRING(s, start[, len]) of a string column (a view of
// its bytes: a pointer and a length, no copy), which comparisons with
// constants and LIKE then read (TPC-H q22's substring(c_phone, 1, 2) IN
// (...)); a string result cannot leave the kernel.
func (g *gen) substring(args []value) (value, error) {
	s := args[0]
	if s.n == "" || len(args) < 2 || len(args) > 3 {
		return value{}, unsupported("substring of a constant")
	}
	nulls := []string{s.null}
	for _, a := range args[1:] {
		if a.t.ID() != arrow.INT64 {
			return value{}, unsupported(fmt.Sprintf("substring with a %s position", a.t))
		}
		nulls = append(nulls, a.null)
	}
	g.n++
	v := value{val: fmt.Sprintf("t%d", g.n), n: fmt.Sprintf("t%d_len", g.n), null: fmt.Sprintf("t%d_n", g.n), t: expr.String}
	g.line("const u8* %s = %s; i32 %s = 0; bool %s = %s;", v.val, s.val, v.n, v.null, strings.Join(nulls, " || "))
	length, hasLen := "0", "false"
	if len(args) == 3 {
		length, hasLen = args[2].val, "true"
	}
	g.line("if (!%s) { i32 o; gq_substring(%s, %s, (i64)%s, (i64)%s, %s, &o, &%s); %s += o; }", v.null, s.val, s.n, args[1].val, length, hasLen, v.n, v.val)
	return v, nil
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
