package planner

import (
	"strings"

	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// bindSelect plans one SELECT block in the classic order: FROM → Filter
// (WHERE, subqueries as joins) → Aggregate → Filter (HAVING) → Window →
// Project (select list + hidden sort columns) → DISTINCT → Sort → Limit →
// Project (trim). outer is non-nil for a subquery that may be correlated;
// scalar says it is a scalar subquery.
func (b *binder) bindSelect(sel *sqlparser.Select, outer *scope, env *cteEnv, scalar bool) (*selResult, error) {
	env, err := withCTEs(sel.With, env)
	if err != nil {
		return nil, err
	}
	if sel.Into != nil {
		return nil, errs.New(errs.Unsupported, "SELECT … INTO is not supported")
	}
	s := &scope{outer: outer}
	cur, err := b.bindFrom(sel.From, s, env)
	if err != nil {
		return nil, err
	}
	c := &ectx{b: b, s: s, env: env, cur: &cur}

	// WHERE: subquery predicates become joins; conjuncts that reference the
	// outer query are pulled out as correlation conditions.
	var corr []Expr
	if sel.Where != nil {
		var filters []Expr
		for _, conj := range splitAnd(sel.Where.Expr, nil) {
			done, err := c.subqueryPredicate(conj)
			if err != nil {
				return nil, err
			}
			if done {
				continue
			}
			e, err := c.bindBool(conj, "WHERE")
			if err != nil {
				return nil, err
			}
			if outer != nil && !within(e, planIDs(cur)) {
				corr = append(corr, e)
			} else {
				filters = append(filters, e)
			}
		}
		if len(filters) > 0 {
			cur = &Filter{Input: cur, Cond: and(filters)}
		}
	}
	whereRefs := s.outerRefs

	// Select items, with * expanded.
	var items []selItem
	for _, se := range sel.SelectExprs.Exprs {
		switch x := se.(type) {
		case *sqlparser.StarExpr:
			qual := x.TableName.Name.String()
			n := 0
			for _, sc := range s.cols {
				if sc.hidden || sc.unreadable != nil || qual != "" && !strings.EqualFold(sc.table, qual) {
					continue
				}
				items = append(items, selItem{ast: &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(sc.name), Qualifier: sqlparser.TableName{Name: sqlparser.NewIdentifierCS(sc.table)}}, name: sc.name, star: &ColRef{ID: sc.id, Name: sc.name, T: sc.t}})
				n++
			}
			if n == 0 && qual != "" {
				return nil, errs.NewNear(errs.Binding, qual, "table %q not found", qual)
			}
		case *sqlparser.AliasedExpr:
			name := x.As.String()
			if name == "" {
				if cn, ok := x.Expr.(*sqlparser.ColName); ok {
					name = cn.Name.String()
				} else {
					name = sqlparser.String(x.Expr)
				}
			}
			items = append(items, selItem{ast: x.Expr, name: name, alias: x.As.String()})
		default:
			return nil, errs.New(errs.Unsupported, "select item %s is not supported", sqlparser.String(se))
		}
	}

	windows := lateralAliases(s, items, sel.Windows)

	// Aggregation.
	var having sqlparser.Expr
	if sel.Having != nil {
		having = sel.Having.Expr
	}
	var aggASTs []sqlparser.Expr
	for _, it := range items {
		aggASTs = collectAggs(it.ast, aggASTs)
	}
	aggASTs = collectAggs(having, aggASTs)
	var qualify sqlparser.Expr // DuckDB's QUALIFY: a filter after the window functions
	if sel.Qualify != nil {
		qualify = sel.Qualify.Expr
		aggASTs = collectAggs(qualify, aggASTs)
	}
	for _, o := range sel.OrderBy {
		aggASTs = collectAggs(o.Expr, aggASTs)
	}
	if sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0 || len(aggASTs) > 0 {
		if corr, err = c.aggregate(sel, items, aggASTs, corr, scalar); err != nil {
			return nil, err
		}
		c.aliases = items
		if having != nil {
			e, err := c.bindBool(having, "HAVING")
			if err != nil {
				return nil, err
			}
			cur = &Filter{Input: cur, Cond: e}
		}
		c.aliases = nil
	} else if having != nil {
		// MySQL allows HAVING without aggregation: a filter that may use aliases.
		c.aliases = items
		e, err := c.bindBool(having, "HAVING")
		if err != nil {
			return nil, err
		}
		cur = &Filter{Input: cur, Cond: e}
		c.aliases = nil
	}

	// Window functions, those QUALIFY calls among them.
	winItems := items
	if qualify != nil {
		winItems = append(append([]selItem{}, items...), selItem{ast: qualify})
	}
	if err := c.windows(winItems, sel.OrderBy, windows); err != nil {
		return nil, err
	}
	if qualify != nil {
		// As HAVING, QUALIFY may name select items by their aliases.
		c.aliases = items
		e, err := c.bindBool(qualify, "QUALIFY")
		c.aliases = nil
		if err != nil {
			return nil, err
		}
		cur = &Filter{Input: cur, Cond: e}
	}

	// Select list, then correlation columns, then hidden sort columns.
	var exprs []Expr
	var names []string
	for _, it := range items {
		var e Expr = it.star
		if it.star == nil || c.post != nil {
			var err error
			if e, err = c.bind(it.ast); err != nil {
				return nil, err
			}
		}
		exprs, names = append(exprs, e), append(names, it.name)
	}
	nVisible := len(exprs)
	corrIDs := map[ColumnID]int{}
	for _, ce := range corr {
		set := map[ColumnID]bool{}
		colIDs(ce, set)
		for _, col := range cur.Columns() {
			if set[col.ID] {
				if _, ok := corrIDs[col.ID]; !ok {
					corrIDs[col.ID] = len(exprs)
					exprs, names = append(exprs, ref(col)), append(names, col.Name)
				}
			}
		}
	}
	nKeep := len(exprs)
	var keys []SortKey
	var keyIdx []int
	for _, o := range sel.OrderBy {
		i, err := c.orderItem(o.Expr, items, &exprs, &names)
		if err != nil {
			return nil, err
		}
		desc, nullsFirst := orderDirection(o)
		keys, keyIdx = append(keys, SortKey{Desc: desc, NullsFirst: nullsFirst}), append(keyIdx, i)
	}
	if s.outerRefs != whereRefs {
		return nil, errs.New(errs.Unsupported, "correlated column references outside WHERE are not supported")
	}
	if len(exprs) > nKeep && sel.Distinct {
		return nil, errs.New(errs.Binding, "ORDER BY expression of a SELECT DISTINCT must be in the select list")
	}
	proj := project(cur, exprs, names)
	var out Plan = proj
	m := map[ColumnID]*ColRef{}
	for id, i := range corrIDs {
		m[id] = ref(proj.Cols[i])
	}
	for i := range corr {
		corr[i] = remap(corr[i], m)
	}
	outCols := proj.Cols
	if sel.Distinct {
		dm := map[ColumnID]*ColRef{}
		out = distinct(out, dm)
		for i := range corr {
			corr[i] = remap(corr[i], dm)
		}
		outCols = out.Columns()
	}
	if len(keys) > 0 {
		for i := range keys {
			keys[i].Expr = ref(outCols[keyIdx[i]])
		}
		out = &Sort{Input: out, Keys: keys}
	}
	if sel.Limit != nil && len(corr) > 0 {
		return nil, errs.New(errs.Unsupported, "LIMIT in a correlated subquery is not supported")
	}
	if out, err = applyLimit(out, sel.Limit); err != nil {
		return nil, err
	}
	out = trim(out, nKeep)
	r := &selResult{plan: out, names: names[:nVisible], corr: corr, domains: c.domains}
	if nVisible == 1 && len(c.domains) == 0 && (sel.GroupBy == nil || len(sel.GroupBy.Exprs) == 0) {
		// (A domain's left join gives every outer row its group, so a
		// count is 0 there already, and a missing group means HAVING
		// removed it: NULL.)
		r.count = countShape(items[0].ast)
	}
	return r, nil
}

