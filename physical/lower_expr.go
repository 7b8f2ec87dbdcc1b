package physical

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
	"gq/planner"
)

// layout maps the ColumnIDs of a node's input to positions in its batches.
type layout map[planner.ColumnID]int

func layoutOf(cols ...[]planner.Column) layout {
	l := layout{}
	i := 0
	for _, cs := range cols {
		for _, c := range cs {
			l[c.ID] = i
			i++
		}
	}
	return l
}

// schemaOf builds the Arrow schema of a node's output columns.
func schemaOf(cols []planner.Column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	return arrow.NewSchema(fields, nil)
}

// toExpr converts a logical expression to expr over the layout l.
func toExpr(e planner.Expr, l layout) (expr.Expr, error) {
	switch x := e.(type) {
	case *planner.ColRef:
		i, ok := l[x.ID]
		if !ok {
			return nil, errs.New(errs.Internal, "lowering: column %s is not an input of this node", x)
		}
		return &expr.Column{Index: i, Type: x.T, Name: x.Name}, nil
	case *planner.Const:
		return &expr.Literal{Value: x.Value, Type: x.T}, nil
	case *planner.Func:
		args := make([]expr.Expr, len(x.Args))
		for i, a := range x.Args {
			var err error
			if args[i], err = toExpr(a, l); err != nil {
				return nil, err
			}
		}
		return &expr.Call{Fn: x.Name, Args: args, Type: x.T}, nil
	case nil:
		return nil, nil
	}
	return nil, errs.New(errs.Internal, "lowering: unknown expression %T", e)
}

func toExprs(es []planner.Expr, l layout) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		var err error
		if out[i], err = toExpr(e, l); err != nil {
			return nil, err
		}
	}
	return out, nil
}
