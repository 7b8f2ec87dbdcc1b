package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// isAggAST reports whether n is a plain (non-window) aggregate call.
func isAggAST(n sqlparser.SQLNode) bool {
	switch x := n.(type) {
	case *sqlparser.CountStar:
		return x.OverClause == nil
	case *sqlparser.Count:
		return x.OverClause == nil
	case *sqlparser.Sum:
		return x.OverClause == nil
	case *sqlparser.Avg:
		return x.OverClause == nil
	case *sqlparser.Min:
		return x.OverClause == nil
	case *sqlparser.Max:
		return x.OverClause == nil
	}
	if p, ok := moreAggParts(n); ok {
		return p.over == nil
	}
	return false
}

// isWindowAST reports whether n is a window function call.
func isWindowAST(n sqlparser.SQLNode) bool {
	switch x := n.(type) {
	case *sqlparser.ArgumentLessWindowExpr, *sqlparser.LagLeadExpr, *sqlparser.NtileExpr,
		*sqlparser.NTHValueExpr, *sqlparser.FirstOrLastValueExpr:
		return true
	case *sqlparser.CountStar:
		return x.OverClause != nil
	case *sqlparser.Count:
		return x.OverClause != nil
	case *sqlparser.Sum:
		return x.OverClause != nil
	case *sqlparser.Avg:
		return x.OverClause != nil
	case *sqlparser.Min:
		return x.OverClause != nil
	case *sqlparser.Max:
		return x.OverClause != nil
	}
	if p, ok := moreAggParts(n); ok {
		return p.over != nil
	}
	return false
}

// collectAggs appends the aggregate calls in e (not inside subqueries).
func collectAggs(e sqlparser.Expr, out []sqlparser.Expr) []sqlparser.Expr {
	if e == nil {
		return out
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Subquery); ok {
			return false, nil
		}
		if isAggAST(n) {
			out = append(out, n.(sqlparser.Expr))
			return false, nil
		}
		return true, nil
	}, e)
	return out
}

// aggParts returns an aggregate AST's function name, argument and DISTINCT.
func aggParts(e sqlparser.Expr) (fn string, arg sqlparser.Expr, dist bool, err error) {
	switch x := e.(type) {
	case *sqlparser.CountStar:
		return "count_star", nil, false, nil
	case *sqlparser.Count:
		if len(x.Args) > 1 && x.Distinct {
			// MySQL's COUNT(DISTINCT a, b, …): distinctTuple binds it.
			return "count", sqlparser.ValTuple(x.Args), true, nil
		}
		if len(x.Args) != 1 {
			return "", nil, false, errs.New(errs.Unsupported, "count with %d arguments is not supported (COUNT(DISTINCT a, b, …) is)", len(x.Args))
		}
		return "count", x.Args[0], x.Distinct, nil
	case *sqlparser.Sum:
		return "sum", x.Arg, x.Distinct, nil
	case *sqlparser.Avg:
		return "avg", x.Arg, x.Distinct, nil
	case *sqlparser.Min:
		return "min", x.Arg, x.Distinct, nil
	case *sqlparser.Max:
		return "max", x.Arg, x.Distinct, nil
	}
	return "", nil, false, errs.New(errs.Internal, "not an aggregate: %s", sqlparser.String(e))
}

