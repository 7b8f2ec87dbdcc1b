package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// compile turns an Expr tree into nodes, checking it against the operators
// and the function registry, and folding literal-only subtrees.
func compile(e Expr) (node, error) {
	switch e := e.(type) {
	case *Column:
		if e.Type == nil {
			return nil, errs.New(errs.Internal, "column %s has no type", e)
		}
		return &colNode{idx: e.Index, t: e.Type}, nil
	case *Literal:
		return compileLiteral(e)
	case *Call:
		if e.Type == nil {
			return nil, errs.New(errs.Internal, "%s has no result type", e.Fn)
		}
		args := make([]node, len(e.Args))
		allLit := true
		for i, a := range e.Args {
			n, err := compile(a)
			if err != nil {
				return nil, err
			}
			args[i] = n
			if _, ok := n.(*litNode); !ok {
				allLit = false
			}
		}
		n, err := compileCall(e, args)
		if err != nil {
			return nil, err
		}
		if allLit && (byName[e.Fn] == nil || !byName[e.Fn].Volatile) {
			return fold(n), nil
		}
		return n, nil
	case nil:
		return nil, errs.New(errs.Internal, "nil expression")
	}
	return nil, errs.New(errs.Internal, "unknown expression node %T", e)
}

func compileLiteral(l *Literal) (node, error) {
	if l.Type == nil {
		return nil, errs.New(errs.Internal, "literal %v has no type", l.Value)
	}
	n := &litNode{t: l.Type}
	if l.Value == nil {
		n.v.null = true
		return n, nil
	}
	bad := func() (node, error) {
		return nil, errs.New(errs.Internal, "literal %v (%T) does not match type %s", l.Value, l.Value, l.Type)
	}
	switch l.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		switch v := l.Value.(type) {
		case int64:
			n.v.i = v
		case int:
			n.v.i = int64(v)
		default:
			return bad()
		}
	case arrow.DECIMAL128:
		switch v := l.Value.(type) {
		case decimal128.Num:
			n.v.w = v
		case int64:
			n.v.w = decimal128.FromI64(v)
		default:
			return bad()
		}
	case arrow.FLOAT64:
		switch v := l.Value.(type) {
		case float64:
			n.v.f = v
		case int64:
			n.v.f = float64(v)
		default:
			return bad()
		}
	case arrow.DATE32:
		switch v := l.Value.(type) {
		case int32:
			n.v.i = int64(v)
		case arrow.Date32:
			n.v.i = int64(v)
		default:
			return bad()
		}
	case arrow.BOOL:
		v, ok := l.Value.(bool)
		if !ok {
			return bad()
		}
		if v {
			n.v.i = 1
		}
	case arrow.STRING:
		v, ok := l.Value.(string)
		if !ok {
			return bad()
		}
		n.v.s = v
	case arrow.INTERVAL_MONTH_DAY_NANO:
		v, ok := l.Value.(arrow.MonthDayNanoInterval)
		if !ok {
			return bad()
		}
		n.v.iv = v
	case arrow.NULL:
		n.v.null = true
	default:
		return nil, errs.New(errs.Internal, "literal of unsupported type %s", l.Type)
	}
	return n, nil
}

// fold evaluates a call over literals once, on a one-row batch. A failure
// (overflow, bad cast) is left for run time so that it surfaces only when
// a row actually needs the value. A nested result (struct_pack's) has no
// literal form: the call stays.
func fold(n node) node {
	if IsNested(n.typ()) {
		return n
	}
	schema := arrow.NewSchema(nil, nil)
	b := array.NewRecordBatch(schema, nil, 1)
	defer b.Release()
	c := &ctx{mem: memory.DefaultAllocator, n: 1}
	a, err := n.eval(c, b)
	if err != nil {
		return n
	}
	defer a.Release()
	return &litNode{t: n.typ(), v: scalarAt(a, 0)}
}

func argErr(call *Call, format string, args ...any) error {
	return errs.New(errs.Internal, "%s: "+format, append([]any{call.Fn}, args...)...)
}

func wantArgs(call *Call, args []node, min, max int) error {
	if len(args) < min || (max >= 0 && len(args) > max) {
		return argErr(call, "wrong number of arguments (%d)", len(args))
	}
	return nil
}

// isNumeric: Int64, Float64 or Decimal.
func isNumeric(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.FLOAT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.NULL:
		return true
	}
	return false
}

// ScaleOf is a numeric type's decimal scale (Int64 counts as scale 0).
func ScaleOf(t arrow.DataType) int32 {
	switch d := t.(type) {
	case *arrow.Decimal64Type:
		return d.Scale
	case *arrow.Decimal128Type:
		return d.Scale
	}
	return 0
}

func wantType(call *Call, n node, ids ...arrow.Type) error {
	id := n.typ().ID()
	if id == arrow.NULL {
		return nil
	}
	for _, w := range ids {
		if id == w {
			return nil
		}
	}
	return argErr(call, "argument of type %s not allowed", n.typ())
}

// compileCall builds the kernel of one call: an operator here, any other
// function by its registry entry.
func compileCall(call *Call, args []node) (node, error) {
	t := call.Type
	switch call.Fn {
	case "add", "sub", "mul", "div", "mod":
		if err := wantArgs(call, args, 2, 2); err != nil {
			return nil, err
		}
		return newArith(call, args[0], args[1])
	case "neg":
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
		if !isNumeric(args[0].typ()) {
			return nil, argErr(call, "argument of type %s not numeric", args[0].typ())
		}
		return &unaryNumNode{fn: call.Fn, a: args[0], t: t}, nil
	case "eq", "ne", "lt", "le", "gt", "ge":
		if err := wantArgs(call, args, 2, 2); err != nil {
			return nil, err
		}
		return newCompare(call, args[0], args[1])
	case "and", "or":
		if err := wantArgs(call, args, 2, -1); err != nil {
			return nil, err
		}
		for _, a := range args {
			if err := wantType(call, a, arrow.BOOL); err != nil {
				return nil, err
			}
		}
		if call.Fn == "and" {
			args = orderConjuncts(args)
		}
		return &logicNode{or: call.Fn == "or", args: args}, nil
	case "not":
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
		if err := wantType(call, args[0], arrow.BOOL); err != nil {
			return nil, err
		}
		return &notNode{a: args[0]}, nil
	case "is_null", "is_not_null":
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
		return &isNullNode{a: args[0], not: call.Fn == "is_not_null"}, nil
	case "like", "not_like":
		return newLike(call, args)
	case "in", "not_in":
		return newIn(call, args)
	case "case":
		return newCase(call, args)
	case "cast":
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
		return newCast(args[0], t)
	case "key_cast", "nn_key_cast":
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
		return newKeyCast(args[0], t, call.Fn == "nn_key_cast")
	}
	if f := byName[call.Fn]; f != nil {
		return f.CPU(call, args)
	}
	return nil, errs.New(errs.Internal, "unknown function %q", call.Fn)
}
