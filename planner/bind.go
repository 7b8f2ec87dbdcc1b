package planner

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/expr"
)

// Bind plans a row-returning statement (*sqlparser.Select, *sqlparser.Union,
// with WITH clauses) against cat. The returned plan holds no subqueries.
// Output column names (Columns()[i].Name) are the result header: the alias,
// else the column name, else the expression text (e.g. "count(*)").
func Bind(cat *catalog.Catalog, stmt sqlparser.Statement) (Plan, error) {
	return BindContext(context.Background(), cat, stmt)
}

// BindContext is Bind under ctx: binding stops with ctx's error when it is
// cancelled (a query's timeout holds while it is planned too), and what
// binding reads (files named in FROM) is read under it.
func BindContext(ctx context.Context, cat *catalog.Catalog, stmt sqlparser.Statement) (Plan, error) {
	ts, ok := stmt.(sqlparser.TableStatement)
	if !ok {
		return nil, errs.New(errs.Unsupported, "statement %T does not return rows", stmt)
	}
	ts = respellAggs(ts).(sqlparser.TableStatement)
	b := &binder{ctx: ctx, cat: cat}
	r, err := b.bindTableStmt(ts, nil, nil)
	if err != nil {
		return nil, err
	}
	keyNestedDistinct(r.plan)
	if err := checkNested(r.plan); err != nil {
		return nil, err
	}
	return r.plan, nil
}

type binder struct {
	ctx   context.Context
	cat   *catalog.Catalog
	views int // nesting depth of views being bound (guards against cycles)
	// scalarNext tells the next SELECT bound that it is a scalar
	// subquery (its value is used, not its rows' existence).
	scalarNext bool
	// now is the statement's start in µs (0 until now() first binds),
	// so that every now() of a statement is the same instant.
	now int64
}

// scopeCol is a column visible to name resolution.
type scopeCol struct {
	name, table string
	id          ColumnID
	t           arrow.DataType
	nullable    bool
	hidden      bool // a JOIN … USING duplicate: invisible unqualified and to *
	// unreadable is a file column gq cannot read (catalog.Unreadable): not
	// scanned, left out of *, and an error where the query names it.
	unreadable *catalog.UnreadableColumn
}

// scope holds the columns of one query level's FROM clause. outer is the
// enclosing query's scope, for correlated subqueries (nil for derived
// tables, which cannot see the outer query).
type scope struct {
	cols      []scopeCol
	outer     *scope
	outerRefs int // how many names resolved into outer; corrected refs are only allowed in WHERE
}

// cteEnv is the list of CTEs visible at a point (innermost first).
type cteEnv struct {
	name   string
	cols   []string
	stmt   sqlparser.TableStatement
	defEnv *cteEnv // CTEs visible to this one's body: the earlier ones
	parent *cteEnv
	// recursive: defined in a WITH RECURSIVE clause (bind_recursive.go).
	recursive bool
	// work is set on the entry a recursive term sees under its CTE's
	// name: a reference reads the working table.
	work *workRef
}

func (e *cteEnv) lookup(name string) *cteEnv {
	for ; e != nil; e = e.parent {
		if strings.EqualFold(e.name, name) {
			return e
		}
	}
	return nil
}

func withCTEs(w *sqlparser.With, env *cteEnv) (*cteEnv, error) {
	if w == nil {
		return env, nil
	}
	for _, c := range w.CTEs {
		var cols []string
		for _, col := range c.Columns {
			cols = append(cols, col.String())
		}
		env = &cteEnv{name: c.ID.String(), cols: cols, stmt: c.Subquery, defEnv: env, parent: env, recursive: w.Recursive}
	}
	return env, nil
}

// resolve finds a column by (optional) qualifier and name in s, then in the
// outer scopes. Correlation is supported one level deep.
func (s *scope) resolve(n *sqlparser.ColName) (scopeCol, error) {
	name, qual := n.Name.String(), n.Qualifier.Name.String()
	for d, sc := 0, s; sc != nil; d, sc = d+1, sc.outer {
		var found []scopeCol
		for _, c := range sc.cols {
			if !strings.EqualFold(c.name, name) {
				continue
			}
			if qual != "" && !strings.EqualFold(c.table, qual) || qual == "" && c.hidden {
				continue
			}
			found = append(found, c)
		}
		if len(found) > 1 {
			return scopeCol{}, errs.NewNear(errs.Binding, name, "column %q is ambiguous", sqlparser.String(n))
		}
		if len(found) == 1 {
			if d > 1 {
				return scopeCol{}, errs.NewNear(errs.Unsupported, name, "column %q is correlated more than one query level out", sqlparser.String(n))
			}
			if u := found[0].unreadable; u != nil {
				return scopeCol{}, u.Err(name)
			}
			if d == 1 {
				s.outerRefs++
			}
			return found[0], nil
		}
	}
	return scopeCol{}, errs.NewNear(errs.Binding, name, "column %q not found%s", sqlparser.String(n), didYouMean(name, s.names()))
}

