package planner

import "slices"

// Simplify removes Filters whose condition is constant true, turns a
// Filter whose condition is constant false or NULL into an empty Values,
// and drops constant-true scan filters and join conditions. An empty
// relation then propagates up: through the operators that yield no row
// from no row, and through joins (see simplifyJoin), so that `t1 JOIN t2
// ON 1=0` reads neither table instead of pairing every row in a nested
// loop.
func Simplify(p Plan) (Plan, error) {
	return transformUp(p, func(n Plan) (Plan, error) {
		switch x := n.(type) {
		case *Filter:
			if x.Cond == nil || isBoolConst(x.Cond, true) {
				return x.Input, nil
			}
			if isFalseCond(x.Cond) || isEmpty(x.Input) {
				return &Values{Cols: x.Columns()}, nil
			}
		case *Scan:
			if x.Filter != nil && isBoolConst(x.Filter, true) {
				c := *x
				c.Filter = nil
				return &c, nil
			}
			if x.Filter != nil && isFalseCond(x.Filter) {
				return &Values{Cols: x.Columns()}, nil
			}
		case *Join:
			if x.Cond != nil && isBoolConst(x.Cond, true) {
				c := *x
				c.Cond = nil
				return &c, nil
			}
			return simplifyJoin(x), nil
		case *Project, *Sort, *Limit, *Window:
			if isEmpty(n.Inputs()[0]) {
				return &Values{Cols: n.Columns()}, nil
			}
		case *Aggregate:
			// Without GROUP BY an aggregate yields one row even from none.
			if len(x.GroupBy) > 0 && isEmpty(x.Input) {
				return &Values{Cols: n.Columns()}, nil
			}
		case *Union:
			if !slices.ContainsFunc(x.Children, func(c Plan) bool { return !isEmpty(c) }) {
				return &Values{Cols: n.Columns()}, nil
			}
		}
		return n, nil
	})
}

// simplifyJoin replaces a join that can match no row (its condition is
// constant false or NULL, or a side is empty) by what that leaves: nothing
// for inner and semi joins, the left input for an anti join, and the left
// input padded with NULLs for left and single joins.
func simplifyJoin(j *Join) Plan {
	if isEmpty(j.Left) {
		return &Values{Cols: j.Columns()}
	}
	// A null-aware anti join (NOT IN) with a non-empty right side drops a
	// NULL left key even without a match, so only an empty right side
	// decides it.
	noMatch := isEmpty(j.Right) || (j.Cond != nil && isFalseCond(j.Cond) && !j.NullAware)
	if !noMatch {
		return j
	}
	switch j.Type {
	case JoinInner, JoinSemi:
		return &Values{Cols: j.Columns()}
	case JoinAnti:
		return j.Left
	}
	// JoinLeft, JoinSingle: every left row once, the right columns NULL.
	cols := j.Columns()
	exprs := make([]Expr, len(cols))
	nl := len(j.Left.Columns())
	for i, c := range cols {
		if i < nl {
			exprs[i] = &ColRef{ID: c.ID, Name: c.Name, T: c.Type}
		} else {
			exprs[i] = &Const{Value: nil, T: c.Type}
		}
	}
	return &Project{Input: j.Left, Exprs: exprs, Cols: cols}
}

// isFalseCond: a condition that holds for no row (constant false or NULL).
func isFalseCond(e Expr) bool { return isBoolConst(e, false) || isNullConst(e) }

// isEmpty: a relation known to have no row.
func isEmpty(p Plan) bool {
	v, ok := p.(*Values)
	return ok && len(v.Rows) == 0
}

// RemoveIdentityProjects drops Projects that pass their input's columns
// through unchanged (same IDs, names and order).
func RemoveIdentityProjects(p Plan) (Plan, error) {
	return transformUp(p, func(n Plan) (Plan, error) {
		pr, ok := n.(*Project)
		if !ok {
			return n, nil
		}
		in := pr.Input.Columns()
		if len(in) != len(pr.Exprs) {
			return n, nil
		}
		for i, e := range pr.Exprs {
			r, ok := e.(*ColRef)
			if !ok || r.ID != in[i].ID || pr.Cols[i].ID != in[i].ID || pr.Cols[i].Name != in[i].Name {
				return n, nil
			}
		}
		return pr.Input, nil
	})
}
