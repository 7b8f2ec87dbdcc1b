package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

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
	if n.digits > 18 || n.digits < -18 {
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
