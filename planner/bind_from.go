package planner

import (
	"context"
	"strconv"
	"strings"

	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
)

// bindFrom plans the FROM clause; comma joins are cross joins (the
// optimiser turns WHERE equalities into join conditions). It fills s.cols.
func (b *binder) bindFrom(from []sqlparser.TableExpr, s *scope, env *cteEnv) (Plan, error) {
	var plan Plan
	for _, te := range from {
		p, cols, err := b.bindTableExpr(te, env)
		if err != nil {
			return nil, err
		}
		if p == nil { // dual
			continue
		}
		if err := checkAliases(s.cols, cols); err != nil {
			return nil, err
		}
		s.cols = append(s.cols, cols...)
		if plan == nil {
			plan = p
		} else {
			plan = &Join{Type: JoinInner, Left: plan, Right: p}
		}
	}
	if plan == nil {
		return &Values{Rows: [][]Expr{{}}}, nil
	}
	return plan, nil
}

func (b *binder) bindTableExpr(te sqlparser.TableExpr, env *cteEnv) (Plan, []scopeCol, error) {
	switch t := te.(type) {
	case *sqlparser.AliasedTableExpr:
		return b.bindAliased(t, env)
	case *sqlparser.ParenTableExpr:
		s := &scope{}
		p, err := b.bindFrom(t.Exprs, s, env)
		return p, s.cols, err
	case *sqlparser.JoinTableExpr:
		return b.bindJoin(t, env)
	}
	return nil, nil, errs.New(errs.Unsupported, "FROM item %s is not supported", sqlparser.String(te))
}

func (b *binder) bindAliased(t *sqlparser.AliasedTableExpr, env *cteEnv) (Plan, []scopeCol, error) {
	alias := t.As.String()
	var renames []string
	for _, c := range t.Columns {
		renames = append(renames, c.String())
	}
	switch x := t.Expr.(type) {
	case *sqlparser.DerivedTable:
		if x.Lateral {
			return nil, nil, errs.New(errs.Unsupported, "LATERAL derived tables are not supported")
		}
		if alias == "" {
			return nil, nil, errs.New(errs.Binding, "every derived table must have an alias")
		}
		r, err := b.bindTableStmt(x.Select, nil, env)
		if err != nil {
			return nil, nil, err
		}
		return relation(r, alias, renames)
	case *sqlparser.TableFuncExpr:
		if isSeriesFunc(x.Name.String()) {
			args, err := b.seriesArgs(x.Name.String(), x.Args)
			if err != nil {
				return nil, nil, err
			}
			t, err := newSeriesOf(x.Name.String(), args)
			if err != nil {
				return nil, nil, err
			}
			if alias == "" {
				alias = t.Name()
			}
			return scan(t, alias, renames)
		}
		args, err := tableFuncArgs(x.Name.String(), x.Args)
		if err != nil {
			return nil, nil, err
		}
		return b.bindTableFunc(x.Name.String(), args, alias, renames)
	case sqlparser.TableName:
		name := x.Name.String()
		if alias == "" {
			alias = name
		}
		if !x.Qualifier.IsEmpty() {
			return nil, nil, errs.NewNear(errs.Unsupported, x.Qualifier.String(), "database qualifier %s is not supported", x.Qualifier.String())
		}
		if cte := env.lookup(name); cte != nil {
			if cte.work != nil {
				return bindWorkScan(cte.work, alias, renames)
			}
			bindCTE := func() (*selResult, error) { return b.bindTableStmt(cte.stmt, nil, cte.defEnv) }
			if cte.isRecursive() {
				bindCTE = func() (*selResult, error) { return b.bindRecursiveCTE(cte) }
			}
			r, err := bindCTE()
			if err != nil {
				return nil, nil, err
			}
			if renames == nil {
				renames = cte.cols
			}
			return relation(r, alias, renames)
		}
		if strings.EqualFold(name, "dual") {
			return nil, nil, nil
		}
		if tab, ok := b.cat.Table(name); ok {
			return scan(tab, alias, renames)
		}
		if v, ok := b.cat.View(name); ok {
			return b.bindView(v, alias, renames)
		}
		if strings.ContainsAny(name, "/.*") {
			// Under the catalog's file-access policy (a server reads only
			// allowed paths) and the query's context (a glob's walk stops
			// with the query).
			tab, err := b.cat.OpenFile(b.ctx, name, name)
			if err != nil {
				return nil, nil, err
			}
			return scan(tab, alias, renames)
		}
		return nil, nil, errs.NewNear(errs.Binding, name, "table %q not found%s", name, didYouMean(name, b.cat.Names()))
	}
	return nil, nil, errs.New(errs.Unsupported, "FROM item %s is not supported", sqlparser.String(t))
}

