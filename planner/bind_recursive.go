package planner

import (
	"fmt"
	"strings"

	"gq/errs"
	"gq/parser/sqlparser"
)

// WITH RECURSIVE. A CTE of a WITH RECURSIVE clause that names itself is
// `anchor UNION [ALL] recursive-term`: the anchor's rows are the first
// working table; the recursive term, reading the working table where it
// names the CTE, runs again over each new working table (its output)
// until one is empty; the CTE's rows are every working table's. With
// UNION a row already produced is dropped before it joins the working
// table, so a cyclic graph's reachability ends. The CTE's column types
// are the anchor's (the recursive term's are cast to them, as DuckDB and
// MySQL do). A CTE of the clause that does not name itself is an
// ordinary one.

// WorkTable identifies one recursive CTE's working table: its
// RecursiveCTE and the WorkScans of its recursive term share it.
type WorkTable struct {
	Name string
}

// RecursiveCTE is a recursive CTE (see above): Anchor and Recursive
// both yield Cols' types, positionally; Distinct is UNION (without ALL).
type RecursiveCTE struct {
	Work      *WorkTable
	Anchor    Plan
	Recursive Plan
	Distinct  bool
	Cols      []Column
}

// WorkScan reads the working table of Work (inside its recursive term).
type WorkScan struct {
	Work *WorkTable
	Cols []Column
}

func (r *RecursiveCTE) Columns() []Column { return r.Cols }
func (r *RecursiveCTE) Inputs() []Plan    { return []Plan{r.Anchor, r.Recursive} }
func (w *WorkScan) Columns() []Column     { return w.Cols }
func (w *WorkScan) Inputs() []Plan        { return nil }

// workRef is the entry of the CTE environment that the recursive term
// sees under the CTE's name: its reference reads the working table.
type workRef struct {
	table *WorkTable
	cols  []Column // the CTE's columns (types and names); each scan gets fresh IDs
}

// selfReferences counts the references to name as a table in the FROM
// clauses of ts, subqueries and derived tables included.
func selfReferences(ts sqlparser.SQLNode, name string) int {
	n := 0
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if t, ok := node.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := t.Expr.(sqlparser.TableName); ok && tn.Qualifier.IsEmpty() && strings.EqualFold(tn.Name.String(), name) {
				n++
			}
		}
		return true, nil
	}, ts)
	return n
}

// isRecursive reports whether cte is a recursive one: defined in a WITH
// RECURSIVE clause and naming itself in its body.
func (e *cteEnv) isRecursive() bool {
	return e.recursive && e.work == nil && selfReferences(e.stmt, e.name) > 0
}

