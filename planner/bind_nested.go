package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
	"gq/parser/sqlparser"
)

// Nested columns (list, struct, map) bind like any other and travel as
// payload; what needs an order, an equality or arithmetic on the whole value
// is refused here, after binding, by one walk over the plan: checkNested
// names the column, its type and the feature. The operators' own type
// rules would otherwise fail later, at run time, with an internal error.

// checkNested returns the error of the first feature of p applied to a
// nested value, nil when there is none.
func checkNested(p Plan) error {
	var err error
	check := func(feature string, es ...Expr) {
		for _, e := range es {
			if err == nil && e != nil {
				err = nestedUse(feature, e)
			}
		}
	}
	keys := func(feature string, es ...Expr) {
		for _, e := range es {
			if err == nil && e != nil && expr.IsNested(e.Type()) {
				err = nestedErr(feature, e)
			}
		}
		check(feature, es...)
	}
	var walk func(Plan)
	walk = func(p Plan) {
		switch n := p.(type) {
		case *Scan:
			check("a filter", n.Filter)
		case *Filter:
			check("WHERE", n.Cond)
		case *Project:
			check("SELECT", n.Exprs...)
		case *Aggregate:
			keys("GROUP BY, DISTINCT or UNION", n.GroupBy...)
			for _, a := range n.Aggs {
				if a.Arg != nil && expr.IsNested(a.Arg.Type()) && (a.Fn != "count" && a.Fn != "list" || a.Distinct) && !IsPairAgg(a.Fn) {
					fn := a.Fn
					if a.Distinct {
						fn += "(DISTINCT)"
					}
					keys("aggregate "+fn, a.Arg)
				}
				check("an aggregate", a.Arg)
			}
		case *Join:
			check("a join condition", n.Cond)
		case *Sort:
			for _, k := range n.Keys {
				keys("ORDER BY", k.Expr)
			}
		case *Window:
			keys("PARTITION BY", n.PartitionBy...)
			for _, k := range n.OrderBy {
				keys("a window's ORDER BY", k.Expr)
			}
			for _, f := range n.Funcs {
				for _, a := range f.Args {
					if expr.IsNested(a.Type()) && f.Fn != "count" && !(f.Fn == "list" && !f.Distinct) && !IsPairAgg(f.Fn) {
						keys("window function "+f.Fn, a)
					}
					check("a window function", a)
				}
			}
		}
		for _, in := range p.Inputs() {
			if err == nil {
				walk(in)
			}
		}
	}
	walk(p)
	return err
}

// nestedUse is the error of the first call inside e that is given a nested
// argument it cannot take.
func nestedUse(feature string, e Expr) error {
	f, ok := e.(*Func)
	if !ok {
		return nil
	}
	for _, a := range f.Args {
		if err := nestedUse(feature, a); err != nil {
			return err
		}
	}
	if expr.TakesNested(f.Name) || f.Name == "cast" && expr.NullFills(f.Args[0].Type(), f.T) {
		return nil
	}
	for _, a := range f.Args {
		if expr.IsNested(a.Type()) {
			return nestedErr(opFeature(f.Name), a)
		}
	}
	return nil
}

// nestedArgs refuses a nested argument of a function that does not take
// one apart, before its type rule would cast it (and the error say CAST).
func nestedArgs(f *expr.Function, name string, args []expr.Operand) error {
	if expr.TakesNested(f.Name) || expr.TakesNested(name) {
		return nil
	}
	for _, a := range args {
		if expr.IsNested(a.Type()) {
			return nestedErr("function "+name, a.(Expr))
		}
	}
	return nil
}

// opFeature names an IR operator or function for an error.
func opFeature(fn string) string {
	switch fn {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return "comparison"
	case "cast":
		return "CAST"
	case "in":
		return "IN"
	}
	if s, ok := opSymbol[fn]; ok {
		return "operator " + s
	}
	return "function " + fn
}

// nestedErr names the nested value e (the column it reads, where it reads
// one) for feature.
func nestedErr(feature string, e Expr) error {
	name := exprText(e)
	what := "expression " + name
	if c, ok := e.(*ColRef); ok {
		what = "column " + c.Name
		name = c.Name
	}
	return expr.NestedErr(name, what, e.Type(), feature)
}