// aggregate adds the Aggregate node to *c.cur and switches c to
// post-aggregation binding. corr (correlation conditions of a subquery)
// must be outer = inner equalities; the inner sides become extra group
// keys, and the returned conditions refer to those group columns.
func (c *ectx) aggregate(sel *sqlparser.Select, items []selItem, aggASTs []sqlparser.Expr, corr []Expr, scalar bool) ([]Expr, error) {
	in := *c.cur
	inIDs := planIDs(in)
	agg := &Aggregate{Input: in}
	post := &postAgg{aggs: map[string]*ColRef{}}
	addGroup := func(e Expr, name string) *ColRef {
		key := e.String()
		for _, g := range post.groups {
			if g.key == key {
				return g.ref
			}
		}
		col := Column{ID: NewColumnID(), Name: name, Type: e.Type(), Nullable: true}
		agg.GroupBy, agg.GroupCols = append(agg.GroupBy, e), append(agg.GroupCols, col)
		r := ref(col)
		post.groups = append(post.groups, groupKey{key: key, ref: r})
		return r
	}
	// Subqueries in group keys and aggregate arguments join onto the
	// aggregate's input (agg.Input is set once they are bound).
	pre := &ectx{b: c.b, s: c.s, env: c.env, cur: &in}
	var gs *groupSets
	if sel.GroupBy != nil {
		keyASTs, sets, err := expandGroupBy(sel.GroupBy)
		if err != nil {
			return nil, err
		}
		keyIndex := make([]int, len(keyASTs)) // key AST → group column
		for i, g := range keyASTs {
			g = groupItem(g, items, c.s)
			if g == nil {
				return nil, errs.New(errs.Binding, "GROUP BY position is not in the select list")
			}
			if len(collectAggs(g, nil)) > 0 {
				return nil, errs.NewNear(errs.Binding, sqlparser.String(g), "aggregate in GROUP BY: %s", sqlparser.String(g))
			}
			e, err := pre.bind(g)
			if err != nil {
				return nil, err
			}
			name := sqlparser.String(g)
			if cn, ok := g.(*sqlparser.ColName); ok {
				name = cn.Name.String()
			}
			addGroup(e, name)
			for k, pg := range post.groups {
				if pg.key == e.String() {
					keyIndex[i] = k
				}
			}
		}
		if sets != nil {
			if len(corr) > 0 {
				return nil, errs.New(errs.Unsupported, "ROLLUP, CUBE or GROUPING SETS in a correlated subquery")
			}
			gs = &groupSets{}
			for _, set := range sets {
				in := make([]bool, len(post.groups))
				for _, k := range set {
					in[keyIndex[k]] = true
				}
				gs.sets = append(gs.sets, in)
			}
		}
	}
	post.nkeys = len(post.groups)
	// Equality correlations group by their inner side, where an outer
	// row without a group means an empty subquery. Without GROUP BY that
	// is right only for a scalar subquery whose value over no rows is
	// NULL (or a bare count, made 0): elsewhere the aggregate's one row
	// over no rows matters (EXISTS is true, NOT IN sees its NULL, HAVING
	// may remove it), so those, and correlations other than equality,
	// evaluate the subquery per outer value (bind_corr.go).
	grouped := sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0
	useDomain := len(corr) > 0 && !grouped &&
		!(scalar && sel.Having == nil && len(items) == 1 && (countShape(items[0].ast) == 1 || nullOnEmpty(items[0].ast)))
	for _, ce := range corr {
		useDomain = useDomain || !isOuterEquality(ce, inIDs)
	}
	var dom *domain
	var domCond []Expr
	if useDomain {
		var back []Expr
		var err error
		if dom, domCond, back, err = c.newDomain(corr, inIDs); err != nil {
			return nil, err
		}
		m := map[ColumnID]*ColRef{}
		for _, col := range dom.agg.GroupCols {
			m[col.ID] = addGroup(ref(col), "corr")
		}
		corr = corr[:0]
		for _, e := range back {
			corr = append(corr, remap(e, m))
		}
		c.domains = append(c.domains, dom)
	}
	for i, ce := range corr {
		if useDomain {
			break
		}
		f := ce.(*Func)
		l, r := f.Args[0], f.Args[1]
		if within(l, inIDs) {
			l, r = r, l
		}
		g := addGroup(r, "corr")
		corr[i] = &Func{Name: "eq", Args: []Expr{l, g}, T: expr.Boolean}
	}
	for _, a := range aggASTs {
		key := sqlparser.String(a)
		if _, ok := post.aggs[key]; ok {
			continue
		}
		if p, ok := moreAggParts(a); ok {
			if len(p.order) > 0 && gs != nil {
				// An ordered aggregate is a window over the group keys
				// below the aggregation; the grouping sets' keys exist
				// only above it.
				return nil, errs.NewNear(errs.Unsupported, key, "ORDER BY inside %s(…) with ROLLUP, CUBE or GROUPING SETS is not supported", p.name)
			}
			if len(p.order) > 0 && dom != nil {
				return nil, errs.NewNear(errs.Unsupported, key, "ORDER BY inside %s(…) in a correlated subquery is not supported", p.name)
			}
			call, err := c.moreAggCall(pre, p, key, agg.GroupBy, &in)
			if err != nil {
				return nil, err
			}
			col := Column{ID: NewColumnID(), Name: key, Type: call.Type, Nullable: true}
			agg.Aggs, agg.AggCols = append(agg.Aggs, call), append(agg.AggCols, col)
			post.aggs[key] = ref(col)
			continue
		}
		fn, argAST, dist, err := aggParts(a)
		if err != nil {
			return nil, err
		}
		call := AggCall{Fn: fn, Distinct: dist}
		var at arrow.DataType = expr.Null
		if argAST != nil {
			if len(collectAggs(argAST, nil)) > 0 {
				return nil, errs.NewNear(errs.Binding, key, "aggregate calls cannot be nested: %s", key)
			}
			var arg Expr
			if t, ok := argAST.(sqlparser.ValTuple); ok {
				arg, err = distinctTuple(pre, t)
			} else {
				arg, err = pre.bind(argAST)
			}
			if err != nil {
				return nil, err
			}
			if isNull(arg.Type()) && (fn == "min" || fn == "max") {
				arg = &Const{T: expr.Int64}
			}
			call.Arg, at = arg, arg.Type()
		}
		if call.Type, err = aggType(fn, at); err != nil {
			return nil, errs.NewNear(errs.Binding, key, "%s: %s", key, strings.TrimPrefix(err.Error(), "binding error: "))
		}
		if call.Arg != nil && isNull(call.Arg.Type()) {
			call.Arg = &Const{T: call.Type}
		}
		col := Column{ID: NewColumnID(), Name: key, Type: call.Type, Nullable: fn != "count" && fn != "count_star"}
		agg.Aggs, agg.AggCols = append(agg.Aggs, call), append(agg.AggCols, col)
		post.aggs[key] = ref(col)
	}
	agg.Input = in
	if gs != nil {
		var err error
		if agg.Input, err = expandGroupingSets(agg, in, gs); err != nil {
			return nil, err
		}
		post.sets = gs
	}
	if dom != nil {
		// Without GROUP BY every domain value has a group, empty when
		// nothing matches (a left join); the padded row must not count,
		// so the aggregates read only matched rows.
		typ := JoinInner
		if len(agg.GroupBy) == len(dom.agg.GroupCols) {
			typ = JoinLeft
			marked, matched := withMarker(in)
			in = marked
			for i, a := range agg.Aggs {
				if a.Fn == "count_star" {
					agg.Aggs[i] = AggCall{Fn: "count", Arg: matched, Type: a.Type}
				} else if a.Arg != nil {
					agg.Aggs[i].Arg = onlyWhen(matched, a.Arg)
				}
			}
		}
		agg.Input = &Join{Type: typ, Left: dom.agg, Right: in, Cond: and(domCond)}
	}
	*c.cur = agg
	c.post = post
	return corr, nil
}

