package planner

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// windows adds one Window node per distinct (PARTITION BY, ORDER BY) spec
// for the window calls in the select list and ORDER BY; calls that share a
// spec share the node (one sort) whatever their frames.
func (c *ectx) windows(items []selItem, order sqlparser.OrderBy, named sqlparser.NamedWindows) error {
	var calls []sqlparser.Expr
	visit := func(e sqlparser.Expr) {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if _, ok := n.(*sqlparser.Subquery); ok {
				return false, nil
			}
			if isWindowAST(n) {
				calls = append(calls, n.(sqlparser.Expr))
				return false, nil
			}
			return true, nil
		}, e)
	}
	for _, it := range items {
		visit(it.ast)
	}
	for _, o := range order {
		visit(o.Expr)
	}
	defs, err := windowDefs(named)
	if err != nil || len(calls) == 0 {
		return err
	}
	c.wins = map[string]*ColRef{}
	nodes := map[string]*Window{}
	var specs []string
	for _, call := range calls {
		key := sqlparser.String(call)
		if _, ok := c.wins[key]; ok {
			continue
		}
		p, err := windowParts(call)
		if err != nil {
			return err
		}
		spec, err := resolveOver(p.over, defs)
		if err != nil {
			return err
		}
		var part []Expr
		var keys []SortKey
		specKey := ""
		for _, pe := range spec.PartitionClause {
			e, err := c.bind(pe)
			if err != nil {
				return err
			}
			part = append(part, e)
			specKey += e.String() + ","
		}
		specKey += "|"
		for _, o := range spec.OrderClause {
			e, err := c.bind(o.Expr)
			if err != nil {
				return err
			}
			desc, nullsFirst := orderDirection(o)
			keys = append(keys, SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
			specKey += e.String() + map[bool]string{true: " desc", false: ""}[desc] + map[bool]string{true: " nulls first,", false: " nulls last,"}[nullsFirst]
		}
		wc, err := c.windowCall(p, keys)
		if err != nil {
			return err
		}
		if wc.Frame, err = c.bindFrame(spec.FrameClause, keys); err != nil {
			return err
		}
		if len(wc.Order) > 0 && wc.Frame.Exclude != expr.ExcludeNoOthers && !FrameAware(wc.Fn) {
			// DuckDB refuses it too: these read the frame's extent only.
			return errs.NewNear(errs.Unsupported, key, "EXCLUDE in the frame of %s with an ORDER BY of its own is not supported", wc.Fn)
		}
		w := nodes[specKey]
		if w == nil {
			w = &Window{PartitionBy: part, OrderBy: keys}
			nodes[specKey] = w
			specs = append(specs, specKey)
		}
		col := Column{ID: NewColumnID(), Name: key, Type: wc.Type, Nullable: true}
		w.Funcs, w.Cols = append(w.Funcs, wc), append(w.Cols, col)
		c.wins[key] = ref(col)
	}
	for _, k := range specs {
		w := nodes[k]
		w.Input = *c.cur
		*c.cur = w
	}
	return nil
}

