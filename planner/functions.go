package planner

import (
	"strings"

	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// SQL function names → expr's catalogue, with the argument casts the
// catalogue requires.

func (c *ectx) function(x *sqlparser.FuncExpr) (Expr, error) {
	if !x.Qualifier.IsEmpty() {
		return nil, errs.NewNear(errs.Unsupported, x.Name.String(), "function %s.%s is not supported", x.Qualifier.String(), x.Name.String())
	}
	return c.callFunc(x.Name.Lowered(), x.Exprs)
}

func (c *ectx) callFunc(name string, astArgs []sqlparser.Expr) (Expr, error) {
	args := make([]Expr, len(astArgs))
	for i, a := range astArgs {
		var err error
		if args[i], err = c.bind(a); err != nil {
			return nil, err
		}
	}
	nargs := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return errs.NewNear(errs.Binding, name, "function %s takes %d to %d arguments, got %d", name, lo, hi, len(args))
		}
		return nil
	}
	switch name {
	case "year", "month", "day", "dayofmonth", "quarter":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		d, err := toDate(args[0])
		if err != nil {
			return nil, err
		}
		part := map[string]string{"dayofmonth": "day"}[name]
		if part == "" {
			part = name
		}
		return &Func{Name: "extract_" + part, Args: []Expr{d}, T: expr.Int64}, nil
	case "datediff":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		a, err := toDate(args[0])
		if err != nil {
			return nil, err
		}
		b, err := toDate(args[1])
		if err != nil {
			return nil, err
		}
		return &Func{Name: "date_diff_days", Args: []Expr{a, b}, T: expr.Int64}, nil
	case "adddate", "subdate":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		d, err := toDate(args[0])
		if err != nil {
			return nil, err
		}
		n := args[1]
		if !isInt(n.Type()) {
			return nil, errs.New(errs.Binding, "%s needs an integer number of days, got %s", name, typeName(n.Type()))
		}
		if name == "subdate" {
			if n, err = negate(n); err != nil {
				return nil, err
			}
		}
		return dateAdd(d, n, sqlparser.IntervalDay)
	case "upper", "ucase", "lower", "lcase", "trim", "ltrim", "rtrim", "length", "char_length", "character_length":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		s, err := castTo(args[0], expr.String)
		if err != nil {
			return nil, err
		}
		fn := map[string]string{"ucase": "upper", "lcase": "lower", "char_length": "length", "character_length": "length"}[name]
		if fn == "" {
			fn = name
		}
		if fn == "length" {
			return &Func{Name: fn, Args: []Expr{s}, T: expr.Int64}, nil
		}
		return &Func{Name: fn, Args: []Expr{s}, T: expr.String}, nil
	case "substring", "substr", "mid":
		if err := nargs(2, 3); err != nil {
			return nil, err
		}
		s, err := castTo(args[0], expr.String)
		if err != nil {
			return nil, err
		}
		out := []Expr{s}
		for _, a := range args[1:] {
			if !isInt(a.Type()) && !isNull(a.Type()) {
				return nil, errs.New(errs.Binding, "substring position and length must be integers, got %s", typeName(a.Type()))
			}
			a, _ = castTo(a, expr.Int64)
			out = append(out, a)
		}
		return &Func{Name: "substring", Args: out, T: expr.String}, nil
	case "concat":
		if err := nargs(1, 1<<20); err != nil {
			return nil, err
		}
		out := make([]Expr, len(args))
		for i, a := range args {
			var err error
			if out[i], err = castTo(a, expr.String); err != nil {
				return nil, err
			}
		}
		return &Func{Name: "concat", Args: out, T: expr.String}, nil
	case "abs":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		if !isNumeric(args[0].Type()) {
			return nil, errs.New(errs.Binding, "abs of %s", typeName(args[0].Type()))
		}
		return &Func{Name: "abs", Args: args, T: args[0].Type()}, nil
	case "round":
		if err := nargs(1, 2); err != nil {
			return nil, err
		}
		d := int64(0)
		if len(args) == 2 {
			k, ok := args[1].(*Const)
			if !ok || !isInt(k.T) || k.Value == nil {
				return nil, errs.New(errs.Unsupported, "round() needs a constant integer number of digits")
			}
			d = k.Value.(int64)
		}
		x := args[0]
		switch {
		case isInt(x.Type()) && d >= 0:
			return x, nil
		case isFloat(x.Type()):
			return &Func{Name: "round", Args: []Expr{x, &Const{Value: d, T: expr.Int64}}, T: expr.Float64}, nil
		case isDecimal(x.Type()) && d >= 0 && d <= expr.MaxDecimalPrecision:
			p, s := decPS(x.Type())
			return &Func{Name: "round", Args: []Expr{x, &Const{Value: d, T: expr.Int64}}, T: expr.Decimal(p-s+int32(d)+1, int32(d))}, nil
		}
		return nil, errs.New(errs.Unsupported, "round(%s, %d) is not supported", typeName(x.Type()), d)
	case "floor", "ceil", "ceiling":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		fn := strings.TrimSuffix(name, "ing")
		x := args[0]
		switch {
		case isInt(x.Type()):
			return x, nil
		case isFloat(x.Type()):
			return &Func{Name: fn, Args: args, T: expr.Float64}, nil
		case isDecimal(x.Type()):
			p, s := decPS(x.Type())
			return &Func{Name: fn, Args: args, T: expr.Decimal(p-s+1, 0)}, nil
		}
		return nil, errs.New(errs.Binding, "%s of %s", name, typeName(x.Type()))
	case "sqrt":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		if !isNumeric(args[0].Type()) && !isNull(args[0].Type()) {
			return nil, errs.New(errs.Binding, "sqrt of %s", typeName(args[0].Type()))
		}
		x, err := castTo(args[0], expr.Float64)
		if err != nil {
			return nil, err
		}
		return &Func{Name: "sqrt", Args: []Expr{x}, T: expr.Float64}, nil
	case "mod":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		return arith("mod", args[0], args[1])
	case "coalesce", "ifnull":
		lo, hi := 1, 1<<20
		if name == "ifnull" {
			lo, hi = 2, 2
		}
		if err := nargs(lo, hi); err != nil {
			return nil, err
		}
		t, out, err := unify(name, args)
		if err != nil {
			return nil, err
		}
		return &Func{Name: "coalesce", Args: out, T: t}, nil
	case "nullif":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		eq, err := compare("eq", args[0], args[1])
		if err != nil {
			return nil, err
		}
		return makeCase([]Expr{eq}, []Expr{&Const{T: expr.Null}, args[0]})
	case "if":
		if err := nargs(3, 3); err != nil {
			return nil, err
		}
		cond, err := c.bindBool(astArgs[0], "IF")
		if err != nil {
			return nil, err
		}
		return makeCase([]Expr{cond}, []Expr{args[1], args[2]})
	}
	return nil, errs.NewNear(errs.Unsupported, name, "function %s is not supported", name)
}