// onlyWhen is arg where cond holds, else NULL; an aggregate's pair of
// arguments (struct_pack) is NULL in each of its fields.
func onlyWhen(cond, arg Expr) Expr {
	if f, ok := arg.(*Func); ok && f.Name == "struct_pack" {
		args := make([]Expr, len(f.Args))
		for i, a := range f.Args {
			args[i] = onlyWhen(cond, a)
		}
		return &Func{Name: f.Name, Args: args, T: f.T}
	}
	return &Func{Name: "case", Args: []Expr{cond, arg, &Const{T: arg.Type()}}, T: arg.Type()}
}

func noneWithin(e Expr, ids map[ColumnID]bool) bool {
	set := map[ColumnID]bool{}
	colIDs(e, set)
	for id := range set {
		if ids[id] {
			return false
		}
	}
	return true
}

// groupItem resolves a GROUP BY item: an ordinal, or a select alias that
// is not a FROM column (MySQL searches FROM first for GROUP BY).
func groupItem(g sqlparser.Expr, items []selItem, s *scope) sqlparser.Expr {
	if lit, ok := g.(*sqlparser.Literal); ok && lit.Type == sqlparser.IntVal {
		n, err := limitValue(lit)
		if err != nil || n < 1 || int(n) > len(items) {
			return nil
		}
		return items[n-1].ast
	}
	if cn, ok := g.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
		probe := &scope{cols: s.cols}
		if _, err := probe.resolve(cn); err != nil {
			for _, it := range items {
				if it.alias != "" && strings.EqualFold(it.alias, cn.Name.String()) {
					return it.ast
				}
			}
		}
	}
	return g
}

type groupKey struct {
	key string // the bound expression's String()
	ref *ColRef
}

