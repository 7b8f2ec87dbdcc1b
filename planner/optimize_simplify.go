package planner

// Simplify removes Filters whose condition is constant true, turns a
// Filter whose condition is constant false or NULL into an empty Values,
// and drops constant-true scan filters and join conditions.
func Simplify(p Plan) (Plan, error) {
	return transformUp(p, func(n Plan) (Plan, error) {
		switch x := n.(type) {
		case *Filter:
			if x.Cond == nil || isBoolConst(x.Cond, true) {
				return x.Input, nil
			}
			if isBoolConst(x.Cond, false) || isNullConst(x.Cond) {
				return &Values{Cols: x.Columns()}, nil
			}
		case *Scan:
			if x.Filter != nil && isBoolConst(x.Filter, true) {
				c := *x
				c.Filter = nil
				return &c, nil
			}
		case *Join:
			if x.Cond != nil && isBoolConst(x.Cond, true) {
				c := *x
				c.Cond = nil
				return &c, nil
			}
		}
		return n, nil
	})
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