type selItem struct {
	ast   sqlparser.Expr
	name  string // output name
	alias string // explicit alias, "" when none
	// star is the column a * item stands for: bound by position, so that
	// a relation with two columns of one name (a DuckDB view may have
	// them) still expands, where the name alone would be ambiguous.
	star *ColRef
}

// orderItem resolves one ORDER BY expression to a projected column index,
// appending a hidden column when it is not in the select list. MySQL looks
// in the select list first (ordinal, alias or same expression).
func (c *ectx) orderItem(o sqlparser.Expr, items []selItem, exprs *[]Expr, names *[]string) (int, error) {
	if lit, ok := o.(*sqlparser.Literal); ok && lit.Type == sqlparser.IntVal {
		n, err := limitValue(lit)
		if err != nil || n < 1 || int(n) > len(items) {
			return 0, errs.NewNear(errs.Binding, lit.Val, "ORDER BY position %s is not in the select list", lit.Val)
		}
		return int(n) - 1, nil
	}
	if cn, ok := o.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
		for i, it := range items {
			if strings.EqualFold(it.name, cn.Name.String()) {
				return i, nil
			}
		}
	}
	text := sqlparser.String(o)
	for i, it := range items {
		if sqlparser.String(it.ast) == text {
			return i, nil
		}
	}
	e, err := c.bind(o)
	if err != nil {
		return 0, err
	}
	*exprs, *names = append(*exprs, e), append(*names, text)
	return len(*exprs) - 1, nil
}

