package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// The numeric functions: abs (unaryNumNode, shared with the neg
// operator), round, floor, ceil and sqrt (roundNode); mod is the %
// operator called by name.
func init() {
	Register(&Function{Name: "abs", SQL: []string{"abs"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			if isNullType(args[0].Type()) {
				return b.Literal(nil, Int64), nil // MySQL's and DuckDB's NULL
			}
			if !isNumberType(args[0].Type()) {
				return nil, errs.New(errs.Binding, "abs of %s", TypeName(args[0].Type()))
			}
			return b.Call("abs", args, args[0].Type()), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if !isNumeric(args[0].typ()) {
				return nil, argErr(call, "argument of type %s not numeric", args[0].typ())
			}
			return &unaryNumNode{fn: call.Fn, a: args[0], t: call.Type}, nil
		},
		GPU: func(g DeviceGen, call *Call) (DevValue, error) {
			args, err := g.Args(call)
			if err != nil {
				return DevValue{}, err
			}
			return gpuNegAbs(g, call, args[0])
		},
		NullPropagating: true,
		Doc:             "abs(x) → x's type"})
	Register(&Function{Name: "round", SQL: []string{"round"}, MinArgs: 1, MaxArgs: 2,
		Bind: bindRound, CPU: newRounding, GPU: gpuRounding,
		Doc: "round(x [, digits BIGINT constant]) → DOUBLE, or DECIMAL with scale digits"})
	for _, fn := range []string{"floor", "ceil"} {
		names := []string{fn}
		if fn == "ceil" {
			names = append(names, "ceiling")
		}
		Register(&Function{Name: fn, SQL: names, MinArgs: 1, MaxArgs: 1,
			Bind: bindFloorCeil(fn), CPU: newRounding, GPU: gpuRounding,
			Doc: fn + "(x) → DOUBLE, or DECIMAL(p,0); an integer unchanged"})
	}
	Register(&Function{Name: "sqrt", SQL: []string{"sqrt"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			if !isNumberType(args[0].Type()) && !isNullType(args[0].Type()) {
				return nil, errs.New(errs.Binding, "sqrt of %s", TypeName(args[0].Type()))
			}
			return unary("sqrt", Float64, Float64)(b, name, args)
		},
		CPU: newRounding, GPU: gpuRounding,
		Doc: "sqrt(x DOUBLE) → DOUBLE; NULL for a negative x"})
	Register(&Function{SQL: []string{"mod"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) { return b.Op("mod", args...) },
		Doc:  "mod(x, y): x % y"})
}

func bindRound(b Binder, _ string, args []Operand) (Operand, error) {
	d := int64(0)
	if len(args) == 2 {
		v, ok := b.Constant(args[1])
		k, isInt := v.(int64)
		if !ok || !isIntType(args[1].Type()) || !isInt {
			return nil, errs.New(errs.Unsupported, "round() needs a constant integer number of digits")
		}
		d = k
	}
	x := args[0]
	t := x.Type()
	digits := b.Literal(d, Int64)
	switch {
	case isNullType(t):
		return b.Literal(nil, Float64), nil // as trunc(NULL)
	case isIntType(t) && d >= 0:
		return x, nil
	case isType(t, arrow.FLOAT64):
		return b.Call("round", []Operand{x, digits}, Float64), nil
	case IsDecimal(t) && d >= 0 && d <= MaxWidePrecision:
		p, s := DecimalPS(t)
		return b.Call("round", []Operand{x, digits}, Decimal(p-s+int32(d)+1, int32(d))), nil
	}
	return nil, errs.New(errs.Unsupported, "round(%s, %d) is not supported", TypeName(t), d)
}

func bindFloorCeil(fn string) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, name string, args []Operand) (Operand, error) {
		x := args[0]
		t := x.Type()
		switch {
		case isNullType(t):
			return b.Literal(nil, Float64), nil // as trunc(NULL)
		case isIntType(t):
			return x, nil
		case isType(t, arrow.FLOAT64):
			return b.Call(fn, args, Float64), nil
		case IsDecimal(t):
			p, s := DecimalPS(t)
			return b.Call(fn, args, Decimal(p-s+1, 0)), nil
		}
		return nil, errs.New(errs.Binding, "%s of %s", name, TypeName(t))
	}
}