// bindRecursiveCTE binds a reference to the recursive CTE cte.
func (b *binder) bindRecursiveCTE(cte *cteEnv) (*selResult, error) {
	name := cte.name
	u, ok := cte.stmt.(*sqlparser.Union)
	if !ok || u.Type != sqlparser.UnionSetOp {
		return nil, errs.NewNear(errs.Binding, name, "recursive CTE %q must be of the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	if len(u.OrderBy) > 0 || u.Limit != nil {
		return nil, errs.NewNear(errs.Unsupported, name, "ORDER BY or LIMIT over the UNION of recursive CTE %q is not supported", name)
	}
	if selfReferences(u.Left, name) > 0 {
		return nil, errs.NewNear(errs.Binding, name, "recursive reference to %q must not appear within its non-recursive term", name)
	}
	if err := checkRecursiveTerm(u.Right, name); err != nil {
		return nil, err
	}
	env, err := withCTEs(u.With, cte.defEnv)
	if err != nil {
		return nil, err
	}
	anchor, err := b.bindTableStmt(u.Left, nil, env)
	if err != nil {
		return nil, err
	}
	names := anchor.names
	if cte.cols != nil {
		if len(cte.cols) != len(names) {
			return nil, errs.NewNear(errs.Binding, name, "recursive CTE %q has %d columns but %d names were given", name, len(names), len(cte.cols))
		}
		names = cte.cols
	}
	acols := anchor.plan.Columns()[:len(names)]
	rc := &RecursiveCTE{Work: &WorkTable{Name: name}, Distinct: u.Distinct}
	aexprs := make([]Expr, len(names))
	for i, c := range acols {
		t := c.Type
		if isNull(t) {
			return nil, errs.NewNear(errs.Binding, name, "recursive CTE %q column %s: its non-recursive term gives it no type (a bare NULL); write CAST(NULL AS type)", name, names[i])
		}
		rc.Cols = append(rc.Cols, Column{ID: NewColumnID(), Name: names[i], Type: t, Nullable: true})
		if aexprs[i], err = castTo(ref(c), t); err != nil {
			return nil, err
		}
	}
	rc.Anchor = castColumns(anchor.plan, aexprs, names)
	wenv := &cteEnv{name: name, cols: names, work: &workRef{table: rc.Work, cols: rc.Cols}, parent: env}
	rec, err := b.bindTableStmt(u.Right, nil, wenv)
	if err != nil {
		return nil, err
	}
	if len(rec.names) != len(names) {
		return nil, errs.NewNear(errs.Binding, name, "the terms of recursive CTE %q have different numbers of columns (%d and %d)", name, len(names), len(rec.names))
	}
	rexprs := make([]Expr, len(names))
	for i, c := range rec.plan.Columns()[:len(names)] {
		t := rc.Cols[i].Type
		if _, _, err := unify(fmt.Sprintf("recursive CTE %s column %s", name, names[i]), []Expr{ref(rc.Cols[i]), ref(c)}); err != nil {
			return nil, err
		}
		if rexprs[i], err = castTo(ref(c), t); err != nil {
			return nil, errs.NewNear(errs.Binding, name, "recursive CTE %q column %s: the recursive term's %s cannot be cast to the anchor's %s", name, names[i], c.Type, t)
		}
	}
	rc.Recursive = castColumns(rec.plan, rexprs, names)
	return &selResult{plan: rc, names: names}, nil
}

// castColumns is p's first len(exprs) columns as exprs (the casts of
// them to the CTE's types): a Project, unless every one is its column.
func castColumns(p Plan, exprs []Expr, names []string) Plan {
	cols := p.Columns()
	for i, e := range exprs {
		if r, ok := e.(*ColRef); !ok || r.ID != cols[i].ID {
			return project(p, exprs, names)
		}
	}
	return trim(p, len(exprs))
}

// checkRecursiveTerm enforces where the recursive term may name the CTE
// (PostgreSQL's and DuckDB's rules, whose results the operator's
// iteration would otherwise not match): once, in the FROM clause of the
// term's SELECT itself, not inside a subquery, not on the NULL-padded
// side of an outer join, and not in a query that aggregates.
func checkRecursiveTerm(ts sqlparser.TableStatement, name string) error {
	n := selfReferences(ts, name)
	if n == 0 {
		return errs.NewNear(errs.Binding, name, "recursive CTE %q: its recursive term (after the last UNION) must name %s", name, name)
	}
	if n > 1 {
		return errs.NewNear(errs.Unsupported, name, "recursive reference to %q appears %d times in its recursive term; only one is supported", name, n)
	}
	sel, ok := ts.(*sqlparser.Select)
	if !ok {
		return errs.NewNear(errs.Unsupported, name, "the recursive term of %q must be one SELECT", name)
	}
	inFrom := 0
	for _, te := range sel.From {
		inFrom += fromReferences(te, name)
	}
	if inFrom == 0 {
		return errs.NewNear(errs.Unsupported, name, "recursive reference to %q must not appear within a subquery", name)
	}
	for _, te := range sel.From {
		if outerJoinNullable(te, name, false) {
			return errs.NewNear(errs.Unsupported, name, "recursive reference to %q must not appear within the NULL-padded side of an outer join", name)
		}
	}
	agg := sel.GroupBy != nil || sel.Having != nil
	for _, e := range sel.GetColumns() {
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if _, ok := node.(*sqlparser.Subquery); ok {
				return false, nil
			}
			agg = agg || isAggAST(node)
			return !agg, nil
		}, e)
	}
	if agg {
		return errs.NewNear(errs.Unsupported, name, "aggregate functions and GROUP BY are not allowed in the recursive term of %q", name)
	}
	if sel.OrderBy != nil || sel.Limit != nil {
		return errs.NewNear(errs.Unsupported, name, "ORDER BY or LIMIT in the recursive term of %q is not supported", name)
	}
	return nil
}

// fromReferences counts the references to name in te outside subqueries.
func fromReferences(te sqlparser.TableExpr, name string) int {
	switch x := te.(type) {
	case *sqlparser.AliasedTableExpr:
		if tn, ok := x.Expr.(sqlparser.TableName); ok && tn.Qualifier.IsEmpty() && strings.EqualFold(tn.Name.String(), name) {
			return 1
		}
	case *sqlparser.JoinTableExpr:
		return fromReferences(x.LeftExpr, name) + fromReferences(x.RightExpr, name)
	case *sqlparser.ParenTableExpr:
		n := 0
		for _, e := range x.Exprs {
			n += fromReferences(e, name)
		}
		return n
	}
	return 0
}

// outerJoinNullable reports whether name is referenced in te on a side
// that an outer join pads with NULLs (padded: te is such a side).
func outerJoinNullable(te sqlparser.TableExpr, name string, padded bool) bool {
	switch x := te.(type) {
	case *sqlparser.AliasedTableExpr:
		return padded && fromReferences(x, name) > 0
	case *sqlparser.JoinTableExpr:
		lp, rp := padded, padded
		switch x.Join {
		case sqlparser.LeftJoinType, sqlparser.NaturalLeftJoinType:
			rp = true
		case sqlparser.RightJoinType, sqlparser.NaturalRightJoinType:
			lp = true
		case sqlparser.FullOuterJoinType:
			lp, rp = true, true
		}
		return outerJoinNullable(x.LeftExpr, name, lp) || outerJoinNullable(x.RightExpr, name, rp)
	case *sqlparser.ParenTableExpr:
		for _, e := range x.Exprs {
			if outerJoinNullable(e, name, padded) {
				return true
			}
		}
	}
	return false
}

// bindWorkScan binds the recursive term's reference to its CTE.
func bindWorkScan(w *workRef, alias string, renames []string) (Plan, []scopeCol, error) {
	ws := &WorkScan{Work: w.table}
	for _, c := range w.cols {
		ws.Cols = append(ws.Cols, Column{ID: NewColumnID(), Name: c.Name, Table: alias, Type: c.Type, Nullable: true})
	}
	names := make([]string, len(ws.Cols))
	for i, c := range ws.Cols {
		names[i] = c.Name
	}
	return relation(&selResult{plan: ws, names: names}, alias, renames)
}
