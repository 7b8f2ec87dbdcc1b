package planner

// PushDownPredicates moves each conjunct of every Filter (and of inner
// join conditions) as close to the scans as its columns allow. Conjuncts
// over both sides of an inner join become its condition; nothing moves
// into the NULL-padded side of an outer join from above, nor past Limit,
// Window or Union, nor past an Aggregate unless it reads only group keys.
func PushDownPredicates(p Plan) (Plan, error) {
	return push(p, nil), nil
}

// push returns p with preds (conjuncts over p's columns) applied, as low
// as possible.
func push(p Plan, preds []Expr) Plan {
	switch n := p.(type) {
	case *Filter:
		return push(n.Input, append(preds, factorAll(splitConjuncts(n.Cond))...))
	case *Scan:
		if len(preds) == 0 {
			return n
		}
		c := *n
		c.Filter = andExprs(append(splitConjuncts(n.Filter), preds...))
		return &c
	case *Project:
		m := make(map[ColumnID]Expr, len(n.Cols))
		for i, c := range n.Cols {
			m[c.ID] = n.Exprs[i]
		}
		below := make([]Expr, len(preds))
		for i, e := range preds {
			below[i] = substituteCols(e, m)
		}
		c := *n
		c.Input = push(n.Input, below)
		return &c
	case *Sort:
		c := *n
		c.Input = push(n.Input, preds)
		return &c
	case *Aggregate:
		return pushAggregate(n, preds)
	case *Join:
		return pushJoin(n, preds)
	}
	// Limit, Window, Union, Values: optimise below, keep preds above.
	ins := p.Inputs()
	if len(ins) > 0 {
		nin := make([]Plan, len(ins))
		for i, c := range ins {
			nin[i] = push(c, nil)
		}
		p = withInputs(p, nin)
	}
	return filterOver(p, preds)
}

func filterOver(p Plan, preds []Expr) Plan {
	if len(preds) == 0 {
		return p
	}
	return &Filter{Input: p, Cond: andExprs(preds)}
}

func pushAggregate(n *Aggregate, preds []Expr) Plan {
	var below, above []Expr
	groups := idSet(n.GroupCols)
	m := make(map[ColumnID]Expr, len(n.GroupCols))
	for i, c := range n.GroupCols {
		m[c.ID] = n.GroupBy[i]
	}
	for _, e := range preds {
		// Without GROUP BY the aggregate yields a row even for empty
		// input, so no predicate may move below it.
		if len(n.GroupBy) > 0 && exprColumns(e, nil).subsetOf(groups) {
			below = append(below, substituteCols(e, m))
		} else {
			above = append(above, e)
		}
	}
	c := *n
	c.Input = push(n.Input, below)
	return filterOver(&c, above)
}

func pushJoin(n *Join, preds []Expr) Plan {
	if m := scalarJoinDown(n, preds); m != nil {
		return push(m, preds)
	}
	lcols, rcols := idSet(n.Left.Columns()), idSet(n.Right.Columns())
	var left, right, cond, above []Expr
	for _, e := range preds {
		cs := exprColumns(e, nil)
		switch {
		case len(cs) > 0 && cs.subsetOf(lcols):
			// Left rows are kept as they are by every join type.
			left = append(left, e)
		case n.Type == JoinInner && len(cs) > 0 && cs.subsetOf(rcols):
			right = append(right, e)
		case n.Type == JoinInner:
			cond = append(cond, e)
			left, right = appendImplied(left, right, e, lcols, rcols)
		default:
			above = append(above, e)
		}
	}
	for _, e := range factorAll(splitConjuncts(n.Cond)) {
		cs := exprColumns(e, nil)
		switch {
		case len(cs) > 0 && cs.subsetOf(rcols):
			// A right-only ON conjunct only removes right rows that could
			// never match, for every join type (left rows stay padded).
			right = append(right, e)
		case len(cs) > 0 && cs.subsetOf(lcols) && (n.Type == JoinInner || n.Type == JoinSemi):
			left = append(left, e)
		default:
			cond = append(cond, e)
			if n.Type == JoinInner {
				left, right = appendImplied(left, right, e, lcols, rcols)
			}
		}
	}
	c := *n
	c.Left = push(n.Left, left)
	c.Right = push(n.Right, right)
	c.Cond = andExprs(cond)
	return filterOver(&c, above)
}

// appendImplied adds the single-side predicates an OR spanning both sides
// of an inner join implies (the OR itself stays in the join condition).
func appendImplied(left, right []Expr, e Expr, lcols, rcols colSet) ([]Expr, []Expr) {
	if l := impliedOn(e, lcols); l != nil {
		left = append(left, l)
	}
	if r := impliedOn(e, rcols); r != nil {
		right = append(right, r)
	}
	return left, right
}

// scalarJoinDown moves an uncorrelated scalar subquery's single join below
// the inner join it sits on, to the join's right side, when a predicate
// above compares the subquery's value with that side's columns only: (A ⋈
// B) ⟕ r = A ⋈ (B ⟕ r) for a one-row r that reads neither, and the
// predicate then filters B before the join instead of its result (TPC-H
// q15: the one supplier whose revenue is the largest is found before
// supplier is joined, not after all 100,000 at SF10 are). The columns
// keep their order (A, B, r). nil when that does not apply.
func scalarJoinDown(n *Join, preds []Expr) Plan {
	in, ok := n.Left.(*Join)
	if n.Type != JoinSingle || n.Cond != nil || !ok || in.Type != JoinInner {
		return nil
	}
	rcols := idSet(n.Right.Columns())
	side := idSet(in.Right.Columns())
	for id := range rcols {
		side[id] = true
	}
	for _, e := range preds {
		cs := exprColumns(e, nil)
		reads := false
		for id := range cs {
			reads = reads || rcols[id]
		}
		if reads && cs.subsetOf(side) {
			s := *n
			s.Left = in.Right
			j := *in
			j.Right = &s
			return &j
		}
	}
	return nil
}
