package planner

import "github.com/apache/arrow-go/v18/arrow"

// ReduceAggregateInputs filters the input of a grouped aggregate that a
// join reads on its right side by the join keys its left side can
// produce. A decorrelated scalar subquery becomes such a join — TPC-H q17
// joins 200 parts to avg(l_quantity) per l_partkey over all 6M lineitem
// rows, q20 joins 5K partsupp rows to sum(l_quantity) per (l_partkey,
// l_suppkey) — and most groups are computed only to be discarded. When
// the join equates every used group key with a left column, a group can
// match only if its key values occur in the left input, so the
// aggregate's input may be semi-joined with any part of the left plan
// that produces those columns (a superset of the values that reach the
// join): whole groups survive or vanish, and the ones that vanish could
// not match. A small part that is cheap to evaluate is chosen (see
// below), and used only when it is estimated at most half as many rows as
// the aggregate's groups.
// The part is evaluated twice; it is chosen small.
func ReduceAggregateInputs(p Plan) (Plan, error) {
	e := newEstimator(p)
	return transformUp(p, func(p Plan) (Plan, error) {
		if j, ok := p.(*Join); ok {
			if r := e.reduceRight(j); r != nil {
				c := *j
				c.Right = r
				return &c, nil
			}
		}
		return p, nil
	})
}

// reduceRight returns j's right input with its aggregate's input
// reduced, or nil when the rule does not apply.
func (e *estimator) reduceRight(j *Join) Plan {
	// Trace right columns through projections down to the aggregate.
	var projects []*Project
	r := j.Right
	for {
		pr, ok := r.(*Project)
		if !ok {
			break
		}
		projects = append(projects, pr)
		r = pr.Input
	}
	agg, ok := r.(*Aggregate)
	if !ok || len(agg.GroupBy) == 0 {
		return nil
	}
	// resolve maps a column of j.Right to the aggregate's column it
	// passes through (false: computed, not a pass-through).
	resolve := func(id ColumnID) (ColumnID, bool) {
		for _, pr := range projects {
			found := false
			for k, c := range pr.Cols {
				if c.ID != id {
					continue
				}
				ref, ok := pr.Exprs[k].(*ColRef)
				if !ok {
					return 0, false
				}
				id, found = ref.ID, true
				break
			}
			if !found {
				return 0, false
			}
		}
		return id, true
	}
	groupInput := map[ColumnID]*ColRef{} // group column → input column
	for i, g := range agg.GroupCols {
		if ref, ok := agg.GroupBy[i].(*ColRef); ok {
			groupInput[g.ID] = ref
		}
	}
	leftCols := idSet(j.Left.Columns())
	var conds []Expr
	need := colSet{}
	for _, c := range splitConjuncts(j.Cond) {
		f, ok := c.(*Func)
		if !ok || f.Name != "eq" || len(f.Args) != 2 {
			continue
		}
		a, ok1 := f.Args[0].(*ColRef)
		b, ok2 := f.Args[1].(*ColRef)
		if !ok1 || !ok2 {
			continue
		}
		if !leftCols[a.ID] {
			a, b = b, a
		}
		if !leftCols[a.ID] {
			continue
		}
		g, ok := resolve(b.ID)
		if !ok {
			continue
		}
		in, ok := groupInput[g]
		if !ok || !arrow.TypeEqual(in.T, a.T) {
			continue
		}
		conds = append(conds, &Func{Name: "eq", Args: []Expr{in, a}, T: f.T})
		need[a.ID] = true
	}
	if len(conds) == 0 {
		return nil
	}
	var cands []Plan
	keySources(j.Left, need, &cands)
	// The fewest rows filter best; among parts within twice the fewest,
	// the one that reads the least is cheapest to evaluate again (q02:
	// the filtered part scan, not the five-table region above it).
	minRows := -1.0
	for _, c := range cands {
		if r := e.rows(c); minRows < 0 || r < minRows {
			minRows = r
		}
	}
	var best Plan
	bestCost := 0.0
	for _, c := range cands {
		if e.rows(c) > 2*minRows {
			continue
		}
		if cost := scannedRows(c); best == nil || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	if best == nil || 2*e.rows(best) > e.rows(agg) {
		return nil
	}
	ra := *agg
	semi := &Join{Type: JoinSemi, Left: agg.Input, Right: best, Cond: andExprs(conds)}
	ra.Input = semi
	if pushed, ok := e.orderSemi(semi); ok {
		ra.Input = pushed // into the aggregate's join region, where cheaper
	}
	var out Plan = &ra
	for i := len(projects) - 1; i >= 0; i-- {
		c := *projects[i]
		c.Input = out
		out = &c
	}
	return out
}

// keySources appends p and the parts of p below it that produce every
// column of need with (a superset of) the values p produces.
func keySources(p Plan, need colSet, out *[]Plan) {
	if !need.subsetOf(idSet(p.Columns())) {
		return
	}
	*out = append(*out, p)
	switch n := p.(type) {
	case *Join:
		keySources(n.Left, need, out)
		if n.Type == JoinInner {
			keySources(n.Right, need, out)
		}
	case *Filter:
		keySources(n.Input, need, out)
	case *Project:
		keySources(n.Input, need, out)
	}
}

// scannedRows is the number of base table rows p reads.
func scannedRows(p Plan) float64 {
	if s, ok := p.(*Scan); ok {
		return tableRows(s.Table)
	}
	total := 0.0
	for _, c := range p.Inputs() {
		total += scannedRows(c)
	}
	return total
}