// bindTableFunc binds a table function in FROM — read_csv('glob',
// delim = ';', header = true, columns = {'a': 'BIGINT'}),
// read_parquet('glob', hive_partitioning = true) — given its name and its
// arguments as constants (tableFuncArgs). The table is named alias, or
// the function's name. The catalog opens its files under its file-access
// policy and the query's context, as it does a backtick path.
func (b *binder) bindTableFunc(fn string, args []catalog.FuncArg, alias string, renames []string) (Plan, []scopeCol, error) {
	if alias == "" {
		alias = strings.ToLower(fn)
	}
	tab, ok, err := b.cat.TableFunction(b.ctx, fn, alias, args)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errs.NewNear(errs.Binding, fn, "table function %s does not exist (gq has read_csv, read_parquet, range and generate_series)", fn)
	}
	return scan(tab, alias, renames)
}

// tableFuncArgs turns a table function's arguments into constants: string,
// number and boolean literals, positional or named (name => value; the
// grammar makes name = value the same), and a struct literal {'a':
// 'BIGINT'} into a []catalog.FuncArg of its fields.
func tableFuncArgs(fn string, args []*sqlparser.TableFuncArg) ([]catalog.FuncArg, error) {
	var out []catalog.FuncArg
	for _, a := range args {
		v, err := funcArgValue(a.Value)
		if err != nil {
			return nil, errs.NewNear(errs.Binding, fn, "%s: argument %s: %v", fn, sqlparser.String(a), err)
		}
		out = append(out, catalog.FuncArg{Name: a.Name.String(), Value: v})
	}
	return out, nil
}

// funcArgValue is a constant argument's value, a struct's as its fields.
func funcArgValue(e sqlparser.Expr) (any, error) {
	st, ok := e.(*sqlparser.StructExpr)
	if !ok {
		return constArg(e)
	}
	var fields []catalog.FuncArg
	for _, f := range st.Fields {
		v, err := constArg(f.Value)
		if err != nil {
			return nil, err
		}
		fields = append(fields, catalog.FuncArg{Name: f.Key, Value: v})
	}
	return fields, nil
}

// constArg is the value of a literal argument.
func constArg(e sqlparser.Expr) (any, error) {
	switch x := e.(type) {
	case *sqlparser.Literal:
		switch x.Type {
		case sqlparser.StrVal:
			return x.Val, nil
		case sqlparser.IntVal:
			return strconv.ParseInt(x.Val, 10, 64)
		case sqlparser.FloatVal, sqlparser.DecimalVal:
			return strconv.ParseFloat(x.Val, 64)
		}
	case sqlparser.BoolVal:
		return bool(x), nil
	case *sqlparser.UnaryExpr:
		if x.Operator == sqlparser.UMinusOp {
			switch v, err := constArg(x.Expr); n := v.(type) {
			case int64:
				return -n, err
			case float64:
				return -n, err
			}
		}
	}
	return nil, errs.New(errs.Binding, "not a constant")
}