// gpuNegAbs is the device code of the neg operator and of abs.
func gpuNegAbs(g DeviceGen, c *Call, a DevValue) (DevValue, error) {
	r, err := g.Tmp(c.Type)
	if err != nil {
		return DevValue{}, err
	}
	g.Line("%s = %s;", r.Null, a.Null)
	switch {
	case isType(a.Type, arrow.FLOAT64) && c.Fn == "neg":
		g.Line("%s = -%s;", r.Val, a.Val)
	case isType(a.Type, arrow.FLOAT64):
		g.Line("%s = fabs(%s);", r.Val, a.Val)
	case isIntLike(a.Type):
		code := g.Site(c)
		op := "-" + a.Val
		if c.Fn == "abs" {
			op = fmt.Sprintf("(%s < 0 ? -%s : %s)", a.Val, a.Val, a.Val)
		}
		g.Line("if (!%s) { if (%s == (-9223372036854775807LL - 1)) *err = %d; else %s = %s; }", r.Null, a.Val, code, r.Val, op)
	default:
		return DevValue{}, g.Unsupported(fmt.Sprintf("%s of %s", c.Fn, a.Type))
	}
	return r, nil
}

// GPUNegAbs is gpuNegAbs for arrowgpu's neg operator.
func GPUNegAbs(g DeviceGen, c *Call, a DevValue) (DevValue, error) { return gpuNegAbs(g, c, a) }

// isIntLike: Int64 or Decimal, both int64 on the device.
func isIntLike(t arrow.DataType) bool {
	return t.ID() == arrow.INT64 || t.ID() == arrow.DECIMAL64
}

// gpuRounding is round, floor, ceil and sqrt on the device.
func gpuRounding(g DeviceGen, c *Call) (DevValue, error) {
	args, err := g.Args(c)
	if err != nil {
		return DevValue{}, err
	}
	a := args[0]
	r, err := g.Tmp(c.Type)
	if err != nil {
		return DevValue{}, err
	}
	isFloat := isType(a.Type, arrow.FLOAT64)
	g.Line("%s = %s;", r.Null, a.Null)
	switch {
	case c.Fn == "sqrt" && isFloat:
		// MySQL: sqrt of a negative number is NULL, as on the CPU.
		g.Line("%s = %s || %s < 0.0; %s = sqrt(%s);", r.Null, a.Null, a.Val, r.Val, a.Val)
	case (c.Fn == "floor" || c.Fn == "ceil") && isFloat:
		g.Line("%s = %s(%s);", r.Val, c.Fn, a.Val)
	case c.Fn == "round" && isIntLike(a.Type) && isIntLike(c.Type):
		// round(x, digits): the result type's scale is the digits.
		code := g.Site(c)
		g.Line("if (!%s && !gq_rescale(%s, %d, %d, &%s)) *err = %d;", r.Null, a.Val, ScaleOf(a.Type), ScaleOf(c.Type), r.Val, code)
	case (c.Fn == "floor" || c.Fn == "ceil") && isIntLike(a.Type) && isIntLike(c.Type):
		s := ScaleOf(a.Type)
		adj := "q -= (rem < 0);"
		if c.Fn == "ceil" {
			adj = "q += (rem > 0);"
		}
		code := g.Site(c)
		g.Line("if (!%s) { i64 q = %s / gq_pow10[%d], rem = %s %% gq_pow10[%d]; %s if (!gq_rescale(q, 0, %d, &%s)) *err = %d; }",
			r.Null, a.Val, s, a.Val, s, adj, ScaleOf(c.Type), r.Val, code)
	default:
		return DevValue{}, g.Unsupported(fmt.Sprintf("%s of %s", c.Fn, a.Type))
	}
	return r, nil
}

