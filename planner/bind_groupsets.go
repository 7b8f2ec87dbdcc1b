package planner

import (
	"strings"

	"gq/errs"
	"gq/expr"
	"gq/parser/sqlparser"
)

// GROUP BY ROLLUP (…), CUBE (…), GROUPING SETS (…) and MySQL's WITH ROLLUP
// are one aggregation over an expanded input, DuckDB's model: each input
// row meets every grouping set (a cross join with the constant set ids),
// a key absent from a row's set is NULL, and the set id is one more group
// key, so that two sets never merge. GROUPING(a, …) reads the set id.
// Where a set has no key at all (the grand total of ROLLUP and CUBE) its
// row exists even over no input: one padding row per such set joins the
// expanded input, and a marker keeps it out of every aggregate, as the
// domain join of a correlated aggregate does (bind_corr.go).

// maxGroupingSets bounds the sets one GROUP BY expands to (CUBE of n keys
// is 2^n sets; each multiplies the rows the aggregation reads).
const maxGroupingSets = 4096

// groupSets is GROUP BY's grouping sets, once their keys are bound.
type groupSets struct {
	sets [][]bool // sets[s][k]: group key k is in set s
	gid  *ColRef  // the set id, a group column of the Aggregate
}

// expandGroupBy takes GROUP BY's elements apart: the key expressions (each
// once, by text) and the grouping sets as indices into them. sets is nil
// for a plain GROUP BY (one set of all the keys).
func expandGroupBy(gb *sqlparser.GroupBy) (keys []sqlparser.Expr, sets [][]int, err error) {
	index := map[string]int{}
	keyOf := func(e sqlparser.Expr) int {
		s := sqlparser.String(e)
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(keys)
		keys = append(keys, e)
		return len(keys) - 1
	}
	// unit is one element of ROLLUP or CUBE: a tuple is several keys
	// taken together.
	unit := func(e sqlparser.Expr) []int {
		if t, ok := e.(sqlparser.ValTuple); ok {
			var u []int
			for _, x := range t {
				u = append(u, keyOf(x))
			}
			return u
		}
		return []int{keyOf(e)}
	}
	rollup := func(units [][]int) [][]int {
		var out [][]int
		for n := len(units); n >= 0; n-- {
			var s []int
			for _, u := range units[:n] {
				s = append(s, u...)
			}
			out = append(out, s)
		}
		return out
	}
	cube := func(units [][]int) ([][]int, error) {
		if len(units) > 12 {
			return nil, errs.New(errs.Unsupported, "CUBE of %d elements (at most 12)", len(units))
		}
		var out [][]int
		// Largest sets first, as DuckDB lists them.
		for m := (1 << len(units)) - 1; m >= 0; m-- {
			var s []int
			for i, u := range units {
				if m&(1<<(len(units)-1-i)) != 0 {
					s = append(s, u...)
				}
			}
			out = append(out, s)
		}
		return out, nil
	}
	var element func(e sqlparser.Expr, top bool) ([][]int, bool, error)
	element = func(e sqlparser.Expr, top bool) ([][]int, bool, error) {
		f, ok := e.(*sqlparser.FuncExpr)
		if !ok || !f.Qualifier.IsEmpty() {
			if t, ok := e.(sqlparser.ValTuple); ok && !top {
				return [][]int{unit(t)}, false, nil
			}
			return [][]int{{keyOf(e)}}, false, nil
		}
		switch name := f.Name.Lowered(); name {
		case "rollup", "cube":
			var units [][]int
			for _, a := range f.Exprs {
				units = append(units, unit(a))
			}
			if len(units) == 0 {
				return nil, true, errs.NewNear(errs.Binding, name, "%s needs at least one expression", strings.ToUpper(name))
			}
			if name == "rollup" {
				return rollup(units), true, nil
			}
			s, err := cube(units)
			return s, true, err
		case sqlparser.GroupingSetsName:
			if !top {
				return nil, true, errs.New(errs.Unsupported, "GROUPING SETS inside GROUPING SETS")
			}
			var out [][]int
			for _, a := range f.Exprs {
				s, _, err := element(a, false)
				if err != nil {
					return nil, true, err
				}
				out = append(out, s...)
			}
			return out, true, nil
		}
		return [][]int{{keyOf(e)}}, false, nil
	}
	sets = [][]int{{}}
	special := false
	for _, g := range gb.Exprs {
		s, sp, err := element(g, true)
		if err != nil {
			return nil, nil, err
		}
		special = special || sp
		// The elements of GROUP BY combine as a cross product.
		var prod [][]int
		for _, a := range sets {
			for _, b := range s {
				prod = append(prod, append(append([]int{}, a...), b...))
			}
		}
		if len(prod) > maxGroupingSets {
			return nil, nil, errs.New(errs.Unsupported, "GROUP BY expands to more than %d grouping sets", maxGroupingSets)
		}
		sets = prod
	}
	if gb.WithRollup {
		if special {
			return nil, nil, errs.New(errs.Binding, "WITH ROLLUP cannot follow ROLLUP, CUBE or GROUPING SETS")
		}
		var units [][]int
		for i := range keys {
			units = append(units, []int{i})
		}
		return keys, rollup(units), nil
	}
	if !special {
		return keys, nil, nil
	}
	return keys, sets, nil
}