// splitAnd flattens AND into conjuncts.
func splitAnd(e sqlparser.Expr, out []sqlparser.Expr) []sqlparser.Expr {
	if a, ok := e.(*sqlparser.AndExpr); ok {
		return splitAnd(a.Right, splitAnd(a.Left, out))
	}
	return append(out, e)
}

// countShape: 1 when e is a bare count aggregate, 2 when it contains one.
func countShape(e sqlparser.Expr) int {
	switch x := e.(type) {
	case *sqlparser.CountStar:
		return 1
	case *sqlparser.Count:
		if x.OverClause == nil {
			return 1
		}
	}
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.CountStar, *sqlparser.Count:
			found = true
		}
		return true, nil
	}, e)
	if found {
		return 2
	}
	return 0
}

// bindUnion plans UNION [ALL], EXCEPT and INTERSECT: each branch cast to
// the unified column types.
func (b *binder) bindUnion(u *sqlparser.Union, outer *scope, env *cteEnv) (*selResult, error) {
	op := strings.ToUpper(u.Type.ToString())
	env, err := withCTEs(u.With, env)
	if err != nil {
		return nil, err
	}
	var branches []*selResult
	for _, side := range []sqlparser.TableStatement{u.Left, u.Right} {
		r, err := b.bindTableStmt(side, outer, env)
		if err != nil {
			return nil, err
		}
		if len(r.corr) > 0 {
			return nil, errs.New(errs.Unsupported, "correlated %s subqueries are not supported", op)
		}
		branches = append(branches, r)
	}
	n := len(branches[0].names)
	if len(branches[1].names) != n {
		return nil, errs.New(errs.Binding, "the %s branches have different numbers of columns (%d and %d)", op, n, len(branches[1].names))
	}
	un := &Union{}
	for i := range n {
		var es []Expr
		for _, br := range branches {
			es = append(es, ref(br.plan.Columns()[i]))
		}
		t, _, err := unify(op+" column "+branches[0].names[i], es)
		if err != nil {
			return nil, err
		}
		if isNull(t) {
			t = expr.String
		}
		un.Cols = append(un.Cols, Column{ID: NewColumnID(), Name: branches[0].names[i], Type: t, Nullable: true})
	}
	setOp := u.Type != sqlparser.UnionSetOp
	multiset := setOp && !u.Distinct
	names := branches[0].names
	nData := n
	if setOp {
		names = append([]string{}, names...)
		if multiset {
			// EXCEPT ALL, INTERSECT ALL: the k-th copy of a row in a
			// branch becomes the distinct row (row, k). Then (row, k) is in
			// both branches for k <= min(l, r) and in the left only for
			// r < k <= l: the set operation on (row, k) leaves min(l, r)
			// or l-r copies, the multiset answer.
			names = append(names, "__copy")
			nData++
		}
		// Two tag columns say which branch a row came from (see setOpPlan).
		names = append(names, "__in_left", "__in_right")
		for _, name := range names[n:] {
			un.Cols = append(un.Cols, Column{ID: NewColumnID(), Name: name, Type: expr.Int64})
		}
	}
	for bi, br := range branches {
		cols := br.plan.Columns()
		exprs := make([]Expr, n)
		same := true
		for i := range n {
			if exprs[i], err = castTo(ref(cols[i]), un.Cols[i].Type); err != nil {
				return nil, err
			}
			if _, ok := exprs[i].(*ColRef); !ok {
				same = false
			}
		}
		in := br.plan
		if multiset {
			p := project(in, exprs, names[:n])
			w := &Window{Input: p, Funcs: []WindowCall{{Fn: "row_number", Type: expr.Int64}},
				Cols: []Column{{ID: NewColumnID(), Name: "__copy", Type: expr.Int64}}}
			exprs = nil // p holds the cast expressions
			for _, c := range p.Cols {
				w.PartitionBy = append(w.PartitionBy, ref(c))
				exprs = append(exprs, ref(c))
			}
			in, exprs = w, append(exprs, ref(w.Cols[0]))
		}
		if setOp {
			exprs = append(exprs, &Const{Value: int64(1 - bi), T: expr.Int64}, &Const{Value: int64(bi), T: expr.Int64})
			same = false
		}
		if same {
			un.Children = append(un.Children, in)
		} else {
			un.Children = append(un.Children, project(in, exprs, names))
		}
	}
	var out Plan = un
	cols := un.Cols
	switch {
	case setOp:
		if out, err = setOpPlan(un, nData, n, u.Type); err != nil {
			return nil, err
		}
		cols = out.Columns()
	case u.Distinct:
		out = distinct(out, map[ColumnID]*ColRef{})
		cols = out.Columns()
	}
	if len(u.OrderBy) > 0 {
		srt := &Sort{Input: out}
		for _, o := range u.OrderBy {
			i := -1
			switch x := o.Expr.(type) {
			case *sqlparser.Literal:
				if v, err := limitValue(x); err == nil && v >= 1 && int(v) <= n {
					i = int(v) - 1
				}
			case *sqlparser.ColName:
				for j, c := range cols {
					if strings.EqualFold(c.Name, x.Name.String()) {
						i = j
						break
					}
				}
			}
			if i < 0 {
				return nil, errs.NewNear(errs.Binding, sqlparser.String(o.Expr), "ORDER BY %s of a %s must name an output column", sqlparser.String(o.Expr), op)
			}
			desc, nullsFirst := orderDirection(o)
			srt.Keys = append(srt.Keys, SortKey{Expr: ref(cols[i]), Desc: desc, NullsFirst: nullsFirst})
		}
		out = srt
	}
	if out, err = applyLimit(out, u.Limit); err != nil {
		return nil, err
	}
	return &selResult{plan: out, names: branches[0].names}, nil
}