// exprText is e as a query would write it, without column IDs.
func exprText(e Expr) string {
	switch x := e.(type) {
	case *ColRef:
		return x.Name
	case *Func:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = exprText(a)
		}
		return x.Name + "(" + strings.Join(args, ", ") + ")"
	}
	return e.String()
}

// fieldAccess binds a.b (or t.a.b, a.b.c) as a struct field where a is not
// a table but a STRUCT column, as DuckDB does after table.column fails.
func (c *ectx) fieldAccess(x *sqlparser.ColName) (Expr, bool) {
	q := x.Qualifier
	if q.Name.IsEmpty() {
		return nil, false
	}
	var col *sqlparser.ColName
	var path []string
	if q.Qualifier.IsEmpty() {
		col = &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(q.Name.String())}
		path = []string{x.Name.String()}
	} else { // t.a.b: table t's column a; else a.b.c: column a's field b
		col = &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(q.Name.String()), Qualifier: sqlparser.TableName{Name: q.Qualifier}}
		path = []string{x.Name.String()}
		if _, err := c.s.resolve(col); err != nil {
			col = &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(q.Qualifier.String())}
			path = []string{q.Name.String(), x.Name.String()}
		}
	}
	sc, err := c.s.resolve(col)
	if err != nil {
		return nil, false
	}
	var e Expr = &ColRef{ID: sc.id, Name: sc.name, T: sc.t}
	for _, f := range path {
		r, err := expr.LookupSQL("struct_extract").Bind(fnBinder{}, "struct_extract", []expr.Operand{e, &Const{Value: f, T: expr.String}})
		if err != nil {
			return nil, false
		}
		e = r.(Expr)
	}
	return e, true
}

// structLiteral binds DuckDB's {'a': x, b: y}: the STRUCT whose fields are
// the values under their keys, in order (struct_pack's call, typed here
// because the keys are names, not arguments). A key given twice is an
// error, as in DuckDB; a NULL value is a NULL field of the NULL type.
func (c *ectx) structLiteral(x *sqlparser.StructExpr) (Expr, error) {
	fields := make([]arrow.Field, len(x.Fields))
	args := make([]Expr, len(x.Fields))
	seen := map[string]bool{}
	for i, f := range x.Fields {
		if seen[strings.ToLower(f.Key)] {
			return nil, errs.NewNear(errs.Binding, sqlparser.String(x), "struct literal %s names field %s twice", sqlparser.String(x), f.Key)
		}
		seen[strings.ToLower(f.Key)] = true
		e, err := c.bind(f.Value)
		if err != nil {
			return nil, err
		}
		args[i] = e
		fields[i] = arrow.Field{Name: f.Key, Type: e.Type(), Nullable: true}
	}
	return &Func{Name: "struct_pack", Args: args, T: arrow.StructOf(fields...)}, nil
}

// keyNestedDistinct makes count(DISTINCT x) of a nested x, grouped or over
// a window, count the distinct nested_key(x): equal keys are exactly the
// equal values, so the count is the same, and the operators that count
// distinct values need only flat ones. Likewise ORDER BY x sorts by
// nested_sort_key(x), whose byte order is the values' order.
func keyNestedDistinct(p Plan) {
	key := func(e Expr) Expr {
		if e == nil || !expr.IsNested(e.Type()) || !expr.NestedKeyable(e.Type()) {
			return e
		}
		return &Func{Name: "nested_key", Args: []Expr{e}, T: expr.String}
	}
	switch n := p.(type) {
	case *Aggregate:
		for i, a := range n.Aggs {
			if a.Fn == "count" && a.Distinct {
				n.Aggs[i].Arg = key(a.Arg)
			}
		}
	case *Window:
		for i, f := range n.Funcs {
			if f.Fn == "count_distinct" && len(f.Args) == 1 {
				n.Funcs[i].Args = []Expr{key(f.Args[0])}
			}
		}
	case *Sort:
		for i, k := range n.Keys {
			if expr.IsNested(k.Expr.Type()) && expr.NestedSortable(k.Expr.Type()) {
				n.Keys[i].Expr = &Func{Name: "nested_sort_key", Args: []Expr{k.Expr}, T: expr.String}
			}
		}
	}
	for _, in := range p.Inputs() {
		keyNestedDistinct(in)
	}
}