// postAgg is what expressions see after aggregation.
type postAgg struct {
	groups []groupKey
	aggs   map[string]*ColRef // by aggregate AST text
	nkeys  int                // groups[:nkeys] are GROUP BY's keys (the rest correlations)
	sets   *groupSets         // ROLLUP, CUBE, GROUPING SETS; nil for a plain GROUP BY
}

// postLookup maps e to an aggregate or group column when it is one.
func (c *ectx) postLookup(e sqlparser.Expr) (Expr, bool, error) {
	if f, ok := isGroupingCall(e); ok {
		r, err := c.grouping(f)
		return r, true, err
	}
	if isAggAST(e) {
		if r, ok := c.post.aggs[sqlparser.String(e)]; ok {
			return r, true, nil
		}
		return nil, true, errs.New(errs.Internal, "aggregate %s was not collected", sqlparser.String(e))
	}
	switch e.(type) {
	case *sqlparser.Literal, *sqlparser.NullVal, sqlparser.BoolVal, *sqlparser.Subquery, *sqlparser.ExistsExpr:
		return nil, false, nil
	}
	if isWindowAST(e) || hasSubquery(e) || len(collectAggs(e, nil)) > 0 {
		return nil, false, nil
	}
	pre := &ectx{b: c.b, s: c.s, env: c.env}
	be, err := pre.bind(e)
	cn, isCol := e.(*sqlparser.ColName)
	if err != nil {
		if isCol && cn.Qualifier.IsEmpty() {
			for _, it := range c.aliases {
				if it.alias != "" && strings.EqualFold(it.alias, cn.Name.String()) {
					r, err := c.bind(it.ast)
					return r, true, err
				}
			}
		}
		if isCol {
			return nil, true, err
		}
		return nil, false, nil
	}
	key := be.String()
	for _, g := range c.post.groups {
		if g.key == key {
			return g.ref, true, nil
		}
	}
	if isCol {
		return nil, true, errs.NewNear(errs.Binding, cn.Name.String(), "column %q must appear in GROUP BY or be used in an aggregate function", sqlparser.String(cn))
	}
	return nil, false, nil
}

func hasSubquery(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Subquery); ok {
			found = true
			return false, nil
		}
		return true, nil
	}, e)
	return found
}

// nullOnEmpty reports whether e, a select item of an aggregate without
// GROUP BY, is NULL over no input rows: an aggregate other than count, or
// arithmetic with such an operand.
func nullOnEmpty(e sqlparser.Expr) bool {
	if p, ok := moreAggParts(e); ok {
		return isAggAST(e) && p.fn != "regr_count"
	}
	switch x := e.(type) {
	case *sqlparser.Sum, *sqlparser.Avg, *sqlparser.Min, *sqlparser.Max:
		return isAggAST(e)
	case *sqlparser.BinaryExpr:
		switch x.Operator {
		case sqlparser.PlusOp, sqlparser.MinusOp, sqlparser.MultOp, sqlparser.DivOp, sqlparser.IntDivOp, sqlparser.ModOp:
			return nullOnEmpty(x.Left) || nullOnEmpty(x.Right)
		}
	case *sqlparser.UnaryExpr:
		return x.Operator == sqlparser.UMinusOp && nullOnEmpty(x.Expr)
	}
	return false
}

// distinctTuple binds the arguments of COUNT(DISTINCT a, b, …) as one
// value that is NULL where any argument is (MySQL counts no such row) and
// equal for two rows just where each argument is: the arguments as text,
// each after its length and ':', so that no two tuples meet. A double
// adds 0 first, making -0 the 0 it equals.
func distinctTuple(pre *ectx, args sqlparser.ValTuple) (Expr, error) {
	var parts []Expr
	for _, a := range args {
		e, err := pre.bind(a)
		if err != nil {
			return nil, err
		}
		if isFloat(e.Type()) {
			e = &Func{Name: "add", Args: []Expr{e, &Const{Value: 0.0, T: expr.Float64}}, T: expr.Float64}
		}
		s, err := castTo(e, expr.String)
		if err != nil {
			return nil, err
		}
		n, err := castTo(&Func{Name: "length", Args: []Expr{s}, T: expr.Int64}, expr.String)
		if err != nil {
			return nil, err
		}
		parts = append(parts, n, &Const{Value: ":", T: expr.String}, s)
	}
	return &Func{Name: "concat", Args: parts, T: expr.String}, nil
}