// lateralAliases lets a select item, and the WINDOW clause, name an
// earlier select item by its alias (DuckDB's lateral column aliases:
// i % 3 AS k, k + 1 AS next): an unqualified name that is no column of
// this query or an outer one becomes the aliased expression. A column of
// that name always wins, so a query MySQL accepts (which has no such
// aliases) keeps its meaning. Names inside subqueries are left alone.
// It rewrites items' expressions and returns the WINDOW clause rewritten.
func lateralAliases(s *scope, items []selItem, wins sqlparser.NamedWindows) sqlparser.NamedWindows {
	isColumn := func(name string) bool {
		for sc := s; sc != nil; sc = sc.outer {
			for _, c := range sc.cols {
				if strings.EqualFold(c.name, name) {
					return true
				}
			}
		}
		return false
	}
	defined := map[string]sqlparser.Expr{} // lower-case alias → its expression, rewritten
	subst := func(n sqlparser.SQLNode) (out sqlparser.SQLNode) {
		if len(defined) == 0 || n == nil {
			return n
		}
		defer func() {
			// A name in a place that takes a column only (not an
			// expression) keeps the name: binding reports it.
			if recover() != nil {
				out = n
			}
		}()
		return sqlparser.SafeRewrite(sqlparser.CloneSQLNode(n), func(node, _ sqlparser.SQLNode) bool {
			_, sub := node.(*sqlparser.Subquery)
			return !sub
		}, func(cur *sqlparser.Cursor) bool {
			cn, ok := cur.Node().(*sqlparser.ColName)
			if !ok || !cn.Qualifier.IsEmpty() {
				return true
			}
			if e, ok := defined[cn.Name.Lowered()]; ok && !isColumn(cn.Name.String()) {
				cur.Replace(sqlparser.CloneExpr(e))
			}
			return true
		})
	}
	for i := range items {
		if e, ok := subst(items[i].ast).(sqlparser.Expr); ok {
			items[i].ast = e
		}
		if a := strings.ToLower(items[i].alias); a != "" {
			if _, dup := defined[a]; !dup {
				defined[a] = items[i].ast
			}
		}
	}
	if len(wins) == 0 || len(defined) == 0 {
		return wins
	}
	if w, ok := subst(wins).(sqlparser.NamedWindows); ok {
		return w
	}
	return wins
}
