package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// SQL functions bind by their registry entry (expr.LookupSQL): the entry's
// type rule decides the argument casts and the result type, through the
// binder below, so that the planner holds no rule of its own for any
// function.

func (c *ectx) function(x *sqlparser.FuncExpr) (Expr, error) {
	if !x.Qualifier.IsEmpty() {
		return nil, errs.NewNear(errs.Unsupported, x.Name.String(), "function %s.%s is not supported", x.Qualifier.String(), x.Name.String())
	}
	return c.callFunc(x.Name.Lowered(), x.Exprs)
}

func (c *ectx) callFunc(name string, astArgs []sqlparser.Expr) (Expr, error) {
	args := make([]expr.Operand, len(astArgs))
	for i, a := range astArgs {
		e, err := c.bind(a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	f := expr.LookupSQL(name)
	if f == nil {
		return nil, errs.NewNear(errs.Unsupported, name, "function %s is not supported", name)
	}
	if err := f.CheckArity(name, len(args)); err != nil {
		return nil, err
	}
	if err := nestedArgs(f, name, args); err != nil {
		return nil, err
	}
	r, err := f.Bind(fnBinder{}, name, args)
	if err != nil {
		return nil, err
	}
	return r.(Expr), nil
}

// fnBinder is expr.Binder over the planner's logical expressions.
type fnBinder struct{}

func (fnBinder) Cast(o expr.Operand, t arrow.DataType) (expr.Operand, error) {
	return castTo(o.(Expr), t)
}

func (fnBinder) Constant(o expr.Operand) (any, bool) {
	if k, ok := o.(*Const); ok {
		return k.Value, true
	}
	return nil, false
}

func (fnBinder) Literal(v any, t arrow.DataType) expr.Operand { return &Const{Value: v, T: t} }

func (fnBinder) Call(fn string, args []expr.Operand, t arrow.DataType) expr.Operand {
	return &Func{Name: fn, Args: exprs(args), T: t}
}

func (fnBinder) Op(name string, args ...expr.Operand) (expr.Operand, error) {
	es := exprs(args)
	switch name {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return compare(name, es[0], es[1])
	case "add", "sub", "mul", "div", "mod":
		return arith(name, es[0], es[1])
	case "neg":
		return negate(es[0])
	case "and", "or":
		return &Func{Name: name, Args: es, T: expr.Boolean}, nil
	case "case":
		var conds, vals []Expr
		for i := 0; i+1 < len(es); i += 2 {
			conds, vals = append(conds, es[i]), append(vals, es[i+1])
		}
		return makeCase(conds, append(vals, es[len(es)-1]))
	case "date_add_days":
		return dateAdd(es[0], es[1], sqlparser.IntervalDay)
	}
	return nil, errs.New(errs.Internal, "binder: unknown operator %s", name)
}

func (fnBinder) Unify(what string, args []expr.Operand) (arrow.DataType, []expr.Operand, error) {
	t, es, err := unify(what, exprs(args))
	if err != nil {
		return nil, nil, err
	}
	out := make([]expr.Operand, len(es))
	for i, e := range es {
		out[i] = e
	}
	return t, out, nil
}

func (fnBinder) Truth(o expr.Operand, clause string) (expr.Operand, error) {
	return truth(o.(Expr), clause)
}

func exprs(os []expr.Operand) []Expr {
	es := make([]Expr, len(os))
	for i, o := range os {
		es[i] = o.(Expr)
	}
	return es
}
