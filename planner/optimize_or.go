package planner

// OR handling for pushdown. Q19-style predicates repeat the join key in
// every branch of an OR, and Q7-style ones constrain each table in every
// branch; without the rewrites here such a predicate joins nothing and
// filters nothing until after a cross product.

// factorOr pulls conjuncts common to every branch of an OR out of it:
// (a and b) or (a and c) → a and (b or c). It returns the conjuncts.
func factorOr(e Expr) []Expr {
	f, ok := e.(*Func)
	if !ok || f.Name != "or" || len(f.Args) < 2 {
		return []Expr{e}
	}
	branches := make([][]Expr, len(f.Args))
	for i, b := range f.Args {
		branches[i] = splitConjuncts(b)
	}
	var common []Expr
	for _, c := range branches[0] {
		key := c.String()
		inAll := true
		for _, b := range branches[1:] {
			if !containsExpr(b, key) {
				inAll = false
				break
			}
		}
		if inAll && !containsExpr(common, key) {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return []Expr{e}
	}
	rest := make([]Expr, 0, len(branches))
	for _, b := range branches {
		var left []Expr
		for _, c := range b {
			if !containsExpr(common, c.String()) {
				left = append(left, c)
			}
		}
		if len(left) == 0 {
			// One branch is just the common part: the OR adds nothing.
			return common
		}
		rest = append(rest, andExprs(left))
	}
	return append(common, &Func{Name: "or", Args: rest, T: f.T})
}

func containsExpr(es []Expr, key string) bool {
	for _, e := range es {
		if e.String() == key {
			return true
		}
	}
	return false
}

// factorAll applies factorOr to each conjunct.
func factorAll(es []Expr) []Expr {
	var out []Expr
	for _, e := range es {
		out = append(out, factorOr(e)...)
	}
	return out
}

// impliedOn derives from an OR a predicate over the columns in side only,
// implied by it: the OR of each branch's conjuncts over side. It returns
// nil when some branch says nothing about side.
func impliedOn(e Expr, side colSet) Expr {
	f, ok := e.(*Func)
	if !ok || f.Name != "or" {
		return nil
	}
	parts := make([]Expr, len(f.Args))
	for i, b := range f.Args {
		var mine []Expr
		for _, c := range splitConjuncts(b) {
			if cs := exprColumns(c, nil); len(cs) > 0 && cs.subsetOf(side) {
				mine = append(mine, c)
			}
		}
		if len(mine) == 0 {
			return nil
		}
		parts[i] = andExprs(mine)
	}
	return &Func{Name: "or", Args: parts, T: f.T}
}
