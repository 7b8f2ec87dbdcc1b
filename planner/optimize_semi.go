package planner

// Semi and anti joins above a region of inner joins (EXISTS, IN and their
// negations over a join) filter rows of the region's result. When the
// condition refers, on the left, to one input of the region only, the
// semi join can instead filter that input before the region joins it:
// the same rows survive, and a selective semi join then shrinks every
// join above it (TPC-H q18 keeps 57 of 1.5M orders before lineitem joins
// them). It pays when the input has no more rows than the region's
// result, since a semi join costs one probe per row it sees; when the
// inner joins themselves are selective (q21), the semi join stays on top,
// unless it is itself very selective (keeps at most selectiveSemi of the
// rows): then it is pushed down anyway, as every join above gains.

const selectiveSemi = 0.1

// orderSemi orders the region under semi/anti join j, pushing j into
// one of the region's inputs where that is cheaper. ok is false when
// j's left input is not an inner-join region.
func (e *estimator) orderSemi(j *Join) (Plan, bool) {
	if j.Type != JoinSemi && j.Type != JoinAnti {
		return nil, false
	}
	inner, ok := j.Left.(*Join)
	if !ok || inner.Type != JoinInner {
		return nil, false
	}
	var leaves []Plan
	var conds []Expr
	e.region(inner, &leaves, &conds)
	right := e.order(j.Right)
	want := inner.Columns()
	region := e.reorder(want, leaves, conds)
	stay := &Join{Type: j.Type, Left: region, Right: right, Cond: j.Cond, NullAware: j.NullAware}
	leftCols := exprColumns(j.Cond, nil)
	for id := range idSet(right.Columns()) {
		delete(leftCols, id)
	}
	target := -1
	for i, l := range leaves {
		if leftCols.subsetOf(idSet(l.Columns())) {
			target = i
			break
		}
	}
	if target < 0 || len(leftCols) == 0 {
		return stay, true
	}
	kept := e.semiFraction(stay, e.rows(right))
	if j.Type == JoinAnti {
		kept = 1 - kept
	}
	if e.rows(leaves[target]) > e.rows(region) && kept > selectiveSemi {
		return stay, true
	}
	pushed := append([]Plan{}, leaves...)
	pushed[target] = &Join{Type: j.Type, Left: leaves[target], Right: right, Cond: j.Cond, NullAware: j.NullAware}
	return e.reorder(want, pushed, conds), true
}

// buildLeftMargin: a semi/anti join builds on its left side only when
// that is estimated this many times smaller than the right. Estimates
// through aggregates and HAVING are rough (q18's IN list is 57 orders,
// estimated at 1.8M), and a wrong left build costs a table of the whole
// left side.
const buildLeftMargin = 4

// chooseBuildSides marks the semi, anti and left outer joins whose left
// input is estimated much smaller than the right to build their hash
// table on the left (exec's HashJoin.BuildLeft). NOT IN (NullAware) keeps the right build:
// its NULL rules need the whole right side first.
func (e *estimator) chooseBuildSides(p Plan) Plan {
	ins := p.Inputs()
	if len(ins) == 0 {
		return p
	}
	nin := make([]Plan, len(ins))
	for i, c := range ins {
		nin[i] = e.chooseBuildSides(c)
	}
	p = withInputs(p, nin)
	if j, ok := p.(*Join); ok && (j.Type == JoinSemi || j.Type == JoinAnti || j.Type == JoinLeft) && !j.NullAware {
		j.BuildLeft = buildLeftMargin*e.rows(j.Left) < e.rows(j.Right)
	}
	return p
}