// selResult is a bound query block. The plan's first len(names) columns are
// the visible output; for a correlated subquery, further columns follow
// that corr (conditions over those and outer columns) refers to.
type selResult struct {
	plan  Plan
	names []string
	corr  []Expr
	// count is 1 when the single output is a bare count aggregate, 2 when
	// it contains one inside an expression (a correlated scalar subquery
	// must give 0 for no rows, not NULL).
	count int
	// domains need the outer plan as their input (attachDomains).
	domains []*domain
}

func (b *binder) bindTableStmt(ts sqlparser.TableStatement, outer *scope, env *cteEnv) (*selResult, error) {
	// Each SELECT of a statement is a point to notice cancellation: a
	// statement of thousands of UNION branches binds for long.
	if err := b.ctx.Err(); err != nil {
		return nil, errs.Wrap(errs.Cancelled, context.Cause(b.ctx), "query cancelled while planning")
	}
	if _, ok := ts.(*sqlparser.Select); !ok {
		b.scalarNext = false
	}
	switch st := ts.(type) {
	case *sqlparser.Select:
		scalar := b.scalarNext
		b.scalarNext = false
		return b.bindSelect(st, outer, env, scalar)
	case *sqlparser.Union:
		return b.bindUnion(st, outer, env)
	case *sqlparser.ValuesStatement:
		return b.bindValues(st)
	}
	return nil, errs.New(errs.Unsupported, "query form %T is not supported", ts)
}

// project builds a Project with fresh column IDs.
func project(in Plan, exprs []Expr, names []string) *Project {
	p := &Project{Input: in, Exprs: exprs}
	for i, e := range exprs {
		p.Cols = append(p.Cols, Column{ID: NewColumnID(), Name: names[i], Type: e.Type(), Nullable: true})
	}
	return p
}

func ref(c Column) *ColRef { return &ColRef{ID: c.ID, Name: c.Name, T: c.Type} }

// trim keeps the first n columns of p.
func trim(p Plan, n int) Plan {
	cols := p.Columns()
	if len(cols) == n {
		return p
	}
	exprs := make([]Expr, n)
	names := make([]string, n)
	for i := range n {
		exprs[i], names[i] = ref(cols[i]), cols[i].Name
	}
	return project(p, exprs, names)
}

// distinct groups p by all its columns, mapping old column IDs to new.
func distinct(p Plan, m map[ColumnID]*ColRef) Plan {
	a := &Aggregate{Input: p}
	for _, c := range p.Columns() {
		nc := Column{ID: NewColumnID(), Name: c.Name, Type: c.Type, Nullable: c.Nullable}
		a.GroupBy = append(a.GroupBy, ref(c))
		a.GroupCols = append(a.GroupCols, nc)
		m[c.ID] = ref(nc)
	}
	return a
}

// remap replaces ColRefs by m.
func remap(e Expr, m map[ColumnID]*ColRef) Expr {
	switch x := e.(type) {
	case *ColRef:
		if r, ok := m[x.ID]; ok {
			return r
		}
	case *Func:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = remap(a, m)
		}
		return &Func{Name: x.Name, Args: args, T: x.T}
	}
	return e
}

// colIDs adds the IDs e references to set.
func colIDs(e Expr, set map[ColumnID]bool) {
	switch x := e.(type) {
	case *ColRef:
		set[x.ID] = true
	case *Func:
		for _, a := range x.Args {
			colIDs(a, set)
		}
	}
}

func planIDs(p Plan) map[ColumnID]bool {
	m := map[ColumnID]bool{}
	for _, c := range p.Columns() {
		m[c.ID] = true
	}
	return m
}

// within reports whether every column e references is in ids.
func within(e Expr, ids map[ColumnID]bool) bool {
	set := map[ColumnID]bool{}
	colIDs(e, set)
	for id := range set {
		if !ids[id] {
			return false
		}
	}
	return true
}

func and(es []Expr) Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &Func{Name: "and", Args: es, T: expr.Boolean}
}

// limitValue reads a LIMIT/OFFSET operand: a non-negative integer literal.
func limitValue(e sqlparser.Expr) (int64, error) {
	c, err := (&ectx{}).literal(e)
	if err == nil {
		if v, ok := c.Value.(int64); ok && isInt(c.T) && v >= 0 {
			return v, nil
		}
	}
	return 0, errs.NewNear(errs.Binding, sqlparser.String(e), "LIMIT needs a non-negative integer, got %s", sqlparser.String(e))
}

// applyLimit adds a Limit node for l (nil: none).
func applyLimit(p Plan, l *sqlparser.Limit) (Plan, error) {
	if l == nil {
		return p, nil
	}
	lim := &Limit{Input: p, Count: -1}
	var err error
	if l.Offset != nil {
		if lim.Offset, err = limitValue(l.Offset); err != nil {
			return nil, err
		}
	}
	if l.Rowcount != nil {
		if lim.Count, err = limitValue(l.Rowcount); err != nil {
			return nil, err
		}
	}
	return lim, nil
}
