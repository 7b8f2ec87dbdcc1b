package planner

import (
	"gq/errs"
	"gq/parser/sqlparser"
)

// bindFullJoin plans L FULL [OUTER] JOIN R ON cond as
//
//	(L LEFT JOIN R ON cond) UNION ALL (NULLs for L, R') where R' is
//	R ANTI JOIN L ON cond: R's rows that match no L row
//
// with both sides bound a second time for the anti join (a plan is a tree,
// so each side's scan appears twice, with fresh column IDs). Both halves
// are joins the executor already runs everywhere (hash or nested loop,
// across ranks, spilling), and the ON condition has the same meaning in
// both: a row is matched where cond is TRUE.
//
// USING and NATURAL are refused: their merged column would be
// COALESCE(l.x, r.x), which the binder's one-side-kept USING columns
// cannot express.
func (b *binder) bindFullJoin(j *sqlparser.JoinTableExpr, env *cteEnv) (Plan, []scopeCol, error) {
	if j.Condition == nil || j.Condition.On == nil || len(j.Condition.Using) > 0 {
		return nil, nil, errs.NewNear(errs.Unsupported, "full", "FULL OUTER JOIN needs an ON condition (USING is not supported with it)")
	}
	type side struct {
		plan Plan
		cols []scopeCol
	}
	bindSides := func() (l, r side, cond Expr, err error) {
		if l.plan, l.cols, err = b.bindTableExpr(j.LeftExpr, env); err != nil {
			return
		}
		if r.plan, r.cols, err = b.bindTableExpr(j.RightExpr, env); err != nil {
			return
		}
		if l.plan == nil || r.plan == nil {
			err = errs.New(errs.Unsupported, "joins with DUAL are not supported")
			return
		}
		if err = checkAliases(l.cols, r.cols); err != nil {
			return
		}
		s := &scope{cols: append(append([]scopeCol{}, l.cols...), r.cols...)}
		cond, err = (&ectx{b: b, s: s, env: env}).bindBool(j.Condition.On, "ON")
		return
	}
	l1, r1, cond1, err := bindSides()
	if err != nil {
		return nil, nil, err
	}
	l2, r2, cond2, err := bindSides()
	if err != nil {
		return nil, nil, err
	}
	matched := &Join{Type: JoinLeft, Left: l1.plan, Right: r1.plan, Cond: cond1}
	unmatched := &Join{Type: JoinAnti, Left: r2.plan, Right: l2.plan, Cond: cond2}

	lc, rc := l1.plan.Columns(), r1.plan.Columns()
	var exprs []Expr
	var names []string
	for _, c := range lc {
		exprs, names = append(exprs, &Const{Value: nil, T: c.Type}), append(names, c.Name)
	}
	for _, c := range r2.plan.Columns() {
		exprs, names = append(exprs, ref(c)), append(names, c.Name)
	}
	un := &Union{Children: []Plan{matched, project(unmatched, exprs, names)}}
	// Each scope column of either side maps to its position in the union.
	pos := map[ColumnID]int{}
	for i, c := range append(append([]Column{}, lc...), rc...) {
		pos[c.ID] = i
		un.Cols = append(un.Cols, Column{ID: NewColumnID(), Name: c.Name, Table: c.Table, Type: c.Type, Nullable: true})
	}
	var cols []scopeCol
	for _, sc := range append(append([]scopeCol{}, l1.cols...), r1.cols...) {
		i, ok := pos[sc.id]
		if !ok {
			return nil, nil, errs.New(errs.Internal, "FULL JOIN: column %s is not an output of its side", sc.name)
		}
		sc.id, sc.nullable = un.Cols[i].ID, true
		cols = append(cols, sc)
	}
	return un, cols, nil
}