// unaryNumNode is neg or abs; the result has the argument's type.
type unaryNumNode struct {
	fn string
	a  node
	t  arrow.DataType
}

func (n *unaryNumNode) typ() arrow.DataType { return n.t }

func (n *unaryNumNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	switch a.DataType().ID() {
	case arrow.FLOAT64:
		buf, out := outF64(c.mem, c.n)
		for i, v := range f64s(a) {
			if n.fn == "neg" {
				out[i] = -v
			} else {
				out[i] = math.Abs(v)
			}
		}
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	case arrow.DECIMAL128:
		buf, out := outW128(c.mem, c.n)
		for i, v := range w128s(a) {
			if n.fn == "neg" || v.Sign() < 0 {
				v = v.Negate()
			}
			out[i] = v
		}
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	case arrow.INT64, arrow.DECIMAL64:
		valid := validBits(a)
		off := a.Data().Offset()
		buf, out := outI64(c.mem, c.n)
		for i, v := range i64s(a) {
			if v == math.MinInt64 && isValid(valid, off, i) {
				buf.Release()
				return nil, errs.New(errs.Execution, "integer overflow in %s", n.fn)
			}
			if n.fn == "neg" || v < 0 {
				v = -v
			}
			out[i] = v
		}
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), buf), nil
	}
	return allNull(c, n.t), nil
}

// roundNode is round(x, digits), floor, ceil or sqrt.
type roundNode struct {
	fn     string
	a      node
	digits int64
	t      arrow.DataType
}

func newRounding(call *Call, args []node) (node, error) {
	max := 1
	if call.Fn == "round" {
		max = 2
	}
	if err := wantArgs(call, args, 1, max); err != nil {
		return nil, err
	}
	if !isNumeric(args[0].typ()) {
		return nil, argErr(call, "argument of type %s not numeric", args[0].typ())
	}
	n := &roundNode{fn: call.Fn, a: args[0], t: call.Type}
	if call.Fn == "sqrt" {
		a, err := toType(args[0], Float64)
		if err != nil {
			return nil, err
		}
		n.a = a
	}
	if len(args) == 2 {
		l, ok := args[1].(*litNode)
		if !ok || l.t.ID() != arrow.INT64 {
			return nil, argErr(call, "digits must be an integer literal")
		}
		if l.v.null {
			return &litNode{t: call.Type, v: scalar{null: true}}, nil
		}
		n.digits = l.v.i
	}
	if n.digits > MaxWidePrecision || n.digits < -MaxWidePrecision {
		return nil, argErr(call, "digits %d out of range", n.digits)
	}
	return n, nil
}

func (n *roundNode) typ() arrow.DataType { return n.t }

func (n *roundNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	valid := validBits(a)
	off := a.Data().Offset()
	if a.DataType().ID() == arrow.FLOAT64 {
		vals := f64s(a)
		if n.t.ID() == arrow.FLOAT64 {
			buf, out := outF64(c.mem, c.n)
			v2 := mergeValidity(c.mem, c.n, a)
			m := math.Pow10(int(n.digits))
			for i, v := range vals {
				switch n.fn {
				case "floor":
					out[i] = math.Floor(v)
				case "ceil":
					out[i] = math.Ceil(v)
				case "round":
					out[i] = math.Round(v*m) / m
				case "sqrt":
					if v < 0 {
						// MySQL: sqrt of a negative number is NULL
						v2 = ownValidity(c.mem, c.n, v2)
						clearBit(v2.Bytes(), i)
					}
					out[i] = math.Sqrt(v)
				}
			}
			return finish(n.t, c.n, v2, buf), nil
		}
		// float → integer-like result (e.g. floor(x) typed Int64)
		fl := &roundNode{fn: n.fn, a: n.a, digits: n.digits, t: Float64}
		r, err := fl.eval(c, b)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		cn := &castNode{a: &arrNode{r}, to: n.t}
		return cn.eval(c, b)
	}
	if isWide(a.DataType()) || isWide(n.t) {
		return n.evalWide(c, a)
	}
	// Int64 / Decimal
	s := ScaleOf(a.DataType())
	ts := ScaleOf(n.t)
	buf, out := outI64(c.mem, c.n)
	copy(out, i64s(a))
	var target int32 // the scale rounding happens at
	switch n.fn {
	case "round":
		target = int32(n.digits)
	case "floor", "ceil":
		target = 0
	default:
		buf.Release()
		return nil, errs.New(errs.Internal, "%s of %s", n.fn, a.DataType())
	}
	if target < s {
		d := int64(math.Pow10(int(s - target)))
		if s-target > 18 {
			d = 0
		}
		for i, v := range out {
			switch {
			case d == 0:
				out[i] = 0
			case n.fn == "round":
				out[i] = divRound(v, d)
			case n.fn == "floor":
				q := v / d
				if v%d != 0 && v < 0 {
					q--
				}
				out[i] = q
			default:
				q := v / d
				if v%d != 0 && v > 0 {
					q++
				}
				out[i] = q
			}
		}
		s = target
	}
	if err := rescaleInPlace(out, s, ts, valid0(valid, off)); err != nil {
		buf.Release()
		return nil, err
	}
	return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}

