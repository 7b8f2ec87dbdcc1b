package planner

import (
	"vitess.io/vitess/go/vt/sqlparser"

	"gq/errs"
	"gq/exec/expr"
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
func (c *ectx) subquery(sq *sqlparser.Subquery) (*selResult, error) {
	if c.cur == nil {
		return nil, errs.New(errs.Unsupported, "subqueries are not supported here")
	}
	return c.b.bindTableStmt(sq.Select, c.s, c.env)
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
		r, err := c.subquery(x.Subquery)
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
		r, err := c.subquery(sq)
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
			return true, c.join(JoinAnti, r.plan, cond, true)
		}
		return true, c.join(JoinSemi, r.plan, cond, false)
	}
	return false, nil
}

// scalarSubquery joins a one-column subquery and returns its value.
func (c *ectx) scalarSubquery(sq *sqlparser.Subquery) (Expr, error) {
	r, err := c.subquery(sq)
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
