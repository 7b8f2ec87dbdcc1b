package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// sign(x) is -1, 0 or 1 as x is negative, zero or positive (MySQL's SIGN,
// a BIGINT); the whole function — type rule, CPU kernel, device code — is
// this file.
func init() {
	Register(&Function{Name: "sign", SQL: []string{"sign"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			x := args[0]
			switch {
			case isNullType(x.Type()):
				return b.Literal(nil, Int64), nil
			case !isNumberType(x.Type()):
				return nil, errs.New(errs.Binding, "sign of %s", TypeName(x.Type()))
			}
			return b.Call("sign", args, Int64), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if err := wantType(call, args[0], arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.FLOAT64); err != nil {
				return nil, err
			}
			return &signNode{a: args[0]}, nil
		},
		GPU: func(g DeviceGen, call *Call) (DevValue, error) {
			args, err := g.Args(call)
			if err != nil {
				return DevValue{}, err
			}
			a := args[0]
			if !isIntLike(a.Type) && !isType(a.Type, arrow.FLOAT64) {
				return DevValue{}, g.Unsupported(fmt.Sprintf("sign of %s", a.Type))
			}
			r, err := g.Tmp(Int64)
			if err != nil {
				return DevValue{}, err
			}
			// A decimal's sign is its unscaled value's.
			g.Line("%s = %s; %s = (i64)(%s > 0) - (i64)(%s < 0);", r.Null, a.Null, r.Val, a.Val, a.Val)
			return r, nil
		},
		NullPropagating: true,
		Doc:             "sign(x) → BIGINT: -1, 0 or 1"})
}

type signNode struct{ a node }

func (n *signNode) typ() arrow.DataType { return Int64 }

func (n *signNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	buf, out := outI64(c.mem, c.n)
	switch a.DataType().ID() {
	case arrow.FLOAT64:
		for i, v := range f64s(a) {
			out[i] = sign(v)
		}
	case arrow.INT64, arrow.DECIMAL64:
		for i, v := range i64s(a) {
			out[i] = sign(v)
		}
	case arrow.DECIMAL128:
		for i, v := range w128s(a) {
			out[i] = int64(v.Sign())
		}
	default:
		buf.Release()
		return allNull(c, Int64), nil
	}
	return finish(Int64, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}

func sign[T int64 | float64](v T) int64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
