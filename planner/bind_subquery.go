package planner

import (
	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// Subqueries are planned as joins onto *c.cur, never executed per row:
//
//	EXISTS / NOT EXISTS (WHERE conjunct)  → semi / anti join on the
//	                                        subquery's correlated conjuncts
//	x [NOT] IN (subquery) (WHERE conjunct) → semi / null-aware anti join on
//	                                        x = column (+ correlated conjuncts)
//	scalar subquery (any expression)      → single join (left join that fails
//	                                        on a second match), the value is
//	                                        the subquery's column
//
// A correlated subquery's WHERE conjuncts that mention the outer query are
// pulled out as the join condition (see bindSelect and aggregate).

// subquery binds a subquery whose outer scope is c's.
func (c *ectx) subquery(sq *sqlparser.Subquery, scalar bool) (*selResult, error) {
	if c.cur == nil { // only an outer join's ON binds without a plan to join onto
		return nil, errs.New(errs.Unsupported, "subqueries in the ON condition of an outer join are not supported")
	}
	c.b.scalarNext = scalar
	r, err := c.b.bindTableStmt(sq.Select, c.s, c.env)
	if err != nil {
		return nil, err
	}
	return r, c.attachDomains(r)
}

// join puts right onto *c.cur, checking that cond refers only to the two
// sides (deeper correlation is not supported).
func (c *ectx) join(typ JoinType, right Plan, cond Expr, nullAware bool) error {
	left := *c.cur
	if cond != nil {
		ids := planIDs(left)
		for id := range planIDs(right) {
			ids[id] = true
		}
		if !within(cond, ids) {
			return errs.New(errs.Unsupported, "subquery correlated to a query more than one level out is not supported")
		}
	}
	*c.cur = &Join{Type: typ, Left: left, Right: right, Cond: cond, NullAware: nullAware}
	return nil
}

// subqueryPredicate plans conj when it is [NOT] EXISTS or [NOT] IN
// (subquery); it reports false for other conjuncts.
func (c *ectx) subqueryPredicate(conj sqlparser.Expr) (bool, error) {
	negated := false
	e := conj
	if n, ok := e.(*sqlparser.NotExpr); ok {
		switch x := n.Expr.(type) {
		case *sqlparser.ExistsExpr:
			negated, e = true, n.Expr
		case *sqlparser.ComparisonExpr: // NOT (x IN (subquery)) is x NOT IN (subquery)
			if _, ok := x.Right.(*sqlparser.Subquery); ok && (x.Operator == sqlparser.InOp || x.Operator == sqlparser.NotInOp) {
				flipped := *x
				flipped.Operator = map[bool]sqlparser.ComparisonExprOperator{true: sqlparser.NotInOp, false: sqlparser.InOp}[x.Operator == sqlparser.InOp]
				e = &flipped
			}
		}
	}
	switch x := e.(type) {
	case *sqlparser.ExistsExpr:
		r, err := c.subquery(x.Subquery, false)
		if err != nil {
			return false, err
		}
		typ := JoinSemi
		if negated {
			typ = JoinAnti
		}
		return true, c.join(typ, r.plan, and(r.corr), false)
	case *sqlparser.ComparisonExpr:
		sq, ok := x.Right.(*sqlparser.Subquery)
		if !ok || x.Operator != sqlparser.InOp && x.Operator != sqlparser.NotInOp {
			return false, nil
		}
		if _, ok := x.Left.(sqlparser.ValTuple); ok {
			return false, errs.New(errs.Unsupported, "row IN (subquery) is not supported")
		}
		l, err := c.bind(x.Left)
		if err != nil {
			return false, err
		}
		r, err := c.subquery(sq, false)
		if err != nil {
			return false, err
		}
		if len(r.names) != 1 {
			return false, errs.New(errs.Binding, "IN subquery must return one column, not %d", len(r.names))
		}
		eq, err := compare("eq", l, ref(r.plan.Columns()[0]))
		if err != nil {
			return false, err
		}
		cond := and(append([]Expr{eq}, r.corr...))
		if x.Operator == sqlparser.NotInOp {
			if len(r.corr) == 0 {
				return true, c.join(JoinAnti, r.plan, cond, true)
			}
			// A null-aware anti join looks for NULLs in the whole right
			// side; correlated, only the row's own matches count: the
			// row goes when one of them equals x or makes x = y unknown.
			var unknown Expr = eq
			if y := r.plan.Columns()[0]; y.Nullable || c.nullable(l) {
				isNull := func(e Expr) Expr { return &Func{Name: "is_null", Args: []Expr{e}, T: expr.Boolean} }
				unknown = &Func{Name: "or", Args: []Expr{eq, isNull(l), isNull(ref(y))}, T: expr.Boolean}
			}
			return true, c.join(JoinAnti, r.plan, and(append(append([]Expr{}, r.corr...), unknown)), false)
		}
		return true, c.join(JoinSemi, r.plan, cond, false)
	}
	return false, nil
}

// scalarSubquery joins a one-column subquery and returns its value.
func (c *ectx) scalarSubquery(sq *sqlparser.Subquery) (Expr, error) {
	r, err := c.subquery(sq, true)
	if err != nil {
		return nil, err
	}
	if len(r.names) != 1 {
		return nil, errs.New(errs.Binding, "scalar subquery must return one column, not %d", len(r.names))
	}
	if len(r.corr) > 0 && r.count == 2 {
		return nil, errs.New(errs.Unsupported, "a correlated scalar subquery with count() inside an expression is not supported")
	}
	if err := c.join(JoinSingle, r.plan, and(r.corr), false); err != nil {
		return nil, err
	}
	v := Expr(ref(r.plan.Columns()[0]))
	if len(r.corr) > 0 && r.count == 1 {
		// No matching group means count 0, not NULL.
		v = &Func{Name: "coalesce", Args: []Expr{v, &Const{Value: int64(0), T: expr.Int64}}, T: expr.Int64}
	}
	return v, nil
}

// Subquery predicates anywhere else (inside OR, CASE, the select list) are
// "mark joins" built from joins gq has: the subquery is grouped by its
// correlation columns, so each outer row finds at most one group, and the
// group's counts say whether the predicate holds (DuckDB plans a MARK join;
// this is the same answer from a single join over an aggregate).
//
//	EXISTS (sub)        → count(*) of the row's group > 0 (no group: false)
//	x IN (select y …)   → true when the row's group holds y = x; else false
//	                      when the group is empty, NULL when x is NULL or
//	                      the group holds a NULL y, false otherwise
//
// Only equality correlations (outer = inner) can be grouped this way.

// existsMark returns a Boolean that is EXISTS (sq) for each row of *c.cur.
func (c *ectx) existsMark(sq *sqlparser.Subquery) (Expr, error) {
	g, err := c.groupedSubquery(sq, "EXISTS", nil)
	if err != nil {
		return nil, err
	}
	return nonEmpty(g.count), nil
}

// inMark returns a Boolean that is x IN (sq) for each row of *c.cur, with
// SQL's NULL rules: one join finds the row's value among the subquery's
// (grouped by correlation and value), another its group's counts.
func (c *ectx) inMark(x Expr, sq *sqlparser.Subquery) (Expr, error) {
	hit, err := c.groupedSubquery(sq, "IN", x)
	if err != nil {
		return nil, err
	}
	all, err := c.groupedSubquery(sq, "IN", nil)
	if err != nil {
		return nil, err
	}
	boolean := func(v any) Expr { return &Const{Value: v, T: expr.Boolean} }
	not := func(e Expr) Expr { return &Func{Name: "not", Args: []Expr{e}, T: expr.Boolean} }
	isNull := func(e Expr) Expr { return &Func{Name: "is_null", Args: []Expr{e}, T: expr.Boolean} }
	someNull, err := compare("lt", all.nonNull, all.count)
	if err != nil {
		return nil, err
	}
	return &Func{Name: "case", Args: []Expr{
		not(isNull(hit.value)), boolean(true),
		not(nonEmpty(all.count)), boolean(false),
		isNull(x), boolean(nil),
		someNull, boolean(nil),
		boolean(false)}, T: expr.Boolean}, nil
}

// subqueryGroups is a subquery grouped by its correlation columns (and,
// for a value x, by its one output column, joined on x = that column),
// single-joined onto *c.cur.
type subqueryGroups struct {
	count   Expr // count(*) of the row's group; NULL when no group matched
	nonNull Expr // IN without x: count(column) of the row's group
	value   Expr // with x: the group's column value; NULL when none matched
}

func (c *ectx) groupedSubquery(sq *sqlparser.Subquery, what string, x Expr) (*subqueryGroups, error) {
	r, err := c.subquery(sq, false)
	if err != nil {
		return nil, err
	}
	if what == "IN" && len(r.names) != 1 {
		return nil, errs.New(errs.Binding, "IN subquery must return one column, not %d", len(r.names))
	}
	outerIDs, innerIDs := planIDs(*c.cur), planIDs(r.plan)
	agg := &Aggregate{Input: r.plan}
	group := func(e Expr, name string) *ColRef {
		col := Column{ID: NewColumnID(), Name: name, Type: e.Type(), Nullable: true}
		agg.GroupBy, agg.GroupCols = append(agg.GroupBy, e), append(agg.GroupCols, col)
		return ref(col)
	}
	var conds []Expr
	equalities := true
	for _, ce := range r.corr {
		equalities = equalities && isOuterEquality(ce, innerIDs)
	}
	if !equalities {
		// Group per outer value instead (bind_corr.go): the subquery's
		// rows joined with the domain of the outer columns it reads.
		dom, renamed, back, err := c.newDomain(r.corr, innerIDs)
		if err != nil {
			return nil, err
		}
		if err := c.attachDomains(&selResult{domains: []*domain{dom}}); err != nil {
			return nil, err
		}
		agg.Input = &Join{Type: JoinInner, Left: dom.agg, Right: r.plan, Cond: and(renamed)}
		m := map[ColumnID]*ColRef{}
		for _, col := range dom.agg.GroupCols {
			m[col.ID] = group(ref(col), "corr")
		}
		for _, e := range back {
			conds = append(conds, remap(e, m))
		}
		r.corr = nil
	}
	for _, ce := range r.corr {
		f, ok := ce.(*Func)
		if !ok || f.Name != "eq" {
			return nil, errs.New(errs.Unsupported, "%s (subquery) inside an expression or OR needs equality correlations (outer = inner), not %s", what, ce)
		}
		o, in := f.Args[0], f.Args[1]
		if within(o, innerIDs) {
			o, in = in, o
		}
		if !within(o, outerIDs) || !within(in, innerIDs) {
			return nil, errs.New(errs.Unsupported, "%s (subquery) inside an expression or OR needs equality correlations (outer = inner), not %s", what, ce)
		}
		conds = append(conds, &Func{Name: "eq", Args: []Expr{o, group(in, "corr")}, T: expr.Boolean})
	}
	g := &subqueryGroups{}
	column := ref(r.plan.Columns()[0])
	if x != nil {
		g.value = group(column, r.names[0])
		eq, err := compare("eq", x, g.value)
		if err != nil {
			return nil, err
		}
		conds = append(conds, eq)
	}
	count := Column{ID: NewColumnID(), Name: "count(*)", Type: expr.Int64, Nullable: true}
	agg.Aggs, agg.AggCols = append(agg.Aggs, AggCall{Fn: "count_star", Type: expr.Int64}), append(agg.AggCols, count)
	g.count = ref(count)
	if what == "IN" && x == nil {
		nn := Column{ID: NewColumnID(), Name: "count(value)", Type: expr.Int64, Nullable: true}
		var arg Expr = column
		if isNull(arg.Type()) { // as aggregate() does: count of a typed NULL
			arg = &Const{T: expr.Int64}
		}
		agg.Aggs = append(agg.Aggs, AggCall{Fn: "count", Arg: arg, Type: expr.Int64})
		agg.AggCols = append(agg.AggCols, nn)
		g.nonNull = ref(nn)
	}
	// Distinct groups: a row matches at most one, which JoinSingle checks.
	if err := c.join(JoinSingle, agg, and(conds), false); err != nil {
		return nil, err
	}
	return g, nil
}

// nonEmpty is count > 0, false for a NULL count (no group matched).
func nonEmpty(count Expr) Expr {
	zero := &Const{Value: int64(0), T: expr.Int64}
	return &Func{Name: "gt", Args: []Expr{&Func{Name: "coalesce", Args: []Expr{count, zero}, T: expr.Int64}, zero}, T: expr.Boolean}
}