func (b *binder) bindView(v *catalog.View, alias string, renames []string) (Plan, []scopeCol, error) {
	if b.views > 16 {
		return nil, nil, errs.NewNear(errs.Binding, v.Name, "view %s is nested too deeply (does it refer to itself?)", v.Name)
	}
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		return nil, nil, errs.Wrap(errs.Internal, err, "parser")
	}
	st, err := p.Parse(v.SQL)
	if err != nil {
		return nil, nil, errs.Wrap(errs.Binding, err, "view %s", v.Name)
	}
	ts, ok := st.(sqlparser.TableStatement)
	if !ok {
		return nil, nil, errs.New(errs.Binding, "view %s is not a query", v.Name)
	}
	ts = respellAggs(ts).(sqlparser.TableStatement)
	b.views++
	r, err := b.bindTableStmt(ts, nil, nil)
	b.views--
	if err != nil {
		return nil, nil, err
	}
	if renames == nil {
		renames = v.Columns
	}
	return relation(r, alias, renames)
}

// relation exposes a bound query as a FROM item named alias.
func relation(r *selResult, alias string, renames []string) (Plan, []scopeCol, error) {
	names := r.names
	if renames != nil {
		if len(renames) != len(names) {
			return nil, nil, errs.NewNear(errs.Binding, alias, "%s has %d columns but %d names were given", alias, len(names), len(renames))
		}
		names = renames
	}
	var cols []scopeCol
	for i, c := range r.plan.Columns()[:len(names)] {
		cols = append(cols, scopeCol{name: names[i], table: alias, id: c.ID, t: c.Type, nullable: c.Nullable})
	}
	return r.plan, cols, nil
}

func scan(tab catalog.Table, alias string, renames []string) (Plan, []scopeCol, error) {
	fields := tab.Schema().Fields()
	if renames != nil && len(renames) != len(fields) {
		return nil, nil, errs.NewNear(errs.Binding, alias, "%s has %d columns but %d names were given", alias, len(fields), len(renames))
	}
	s := &Scan{Table: tab, Alias: alias}
	var cols []scopeCol
	for i, f := range fields {
		name := f.Name
		if renames != nil {
			name = renames[i]
		}
		c := Column{ID: NewColumnID(), Name: name, Table: alias, Type: f.Type, Nullable: f.Nullable}
		s.Cols, s.Ordinals = append(s.Cols, c), append(s.Ordinals, i)
		cols = append(cols, scopeCol{name: name, table: alias, id: c.ID, t: c.Type, nullable: c.Nullable})
	}
	// Columns of its files that gq cannot read are in scope only to fail
	// the query that names them with what they are; * leaves them out.
	for _, u := range catalog.Unreadable(tab) {
		cols = append(cols, scopeCol{name: u.Name, table: alias, unreadable: &u})
	}
	return s, cols, nil
}