// evalWide is round, floor and ceil where the argument or the result is
// a decimal128.
func (n *roundNode) evalWide(c *ctx, a arrow.Array) (arrow.Array, error) {
	vals, rel := wideVals(c, a)
	defer rel()
	s, ts := ScaleOf(a.DataType()), ScaleOf(n.t)
	target := int32(0) // the scale rounding happens at
	if n.fn == "round" {
		target = int32(n.digits)
	} else if n.fn != "floor" && n.fn != "ceil" {
		return nil, errs.New(errs.Internal, "%s of %s", n.fn, a.DataType())
	}
	p, _ := DecimalPS(n.t)
	valid, off := validBits(a), a.Data().Offset()
	wbuf, wout := outW128(c.mem, c.n)
	var ibuf *memory.Buffer
	var iout []int64
	if !isWide(n.t) {
		ibuf, iout = outI64(c.mem, c.n)
	}
	one := decimal128.FromI64(1)
	for i, v := range vals {
		if !isValid(valid, off, i) {
			continue
		}
		vs := s
		if target < s {
			switch {
			case s-target > MaxWidePrecision:
				v = num{}
			case n.fn == "round":
				v = divRoundW(v, pow10W[s-target])
			default:
				q, r := quoRemW(v, pow10W[s-target])
				if n.fn == "floor" && r.Sign() < 0 {
					q = q.Sub(one)
				} else if n.fn == "ceil" && r.Sign() > 0 {
					q = q.Add(one)
				}
				v = q
			}
			vs = target
		}
		r, ok := rescaleW(v, vs, ts)
		if ok && ibuf != nil {
			ok = r.HighBits() == int64(r.LowBits())>>63
			iout[i] = int64(r.LowBits())
		}
		if !ok || !wideFits(r, min(p, MaxWidePrecision)) {
			wbuf.Release()
			releaseBuf(ibuf)
			return nil, errs.New(errs.Execution, "value out of range for %s in %s", TypeName(n.t), n.fn)
		}
		wout[i] = r
	}
	if ibuf != nil {
		wbuf.Release()
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), ibuf), nil
	}
	return finish(n.t, c.n, mergeValidity(c.mem, c.n, a), wbuf), nil
}

// valid0 returns a bitmap indexed from 0 when off is 0, else nil (the
// overflow check then treats every row as valid, which only matters for
// garbage under NULLs of sliced inputs).
func valid0(v []byte, off int) []byte {
	if off != 0 {
		return nil
	}
	return v
}

// arrNode serves a precomputed array as a node.
type arrNode struct{ a arrow.Array }

func (n *arrNode) typ() arrow.DataType { return n.a.DataType() }
func (n *arrNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	n.a.Retain()
	return n.a, nil
}
