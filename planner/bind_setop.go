package planner

import (
	"gq/expr"
	"gq/parser/sqlparser"
)

// setOpPlan plans EXCEPT or INTERSECT over un, the UNION ALL of both
// branches whose first n columns are the data and whose last two are tags:
// (1, 0) on the left branch's rows, (0, 1) on the right's; the output is
// the first keep data columns (for EXCEPT ALL and INTERSECT ALL the last
// data column numbers a row's copies, see bindUnion).
// Grouping by the n data columns puts equal rows together with
// NULL equal to NULL, which is what set operations need (unlike a join on
// '='); max of each tag says whether the group occurs in that branch:
//
//	INTERSECT: in both        EXCEPT: in the left only
//
// and the group's key is the one output row. Aggregate, Filter and Project
// already run on every device, across ranks and under spilling, so set
// operations need no operator of their own.
func setOpPlan(un *Union, n, keep int, typ sqlparser.SetOpType) (Plan, error) {
	agg := &Aggregate{Input: un}
	for _, c := range un.Cols[:n] {
		agg.GroupBy = append(agg.GroupBy, ref(c))
		agg.GroupCols = append(agg.GroupCols, Column{ID: NewColumnID(), Name: c.Name, Type: c.Type, Nullable: c.Nullable})
	}
	for _, tag := range un.Cols[n:] {
		agg.Aggs = append(agg.Aggs, AggCall{Fn: "max", Arg: ref(tag), Type: expr.Int64})
		agg.AggCols = append(agg.AggCols, Column{ID: NewColumnID(), Name: tag.Name, Type: expr.Int64})
	}
	want := int64(1) // INTERSECT: in the right branch too
	if typ == sqlparser.ExceptSetOp {
		want = 0
	}
	inLeft, err := compare("eq", ref(agg.AggCols[0]), &Const{Value: int64(1), T: expr.Int64})
	if err != nil {
		return nil, err
	}
	inRight, err := compare("eq", ref(agg.AggCols[1]), &Const{Value: want, T: expr.Int64})
	if err != nil {
		return nil, err
	}
	f := &Filter{Input: agg, Cond: &Func{Name: "and", Args: []Expr{inLeft, inRight}, T: expr.Boolean}}
	exprs := make([]Expr, keep)
	names := make([]string, keep)
	for i, c := range agg.GroupCols[:keep] {
		exprs[i], names[i] = ref(c), c.Name
	}
	return project(f, exprs, names), nil
}

// orderDirection is an ORDER BY item's direction and NULL placement: NULLS
// FIRST or NULLS LAST where written, else MySQL's (NULL below every value:
// first ascending, last descending).
func orderDirection(o *sqlparser.Order) (desc, nullsFirst bool) {
	desc = o.Direction == sqlparser.DescOrder
	switch o.Nulls {
	case sqlparser.NullsFirst:
		return desc, true
	case sqlparser.NullsLast:
		return desc, false
	}
	return desc, !desc
}