func (b *binder) bindJoin(j *sqlparser.JoinTableExpr, env *cteEnv) (Plan, []scopeCol, error) {
	if j.Join == sqlparser.FullOuterJoinType {
		return b.bindFullJoin(j, env)
	}
	left, lcols, err := b.bindTableExpr(j.LeftExpr, env)
	if err != nil {
		return nil, nil, err
	}
	right, rcols, err := b.bindTableExpr(j.RightExpr, env)
	if err != nil {
		return nil, nil, err
	}
	if left == nil || right == nil {
		return nil, nil, errs.New(errs.Unsupported, "joins with DUAL are not supported")
	}
	if err := checkAliases(lcols, rcols); err != nil {
		return nil, nil, err
	}
	typ := JoinInner
	swap := false
	switch j.Join {
	case sqlparser.LeftJoinType, sqlparser.NaturalLeftJoinType:
		typ = JoinLeft
	case sqlparser.RightJoinType, sqlparser.NaturalRightJoinType:
		typ, swap = JoinLeft, true
	}
	var using []string
	if j.Join == sqlparser.NaturalJoinType || j.Join == sqlparser.NaturalLeftJoinType || j.Join == sqlparser.NaturalRightJoinType {
		for _, l := range lcols {
			for _, r := range rcols {
				if !l.hidden && !r.hidden && l.unreadable == nil && r.unreadable == nil && strings.EqualFold(l.name, r.name) {
					using = append(using, l.name)
				}
			}
		}
	}
	s := &scope{cols: append(append([]scopeCol{}, lcols...), rcols...)}
	var conds []Expr
	// An inner join's ON may hold subqueries: they join onto the join
	// (base), and ON becomes a filter over the result.
	var base Plan
	if typ == JoinInner {
		base = &Join{Type: JoinInner, Left: left, Right: right}
	}
	unjoined := base
	if j.Condition != nil {
		for _, u := range j.Condition.Using {
			using = append(using, u.String())
		}
		if j.Condition.On != nil {
			c := &ectx{b: b, s: s, env: env}
			if base != nil {
				c.cur = &base
			}
			e, err := c.bindBool(j.Condition.On, "ON")
			if err != nil {
				return nil, nil, err
			}
			conds = append(conds, e)
		}
	}
	for _, name := range using {
		cn := &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(name)}
		l, err := (&scope{cols: lcols}).resolve(cn)
		if err != nil {
			return nil, nil, err
		}
		r, err := (&scope{cols: rcols}).resolve(cn)
		if err != nil {
			return nil, nil, err
		}
		le, re, err := compareArgs("=", &ColRef{ID: l.id, Name: l.name, T: l.t}, &ColRef{ID: r.id, Name: r.name, T: r.t})
		if err != nil {
			return nil, nil, err
		}
		conds = append(conds, &Func{Name: "eq", Args: []Expr{le, re}, T: expr.Boolean})
		// The USING column is seen once, from the side that is kept.
		hide := rcols
		if swap {
			hide = lcols
		}
		for i := range hide {
			if hide[i].id == map[bool]ColumnID{true: l.id, false: r.id}[swap] {
				hide[i].hidden = true
			}
		}
	}
	cols := append(append([]scopeCol{}, lcols...), rcols...)
	if typ == JoinLeft {
		nullSide := rcols
		if swap {
			nullSide = lcols
		}
		for i := range nullSide {
			nullSide[i].nullable = true
		}
		cols = append(append([]scopeCol{}, lcols...), rcols...)
	}
	if base != unjoined {
		return &Filter{Input: base, Cond: and(conds)}, cols, nil
	}
	if swap {
		left, right = right, left
	}
	return &Join{Type: typ, Left: left, Right: right, Cond: and(conds)}, cols, nil
}

// checkAliases rejects a FROM clause naming two relations alike (MySQL:
// "Not unique table/alias"), which would make every column ambiguous.
func checkAliases(a, b []scopeCol) error {
	seen := map[string]bool{}
	for _, c := range a {
		seen[strings.ToLower(c.table)] = true
	}
	for _, c := range b {
		if seen[strings.ToLower(c.table)] {
			return errs.NewNear(errs.Binding, c.table, "table name %q is used twice in FROM (give one an alias)", c.table)
		}
	}
	return nil
}

// OpenTableFunc opens the table a table function names, as FROM would
// (DESCRIBE read_csv(…) lists its columns).
func OpenTableFunc(ctx context.Context, cat *catalog.Catalog, f *sqlparser.TableFuncExpr) (catalog.Table, error) {
	args, err := tableFuncArgs(f.Name.String(), f.Args)
	if err != nil {
		return nil, err
	}
	tab, ok, err := cat.TableFunction(ctx, f.Name.String(), strings.ToLower(f.Name.String()), args)
	if err == nil && !ok {
		err = errs.NewNear(errs.Binding, f.Name.String(), "table function %s does not exist (gq has read_csv, read_parquet, range and generate_series)", f.Name.String())
	}
	return tab, err
}