// expandGroupingSets makes agg (bound over in, its last group key not yet
// the set id) aggregate every grouping set at once: it returns the input
// agg reads and sets agg's keys, the set id among them.
func expandGroupingSets(agg *Aggregate, in Plan, gs *groupSets) (Plan, error) {
	gidCol := Column{ID: NewColumnID(), Name: "grouping_set", Type: expr.Int64}
	ids := &Values{Cols: []Column{gidCol}}
	var empty []int64
	for s, set := range gs.sets {
		ids.Rows = append(ids.Rows, []Expr{&Const{Value: int64(s), T: expr.Int64}})
		none := true
		for _, k := range set {
			none = none && !k
		}
		if none {
			empty = append(empty, int64(s))
		}
	}
	var input Plan = &Join{Type: JoinInner, Left: in, Right: ids}
	gid := ref(gidCol)
	if len(empty) > 0 {
		for _, a := range agg.Aggs {
			if a.Fn == "list" {
				return nil, errs.New(errs.Unsupported, "list() with a grand-total grouping set (ROLLUP, CUBE, ()) is not supported")
			}
		}
		need := map[ColumnID]bool{}
		for _, g := range agg.GroupBy {
			colIDs(g, need)
		}
		for _, a := range agg.Aggs {
			if a.Arg != nil {
				colIDs(a.Arg, need)
			}
		}
		pr := &Project{Input: input}
		for _, col := range in.Columns() {
			if need[col.ID] {
				pr.Exprs, pr.Cols = append(pr.Exprs, ref(col)), append(pr.Cols, col)
			}
		}
		pr.Exprs, pr.Cols = append(pr.Exprs, gid), append(pr.Cols, gidCol)
		mark := Column{ID: NewColumnID(), Name: "matched", Type: expr.Boolean}
		pr.Exprs, pr.Cols = append(pr.Exprs, &Const{Value: true, T: expr.Boolean}), append(pr.Cols, mark)
		pad := &Values{Cols: freshCols(pr.Cols)}
		for _, s := range empty {
			row := make([]Expr, len(pr.Cols))
			for i, col := range pr.Cols {
				row[i] = &Const{T: col.Type}
			}
			row[len(row)-2] = &Const{Value: s, T: expr.Int64}
			// matched NULL: count(matched) skips the row, and onlyWhen
			// makes every other aggregate's argument NULL.
			pad.Rows = append(pad.Rows, row)
		}
		un := &Union{Cols: freshCols(pr.Cols), Children: []Plan{pr, pad}}
		m := map[ColumnID]*ColRef{}
		for i := range un.Cols {
			un.Cols[i].Nullable = true
			m[pr.Cols[i].ID] = ref(un.Cols[i])
		}
		for i, g := range agg.GroupBy {
			agg.GroupBy[i] = remap(g, m)
		}
		matched := ref(un.Cols[len(un.Cols)-1])
		for i, a := range agg.Aggs {
			switch {
			case a.Fn == "count_star":
				agg.Aggs[i] = AggCall{Fn: "count", Arg: matched, Type: a.Type}
			case a.Arg != nil:
				agg.Aggs[i].Arg = onlyWhen(matched, remap(a.Arg, m))
			}
		}
		gid = m[gidCol.ID]
		input = un
	}
	for k := range agg.GroupBy {
		absent := []Expr{gid}
		for s, set := range gs.sets {
			if !set[k] {
				absent = append(absent, &Const{Value: int64(s), T: expr.Int64})
			}
		}
		if len(absent) == 1 {
			continue
		}
		g := agg.GroupBy[k]
		cond := &Func{Name: "in", Args: absent, T: expr.Boolean}
		agg.GroupBy[k] = &Func{Name: "case", Args: []Expr{cond, &Const{T: g.Type()}, g}, T: g.Type()}
		agg.GroupCols[k].Nullable = true
	}
	col := Column{ID: NewColumnID(), Name: "grouping_set", Type: expr.Int64}
	agg.GroupBy, agg.GroupCols = append(agg.GroupBy, gid), append(agg.GroupCols, col)
	gs.gid = ref(col)
	return input, nil
}