// windowDefs checks the WINDOW clause and resolves each definition that
// names another (WINDOW b AS (a ORDER BY x)) into a whole specification.
func windowDefs(named sqlparser.NamedWindows) (map[string]*sqlparser.WindowSpecification, error) {
	raw := map[string]*sqlparser.WindowSpecification{}
	for _, nw := range named {
		for _, d := range nw.Windows {
			name := d.Name.Lowered()
			if _, dup := raw[name]; dup {
				return nil, errs.NewNear(errs.Binding, d.Name.String(), "window %s is defined twice", d.Name.String())
			}
			raw[name] = d.WindowSpec
		}
	}
	out := map[string]*sqlparser.WindowSpecification{}
	var resolve func(name string, seen map[string]bool) (*sqlparser.WindowSpecification, error)
	resolve = func(name string, seen map[string]bool) (*sqlparser.WindowSpecification, error) {
		if s, ok := out[name]; ok {
			return s, nil
		}
		s, ok := raw[name]
		if !ok {
			return nil, errs.NewNear(errs.Binding, name, "window %s is not defined", name)
		}
		if seen[name] {
			return nil, errs.NewNear(errs.Binding, name, "window %s refers to itself", name)
		}
		seen[name] = true
		if s.Name.NotEmpty() {
			base, err := resolve(s.Name.Lowered(), seen)
			if err != nil {
				return nil, err
			}
			if s, err = inheritWindow(base, s); err != nil {
				return nil, err
			}
		}
		out[name] = s
		return s, nil
	}
	for name := range raw {
		if _, err := resolve(name, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// inheritWindow is spec on top of the window it names, with MySQL's rules:
// it may not repartition, may add an ORDER BY only where base has none, and
// may add a frame only where base has none.
func inheritWindow(base, spec *sqlparser.WindowSpecification) (*sqlparser.WindowSpecification, error) {
	name := spec.Name.String()
	if len(spec.PartitionClause) > 0 {
		return nil, errs.NewNear(errs.Binding, name, "a window that names window %s cannot have its own PARTITION BY", name)
	}
	if len(spec.OrderClause) > 0 && len(base.OrderClause) > 0 {
		return nil, errs.NewNear(errs.Binding, name, "window %s already has an ORDER BY", name)
	}
	if base.FrameClause != nil {
		return nil, errs.NewNear(errs.Binding, name, "window %s has a frame: a window that names it cannot add to it", name)
	}
	out := &sqlparser.WindowSpecification{PartitionClause: base.PartitionClause, OrderClause: base.OrderClause, FrameClause: spec.FrameClause}
	if len(spec.OrderClause) > 0 {
		out.OrderClause = spec.OrderClause
	}
	return out, nil
}

// resolveOver returns the specification an OVER clause stands for.
func resolveOver(over *sqlparser.OverClause, defs map[string]*sqlparser.WindowSpecification) (*sqlparser.WindowSpecification, error) {
	if over == nil {
		return nil, errs.New(errs.Binding, "window function without OVER")
	}
	if !over.WindowName.IsEmpty() {
		s, ok := defs[over.WindowName.Lowered()]
		if !ok {
			return nil, errs.NewNear(errs.Binding, over.WindowName.String(), "window %s is not defined", over.WindowName.String())
		}
		return s, nil
	}
	spec := over.WindowSpec
	if spec == nil {
		return &sqlparser.WindowSpecification{}, nil
	}
	if spec.Name.NotEmpty() {
		base, ok := defs[spec.Name.Lowered()]
		if !ok {
			return nil, errs.NewNear(errs.Binding, spec.Name.String(), "window %s is not defined", spec.Name.String())
		}
		return inheritWindow(base, spec)
	}
	return spec, nil
}

// windowAST is a window call taken apart.
type windowAST struct {
	fn      string
	args    []sqlparser.Expr // the value or aggregate argument
	n       sqlparser.Expr   // lag/lead offset, nth_value's n, ntile's buckets
	def     sqlparser.Expr   // lag/lead default
	over    *sqlparser.OverClause
	ignores bool              // IGNORE NULLS (MySQL 8 refuses it; DuckDB and the standard have it)
	last    bool              // nth_value's FROM LAST
	more    *aggAST           // one of moreAggs' aggregates (bind_aggfn.go)
	dist    bool              // DISTINCT (sum, avg, moreAggs')
	order   sqlparser.OrderBy // the call's own ORDER BY (rank(ORDER BY x) OVER …)
}

func windowParts(e sqlparser.Expr) (windowAST, error) {
	ignores := func(nt *sqlparser.NullTreatmentClause) bool {
		return nt != nil && nt.Type == sqlparser.IgnoreNullsType
	}
	var p windowAST
	if x, ok := e.(*sqlparser.AggFuncExpr); ok && x.Name.Lowered() == "fill" {
		// DuckDB's fill(v ORDER BY k): a window function, not an
		// aggregate, so neither DISTINCT nor FILTER applies.
		if x.Distinct || x.Filter != nil {
			return p, errs.NewNear(errs.Binding, sqlparser.String(e), "DISTINCT and FILTER do not apply to fill(…), a window function")
		}
		p.fn, p.args, p.order, p.over = "fill", x.Exprs, x.OrderBy, x.OverClause
		return p, nil
	}
	switch x := e.(type) {
	case *sqlparser.ArgumentLessWindowExpr:
		p.fn = map[sqlparser.ArgumentLessWindowExprType]string{
			sqlparser.RowNumberExprType: "row_number", sqlparser.RankExprType: "rank",
			sqlparser.DenseRankExprType: "dense_rank", sqlparser.PercentRankExprType: "percent_rank",
			sqlparser.CumeDistExprType: "cume_dist"}[x.Type]
		p.over, p.order = x.OverClause, x.OrderBy
	case *sqlparser.NtileExpr:
		p.fn, p.n, p.over, p.order = "ntile", x.N, x.OverClause, x.OrderBy
	case *sqlparser.LagLeadExpr:
		p.fn = map[sqlparser.LagLeadExprType]string{sqlparser.LagExprType: "lag", sqlparser.LeadExprType: "lead"}[x.Type]
		p.args, p.n, p.def, p.over, p.order = []sqlparser.Expr{x.Expr}, x.N, x.Default, x.OverClause, x.OrderBy
		p.ignores = ignores(x.NullTreatmentClause)
	case *sqlparser.FirstOrLastValueExpr:
		p.fn = map[sqlparser.FirstOrLastValueExprType]string{sqlparser.FirstValueExprType: "first_value", sqlparser.LastValueExprType: "last_value"}[x.Type]
		p.args, p.over, p.order = []sqlparser.Expr{x.Expr}, x.OverClause, x.OrderBy
		p.ignores = ignores(x.NullTreatmentClause)
	case *sqlparser.NTHValueExpr:
		p.fn, p.args, p.n, p.over, p.order = "nth_value", []sqlparser.Expr{x.Expr}, x.N, x.OverClause, x.OrderBy
		p.ignores = ignores(x.NullTreatmentClause)
		p.last = x.FromFirstLastClause != nil && x.FromFirstLastClause.Type == sqlparser.FromLastType
	case *sqlparser.CountStar:
		p.fn, p.over = "count_star", x.OverClause
	case *sqlparser.Count:
		if len(x.Args) != 1 {
			return p, errs.New(errs.Unsupported, "%s is not supported: COUNT over a window takes one argument", sqlparser.String(e))
		}
		p.fn, p.args, p.over = "count", x.Args, x.OverClause
		if x.Distinct {
			p.fn = "count_distinct"
		}
	case *sqlparser.Sum:
		p.fn, p.args, p.over, p.dist = "sum", []sqlparser.Expr{x.Arg}, x.OverClause, x.Distinct
	case *sqlparser.Avg:
		p.fn, p.args, p.over, p.dist = "avg", []sqlparser.Expr{x.Arg}, x.OverClause, x.Distinct
	case *sqlparser.Min:
		p.fn, p.args, p.over = "min", []sqlparser.Expr{x.Arg}, x.OverClause
	case *sqlparser.Max:
		p.fn, p.args, p.over = "max", []sqlparser.Expr{x.Arg}, x.OverClause
	default:
		if a, ok := moreAggParts(e); ok {
			p.more, p.over = &a, a.over
			p.fn = a.fn
			if p.fn == "" {
				p.fn = a.name // refused by bindMoreAgg, naming it
			}
			p.dist = a.dist
		}
	}
	if p.fn == "" {
		return p, errs.New(errs.Unsupported, "window function %s is not supported", sqlparser.String(e))
	}
	if p.last {
		// MySQL 8 parses it and rejects it too.
		return p, errs.NewNear(errs.Unsupported, sqlparser.String(e), "FROM LAST is not supported in %s", sqlparser.String(e))
	}
	return p, nil
}

// windowCall binds a call's arguments and picks its result type.
func (c *ectx) windowCall(p windowAST, keys []SortKey) (WindowCall, error) {
	wc := WindowCall{Fn: p.fn, IgnoreNulls: p.ignores, Distinct: p.dist}
	if p.more != nil {
		a, t, err := bindMoreAgg(*p.more, c.bind)
		if err != nil {
			return wc, err
		}
		wc.Fn, wc.Args, wc.Type, wc.Param, wc.Order = windowAggFn(a.fn), []Expr{a.arg}, t, a.param, a.order
		return wc, nil
	}
	for _, a := range p.args {
		e, err := c.bind(a)
		if err != nil {
			return wc, err
		}
		wc.Args = append(wc.Args, e)
	}
	if len(p.order) > 0 {
		if err := c.callOrder(p, &wc); err != nil {
			return wc, err
		}
	}
	var err error
	switch p.fn {
	case "row_number", "rank", "dense_rank", "count", "count_star", "count_distinct":
		wc.Type = expr.Int64
	case "percent_rank", "cume_dist":
		wc.Type = expr.Float64
	case "ntile":
		wc.Type = expr.Int64
		if c.nullCount(p, &wc) {
			return wc, nil
		}
		if wc.N, err = c.windowCount(p, 1); err != nil {
			return wc, err
		}
	case "first_value", "last_value":
		wc.Type = wc.Args[0].Type()
	case "fill":
		return wc, fillCall(p, &wc, keys)
	case "nth_value":
		wc.Type = wc.Args[0].Type()
		if c.nullCount(p, &wc) {
			return wc, nil
		}
		if perRow, err := c.perRowCount(p, &wc); perRow || err != nil {
			return wc, err
		}
		if wc.N, err = c.windowCount(p, 1); err != nil {
			return wc, err
		}
	case "lag", "lead":
		wc.N = 1
		var perRow Expr
		if p.n != nil {
			if perRow, err = c.perRowOffset(p); err != nil {
				return wc, err
			}
		}
		if perRow != nil {
			wc.N = 0
		} else if p.n != nil {
			if wc.N, err = c.windowCount(p, math.MinInt64); err != nil {
				return wc, err
			}
			if wc.N < 0 { // DuckDB's: lag(x, -n) is lead(x, n)
				if wc.N == math.MinInt64 {
					return wc, errs.NewNear(errs.Binding, sqlparser.String(p.n), "the offset of %s is out of range: %s", p.fn, sqlparser.String(p.n))
				}
				wc.N = -wc.N
				wc.Fn = map[string]string{"lag": "lead", "lead": "lag"}[p.fn]
			}
		}
		def := Expr(&Const{Value: nil, T: expr.Null})
		if p.def != nil {
			if def, err = c.bind(p.def); err != nil {
				return wc, err
			}
		}
		if isString(wc.Args[0].Type()) && !isString(def.Type()) && !isNull(def.Type()) {
			// A string's default of another type is spelled as a string,
			// as both MySQL (whose result is then a string) and DuckDB
			// (which casts the default to the value's type) do.
			if def, err = castTo(def, wc.Args[0].Type()); err != nil {
				return wc, err
			}
		}
		var es []Expr
		if wc.Type, es, err = unify(p.fn, []Expr{wc.Args[0], def}); err != nil {
			return wc, err
		}
		wc.Args = es
		if perRow != nil {
			wc.Args = append(wc.Args, perRow)
		}
	default:
		if wc.Type, err = aggType(p.fn, wc.Args[0].Type()); err != nil {
			return wc, err
		}
	}
	return wc, nil
}

// callOrder binds the ORDER BY inside a ranking, lag/lead or value
// function's call (DuckDB's): the function then reads its frame in that
// order instead of the window's (exec's window_argorder.go).
func (c *ectx) callOrder(p windowAST, wc *WindowCall) error {
	switch {
	case p.fn == "dense_rank":
		return errs.NewNear(errs.Unsupported, p.fn, "ORDER BY inside dense_rank(…) is not supported")
	case p.ignores && (p.fn == "lag" || p.fn == "lead"):
		return errs.NewNear(errs.Unsupported, p.fn, "IGNORE NULLS with an ORDER BY inside %s(…) is not supported", p.fn)
	}
	for _, o := range p.order {
		e, err := c.bind(o.Expr)
		if err != nil {
			return err
		}
		desc, nullsFirst := orderDirection(o)
		wc.Order = append(wc.Order, SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
	}
	return nil
}

// nullCount handles ntile(NULL), nth_value(x, NULL) and nth_value(x, n)
// for a constant n below 1: as DuckDB's, their value is NULL on every
// row, which *wc (its Type set) then computes as the first value of a
// NULL constant of that type; it reports whether the count was such a
// constant. (DuckDB refuses ntile(0), and so does windowCount.)
func (c *ectx) nullCount(p windowAST, wc *WindowCall) bool {
	e, err := c.bind(p.n)
	if err != nil {
		return false // windowCount reports it
	}
	k, ok := e.(*Const)
	if !ok {
		return false
	}
	below1 := p.fn == "nth_value" && isInt(k.T) && k.Value != nil && k.Value.(int64) < 1
	if k.Value != nil && !below1 {
		return false
	}
	wc.Fn, wc.Args, wc.Order = "first_value", []Expr{&Const{Value: nil, T: wc.Type}}, nil
	return true
}

// perRowOffset is lag's or lead's offset when it is no constant (DuckDB's
// lag(x, k), k a column): an Int64 expression read at each row, where a
// NULL offset gives NULL and a negative one reads the other way; nil for
// a constant, which windowCount reads.
func (c *ectx) perRowOffset(p windowAST) (Expr, error) {
	e, err := c.bind(p.n)
	if err != nil {
		return nil, err
	}
	if _, ok := e.(*Const); ok {
		return nil, nil
	}
	near := sqlparser.String(p.n)
	if !isInt(e.Type()) {
		return nil, errs.NewNear(errs.Binding, near, "the count in %s must be an integer, got %s", p.fn, near)
	}
	if len(p.order) > 0 {
		return nil, errs.NewNear(errs.Unsupported, near, "a per-row count in %s(…) with an ORDER BY of its own is not supported", p.fn)
	}
	return castTo(e, expr.Int64)
}

// perRowCount makes nth_value's n, when it is no constant, the call's
// second argument (read at each row; NULL or below 1 gives NULL, as
// DuckDB's) and reports whether it did.
func (c *ectx) perRowCount(p windowAST, wc *WindowCall) (bool, error) {
	e, err := c.perRowOffset(p)
	if e == nil || err != nil {
		return false, err
	}
	wc.Args = append(wc.Args, e)
	return true, nil
}

// windowCount is the constant integer argument n of ntile, nth_value, lag
// and lead, at least least (MySQL wants a literal there too).
func (c *ectx) windowCount(p windowAST, least int64) (int64, error) {
	e, err := c.bind(p.n)
	if err != nil {
		return 0, err
	}
	k, ok := e.(*Const)
	if !ok || k.Value == nil || !isInt(k.T) || k.Value.(int64) < least {
		what := "a non-negative"
		switch {
		case least > 0:
			what = "a positive"
		case least < 0:
			what = "an"
		}
		return 0, errs.NewNear(errs.Binding, sqlparser.String(p.n), "the count in %s must be %s integer constant, got %s", p.fn, what, sqlparser.String(p.n))
	}
	return k.Value.(int64), nil
}

// bindFrame checks a frame clause against MySQL's rules and binds its
// offsets; nil is the default frame.
func (c *ectx) bindFrame(fc *sqlparser.FrameClause, keys []SortKey) (Frame, error) {
	def := Frame{Start: FrameBound{Kind: expr.UnboundedPreceding}, End: FrameBound{Kind: expr.CurrentRow}}
	if fc == nil {
		if len(keys) == 0 {
			// Every row is a peer: the same rows, said plainly.
			def.End.Kind = expr.UnboundedFollowing
		}
		return def, nil
	}
	f := Frame{Rows: fc.Unit == sqlparser.FrameRowsType, Groups: fc.Unit == sqlparser.FrameGroupsType}
	f.Exclude = map[sqlparser.FrameExclude]expr.FrameExclude{
		sqlparser.ExcludeNoOthers: expr.ExcludeNoOthers, sqlparser.ExcludeCurrentRow: expr.ExcludeCurrentRow,
		sqlparser.ExcludeGroup: expr.ExcludeGroup, sqlparser.ExcludeTies: expr.ExcludeTies}[fc.Exclude]
	var err error
	if f.Start, err = c.bindBound(fc.Start, f, keys); err != nil {
		return f, err
	}
	end := fc.End
	if end == nil { // ROWS n PRECEDING: to the current row
		end = &sqlparser.FramePoint{Type: sqlparser.CurrentRowType}
	}
	if f.End, err = c.bindBound(end, f, keys); err != nil {
		return f, err
	}
	if f.Start.Kind == expr.UnboundedFollowing {
		return f, errs.New(errs.Binding, "a window frame cannot start at UNBOUNDED FOLLOWING")
	}
	if f.End.Kind == expr.UnboundedPreceding {
		return f, errs.New(errs.Binding, "a window frame cannot end at UNBOUNDED PRECEDING")
	}
	// The SQL standard's rule (DuckDB and PostgreSQL enforce it too): a
	// frame may not end before the row where it starts by kind. Offsets of
	// one kind may still make it empty (3 FOLLOWING AND 1 FOLLOWING).
	if (f.Start.Kind == expr.OffsetFollowing && f.End.Kind <= expr.CurrentRow) || (f.Start.Kind == expr.CurrentRow && f.End.Kind == expr.OffsetPreceding) {
		return f, errs.New(errs.Binding, "a window frame that starts at %s cannot end at %s", f.Start, f.End)
	}
	if !f.Rows && len(keys) == 0 && f.Start.Kind != expr.OffsetPreceding && f.Start.Kind != expr.OffsetFollowing &&
		f.End.Kind != expr.OffsetPreceding && f.End.Kind != expr.OffsetFollowing {
		// RANGE without ORDER BY: every row is a peer of every other.
		f.Start.Kind, f.End.Kind = expr.UnboundedPreceding, expr.UnboundedFollowing
	}
	return f, nil
}

// bindBound binds one end of frame f (its unit set).
func (c *ectx) bindBound(p *sqlparser.FramePoint, f Frame, keys []SortKey) (FrameBound, error) {
	rows := f.Rows
	b := FrameBound{Kind: map[sqlparser.FramePointType]expr.FrameKind{
		sqlparser.UnboundedPrecedingType: expr.UnboundedPreceding, sqlparser.ExprPrecedingType: expr.OffsetPreceding,
		sqlparser.CurrentRowType: expr.CurrentRow, sqlparser.ExprFollowingType: expr.OffsetFollowing,
		sqlparser.UnboundedFollowingType: expr.UnboundedFollowing}[p.Type]}
	if b.Kind != expr.OffsetPreceding && b.Kind != expr.OffsetFollowing {
		return b, nil
	}
	near := sqlparser.String(p.Expr)
	e, err := c.bind(p.Expr)
	if err != nil {
		return b, err
	}
	k, ok := e.(*Const)
	if !ok && rows && p.Unit == sqlparser.IntervalNone {
		// An offset read at each row (DuckDB's); a NULL or negative one
		// is refused when the query runs.
		if !isInt(e.Type()) {
			return b, errs.NewNear(errs.Binding, near, "a ROWS frame offset must be an integer, got %s", near)
		}
		b.PerRow = e
		return b, nil
	}
	if ok && isString(k.T) && p.Unit != sqlparser.IntervalNone {
		// INTERVAL '2' DAY
		if e, err = foldCast(k, expr.Int64); err != nil {
			return b, err
		}
		k, ok = e.(*Const)
	}
	if !ok || k.Value == nil || !isNumeric(k.T) || constNegative(k) {
		what := "a non-negative number constant"
		switch {
		case rows:
			what = "a non-negative integer"
		case f.Groups:
			what = "a non-negative integer constant"
		}
		return b, errs.NewNear(errs.Binding, near, "a window frame offset must be %s, got %s", what, near)
	}
	if f.Groups {
		// A count of peer groups: without ORDER BY the partition is one.
		if !isInt(k.T) || p.Unit != sqlparser.IntervalNone {
			return b, errs.NewNear(errs.Binding, near, "a GROUPS frame offset must be an integer, got %s", near)
		}
		b.Offset = k
		return b, nil
	}
	if rows {
		if !isInt(k.T) || p.Unit != sqlparser.IntervalNone {
			return b, errs.NewNear(errs.Binding, near, "a ROWS frame offset must be an integer, got %s", near)
		}
		b.Offset = k
		return b, nil
	}
	if len(keys) != 1 {
		return b, errs.NewNear(errs.Binding, near, "a RANGE frame with an offset needs exactly one ORDER BY key, got %d", len(keys))
	}
	kt := keys[0].Expr.Type()
	switch {
	case isDate(kt):
		if p.Unit == sqlparser.IntervalNone {
			return b, errs.NewNear(errs.Binding, near, "a RANGE frame over a DATE needs an INTERVAL offset, got %s", near)
		}
		if !isInt(k.T) {
			return b, errs.NewNear(errs.Unsupported, near, "interval of %s is not supported (integers only)", expr.TypeName(k.T))
		}
		n := k.Value.(int64)
		switch p.Unit {
		case sqlparser.IntervalDay:
		case sqlparser.IntervalWeek:
			n *= 7
		case sqlparser.IntervalMonth:
			b.Months = true
		case sqlparser.IntervalQuarter:
			n, b.Months = n*3, true
		case sqlparser.IntervalYear:
			n, b.Months = n*12, true
		default:
			return b, errs.NewNear(errs.Unsupported, near, "interval unit %s is not supported in a window frame", p.Unit.ToString())
		}
		b.Offset = &Const{Value: n, T: expr.Int64}
	case isNumeric(kt):
		if p.Unit != sqlparser.IntervalNone {
			return b, errs.NewNear(errs.Binding, near, "a RANGE frame over %s cannot have an INTERVAL offset", expr.TypeName(kt))
		}
		b.Offset = k
	default:
		return b, errs.NewNear(errs.Binding, near, "a RANGE frame with an offset needs a number or DATE ORDER BY key, got %s", expr.TypeName(kt))
	}
	return b, nil
}

func constNegative(k *Const) bool {
	switch v := k.Value.(type) {
	case int64:
		return v < 0
	case float64:
		return v < 0 || v != v
	}
	return false
}

// fillCall checks DuckDB's fill(v ORDER BY k) and adds its key to
// wc.Args: the value and the key it interpolates along must both be
// numbers or dates/times, and there is one key, the call's own or else
// the window's only one. The frame does not matter: fill reads its
// partition (DuckDB's).
func fillCall(p windowAST, wc *WindowCall, keys []SortKey) error {
	if len(wc.Args) != 1 {
		return errs.NewNear(errs.Binding, p.fn, "fill takes 1 argument, got %d", len(wc.Args))
	}
	switch {
	case len(wc.Order) == 0 && len(keys) == 1:
		wc.Order = []SortKey{keys[0]}
	case len(wc.Order) != 1:
		n := len(wc.Order)
		if n == 0 {
			n = len(keys)
		}
		return errs.NewNear(errs.Binding, p.fn, "fill(…) needs exactly one ORDER BY key, in the call or else in its window, got %d", n)
	}
	fillable := func(t arrow.DataType) bool {
		return isNumeric(t) || isDate(t) || isTimestamp(t) || isTime(t)
	}
	if t := wc.Args[0].Type(); !fillable(t) {
		return errs.NewNear(errs.Binding, p.fn, "fill(…) of %s is not supported: it interpolates numbers, dates and times", expr.TypeName(t))
	}
	if t := wc.Order[0].Expr.Type(); !fillable(t) {
		return errs.NewNear(errs.Binding, p.fn, "fill(…) ordered by a %s is not supported: it interpolates along numbers, dates and times", expr.TypeName(t))
	}
	wc.Type = wc.Args[0].Type()
	wc.Args = append(wc.Args, wc.Order[0].Expr)
	return nil
}
