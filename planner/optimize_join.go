package planner

// OrderJoins reorders each region of inner joins (the joins and their
// conditions, down to the first node that is not an inner join) by greedy
// operator ordering: repeatedly join the connected pair of inputs with the
// smallest estimated result, the larger input on the left (probe) and the
// smaller on the right (build). Inputs are joined without a condition only
// when no connected pair is left. Semi and anti joins are pushed into the
// region where that is cheaper, and build on their smaller side (see
// optimize_semi.go).
func OrderJoins(p Plan) (Plan, error) {
	e := newEstimator(p)
	return e.chooseBuildSides(e.order(p)), nil
}

func (e *estimator) order(p Plan) Plan {
	if j, ok := p.(*Join); ok && j.Type == JoinInner {
		var leaves []Plan
		var conds []Expr
		e.region(j, &leaves, &conds)
		return e.reorder(j.Columns(), leaves, conds)
	}
	if j, ok := p.(*Join); ok {
		if out, ok := e.orderSemi(j); ok {
			return out
		}
	}
	ins := p.Inputs()
	if len(ins) == 0 {
		return p
	}
	nin := make([]Plan, len(ins))
	for i, c := range ins {
		nin[i] = e.order(c)
	}
	return withInputs(p, nin)
}

// region collects the inputs and conjuncts of the inner-join region at p.
func (e *estimator) region(p Plan, leaves *[]Plan, conds *[]Expr) {
	switch n := p.(type) {
	case *Join:
		if n.Type == JoinInner {
			*conds = append(*conds, splitConjuncts(n.Cond)...)
			e.region(n.Left, leaves, conds)
			e.region(n.Right, leaves, conds)
			return
		}
	case *Filter:
		if j, ok := n.Input.(*Join); ok && j.Type == JoinInner {
			*conds = append(*conds, splitConjuncts(n.Cond)...)
			e.region(j, leaves, conds)
			return
		}
	}
	*leaves = append(*leaves, e.order(p))
}

type component struct {
	plan Plan
	cols colSet
	rows float64
}

func (e *estimator) reorder(want []Column, leaves []Plan, conds []Expr) Plan {
	comps := make([]*component, len(leaves))
	for i, l := range leaves {
		comps[i] = &component{plan: l, cols: idSet(l.Columns())}
	}
	var top []Expr
	condCols := make([]colSet, 0, len(conds))
	var rest []Expr
	for _, c := range conds {
		cs := exprColumns(c, nil)
		if len(cs) == 0 {
			top = append(top, c)
			continue
		}
		rest = append(rest, c)
		condCols = append(condCols, cs)
	}
	conds = rest
	e.setClasses(conds)
	// Conjuncts over one input filter it first.
	for _, comp := range comps {
		var mine []Expr
		var keep []Expr
		var keepCols []colSet
		for i, c := range conds {
			if condCols[i].subsetOf(comp.cols) {
				mine = append(mine, c)
			} else {
				keep, keepCols = append(keep, c), append(keepCols, condCols[i])
			}
		}
		conds, condCols = keep, keepCols
		comp.plan = filterOver(comp.plan, mine)
		comp.rows = e.rows(comp.plan)
	}
	// applicable returns the indexes of conds that a join of a and b
	// makes evaluable (over both, not over either alone).
	applicable := func(a, b *component) []int {
		var out []int
		for i, cs := range condCols {
			if cs.subsetOf(a.cols) || cs.subsetOf(b.cols) {
				continue
			}
			if cs.subsetOfEither(a.cols, b.cols) {
				out = append(out, i)
			}
		}
		return out
	}
	for len(comps) > 1 {
		// Prefer pairs joined by an equality (hash joins); other
		// conditions connect inputs only when no such pair is left.
		bi, bj, best, bestEqui := -1, -1, 0.0, false
		for i := range comps {
			for j := i + 1; j < len(comps); j++ {
				idx := applicable(comps[i], comps[j])
				if len(idx) == 0 {
					continue
				}
				cs := pickExprs(conds, idx)
				equi := hasEquality(cs, comps[i].cols, comps[j].cols)
				r := e.joinRows(comps[i].rows, comps[j].rows, cs)
				if bi < 0 || (equi && !bestEqui) || (equi == bestEqui && r < best) {
					bi, bj, best, bestEqui = i, j, r, equi
				}
			}
		}
		if bi < 0 { // nothing connected: cross the two smallest
			bi, bj = smallestTwo(comps)
			best = comps[bi].rows * comps[bj].rows
		}
		a, b := comps[bi], comps[bj]
		idx := applicable(a, b)
		if a.rows < b.rows {
			a, b = b, a
		}
		joined := &component{
			plan: &Join{Type: JoinInner, Left: a.plan, Right: b.plan, Cond: andExprs(pickExprs(conds, idx))},
			cols: unionCols(a.cols, b.cols),
			rows: best,
		}
		conds, condCols = dropIndexes(conds, idx), dropIndexes(condCols, idx)
		comps = append(dropIndexes(comps, []int{bi, bj}), joined)
	}
	out := filterOver(comps[0].plan, append(conds, top...))
	return restoreOrder(out, want)
}

// restoreOrder projects p's columns into the order want (the region's
// original output), so that reordering is invisible above.
func restoreOrder(p Plan, want []Column) Plan {
	have := p.Columns()
	same := len(have) == len(want)
	for i := 0; same && i < len(have); i++ {
		same = have[i].ID == want[i].ID
	}
	if same {
		return p
	}
	exprs := make([]Expr, len(want))
	for i, c := range want {
		exprs[i] = &ColRef{ID: c.ID, Name: c.Name, T: c.Type}
	}
	return &Project{Input: p, Exprs: exprs, Cols: append([]Column{}, want...)}
}

func unionCols(a, b colSet) colSet {
	out := make(colSet, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func pickExprs(es []Expr, idx []int) []Expr {
	out := make([]Expr, len(idx))
	for i, j := range idx {
		out[i] = es[j]
	}
	return out
}

// dropIndexes returns s without the elements at the (ascending) indexes idx.
func dropIndexes[T any](s []T, idx []int) []T {
	out := make([]T, 0, len(s))
	k := 0
	for i, v := range s {
		if k < len(idx) && idx[k] == i {
			k++
			continue
		}
		out = append(out, v)
	}
	return out
}

func smallestTwo(comps []*component) (int, int) {
	a, b := -1, -1
	for i, c := range comps {
		switch {
		case a < 0 || c.rows < comps[a].rows:
			a, b = i, a
		case b < 0 || c.rows < comps[b].rows:
			b = i
		}
	}
	if a > b {
		a, b = b, a
	}
	return a, b
}

// hasEquality reports whether some condition equates an expression over a
// with one over b.
func hasEquality(conds []Expr, a, b colSet) bool {
	for _, c := range conds {
		f, ok := c.(*Func)
		if !ok || f.Name != "eq" || len(f.Args) != 2 {
			continue
		}
		x, y := exprColumns(f.Args[0], nil), exprColumns(f.Args[1], nil)
		if len(x) == 0 || len(y) == 0 {
			continue
		}
		if (x.subsetOf(a) && y.subsetOf(b)) || (x.subsetOf(b) && y.subsetOf(a)) {
			return true
		}
	}
	return false
}