// grouping binds GROUPING(a, …) (also GROUPING_ID, DuckDB's other name)
// after aggregation: bit i, counted from the last argument, is 1 where the
// row's grouping set leaves argument i out. Under a plain GROUP BY it is 0.
func (c *ectx) grouping(f *sqlparser.FuncExpr) (Expr, error) {
	name := f.Name.Lowered()
	if len(f.Exprs) == 0 {
		return nil, errs.NewNear(errs.Binding, name, "%s needs at least one argument", strings.ToUpper(name))
	}
	if len(f.Exprs) > 62 {
		return nil, errs.NewNear(errs.Unsupported, name, "%s of more than 62 arguments", strings.ToUpper(name))
	}
	pre := &ectx{b: c.b, s: c.s, env: c.env}
	keys := make([]int, len(f.Exprs))
	for i, a := range f.Exprs {
		e, err := pre.bind(a)
		if err != nil {
			return nil, err
		}
		keys[i] = -1
		for k, g := range c.post.groups {
			if g.key == e.String() && k < c.post.nkeys {
				keys[i] = k
			}
		}
		if keys[i] < 0 {
			return nil, errs.NewNear(errs.Binding, sqlparser.String(a), "the arguments of %s must be GROUP BY keys: %s is not one", strings.ToUpper(name), sqlparser.String(a))
		}
	}
	gs := c.post.sets
	if gs == nil {
		return &Const{Value: int64(0), T: expr.Int64}, nil
	}
	var args []Expr
	for s, set := range gs.sets {
		var v int64
		for i, k := range keys {
			if !set[k] {
				v |= 1 << (len(keys) - 1 - i)
			}
		}
		args = append(args, &Func{Name: "eq", Args: []Expr{gs.gid, &Const{Value: int64(s), T: expr.Int64}}, T: expr.Boolean},
			&Const{Value: v, T: expr.Int64})
	}
	args = append(args, &Const{T: expr.Int64})
	return &Func{Name: "case", Args: args, T: expr.Int64}, nil
}

// isGroupingCall reports whether e is GROUPING(…) or GROUPING_ID(…).
func isGroupingCall(e sqlparser.Expr) (*sqlparser.FuncExpr, bool) {
	f, ok := e.(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() {
		return nil, false
	}
	n := f.Name.Lowered()
	return f, n == "grouping" || n == "grouping_id"
}
