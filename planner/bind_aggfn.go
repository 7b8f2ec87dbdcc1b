package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"vitess.io/vitess/go/sqltypes"

	"gq/errs"
	"gq/expr"
	"gq/parser/sqlparser"
)

// The aggregates beyond count, sum, avg, min and max: how each SQL
// spelling reaches one IR aggregate, their constant second arguments and
// their type rules. Their states are exec's (agg_more.go); the same state
// answers GROUP BY and window frames.

// moreAggs maps the SQL names of these aggregates to their IR names.
// MySQL is the dialect: STD, STDDEV and VARIANCE are population
// statistics there (DuckDB's STDDEV and VARIANCE are the sample ones).
var moreAggs = map[string]string{
	"stddev_pop": "stddev_pop", "std": "stddev_pop", "stddev": "stddev_pop",
	"stddev_samp": "stddev_samp",
	"var_pop":     "var_pop", "variance": "var_pop",
	"var_samp": "var_samp",
	"median":   "median", "quantile_cont": "quantile_cont",
	"quantile_disc": "quantile_disc", "quantile": "quantile_disc",
	"mode": "mode", "entropy": "entropy", "mad": "mad", "list": "list", "array_agg": "list",
	"string_agg": "string_agg", "group_concat": "string_agg",
	"bool_and": "bool_and", "bool_or": "bool_or", "every": "bool_and",
	"any_value": "any_value",
	// DuckDB's: the first (last) row's value, NULL included.
	"first": "first", "arbitrary": "first", "last": "last",
	"bit_and": "bit_and", "bit_or": "bit_or", "bit_xor": "bit_xor",
	// Of two arguments (pairAggType).
	"covar_pop": "covar_pop", "covar_samp": "covar_samp", "corr": "corr",
	"regr_count": "regr_count", "regr_slope": "regr_slope", "regr_intercept": "regr_intercept",
	"regr_r2": "regr_r2", "regr_avgx": "regr_avgx", "regr_avgy": "regr_avgy",
	"regr_sxx": "regr_sxx", "regr_syy": "regr_syy", "regr_sxy": "regr_sxy",
	"arg_max": "arg_max", "argmax": "arg_max", "max_by": "arg_max",
	"arg_min": "arg_min", "argmin": "arg_min", "min_by": "arg_min",
}

// aggAST is an aggregate call of any spelling taken apart.
type aggAST struct {
	fn    string           // IR name
	name  string           // as written, for errors
	args  []sqlparser.Expr // the value, then any constant argument
	dist  bool
	order sqlparser.OrderBy
	sep   *string // GROUP_CONCAT's SEPARATOR
	over  *sqlparser.OverClause
	// filtered: FILTER (WHERE …) applied to args[0]
	filtered bool
}

// moreAggParts takes apart a call of one of moreAggs' aggregates, in any
// of the shapes the grammar gives them; ok is false for anything else.
func moreAggParts(n sqlparser.SQLNode) (p aggAST, ok bool) {
	one := func(name string, arg sqlparser.Expr, over *sqlparser.OverClause) (aggAST, bool) {
		return aggAST{fn: moreAggs[name], name: name, args: []sqlparser.Expr{arg}, over: over}, true
	}
	switch x := n.(type) {
	case *sqlparser.StdPop:
		return one("stddev_pop", x.Arg, x.OverClause)
	case *sqlparser.Std:
		return one("std", x.Arg, x.OverClause)
	case *sqlparser.StdDev:
		return one("stddev", x.Arg, x.OverClause)
	case *sqlparser.StdSamp:
		return one("stddev_samp", x.Arg, x.OverClause)
	case *sqlparser.VarPop:
		return one("var_pop", x.Arg, x.OverClause)
	case *sqlparser.Variance:
		return one("variance", x.Arg, x.OverClause)
	case *sqlparser.VarSamp:
		return one("var_samp", x.Arg, x.OverClause)
	case *sqlparser.BitAnd:
		return one("bit_and", x.Arg, x.OverClause)
	case *sqlparser.BitOr:
		return one("bit_or", x.Arg, x.OverClause)
	case *sqlparser.BitXor:
		return one("bit_xor", x.Arg, x.OverClause)
	case *sqlparser.AnyValue:
		return one("any_value", x.Arg, nil)
	case *sqlparser.GroupConcatExpr:
		p := aggAST{fn: "string_agg", name: "group_concat", args: x.Exprs, dist: x.Distinct, order: x.OrderBy}
		sep := ","
		if x.Separator != "" {
			// The grammar keeps SEPARATOR's literal quoted.
			if s, err := sqltypes.DecodeStringSQL(x.Separator); err == nil {
				sep = s
			} else {
				p.fn = "" // refused by bindMoreAgg
			}
		}
		p.sep = &sep
		if x.Limit != nil {
			p.fn = "" // refused by bindAggArgs
		}
		return p, true
	case *sqlparser.FuncExpr:
		name := x.Name.Lowered()
		if fn, ok := moreAggs[name]; ok && x.Qualifier.IsEmpty() {
			return aggAST{fn: fn, name: name, args: x.Exprs}, true
		}
	case *sqlparser.AggFuncExpr:
		name := x.Name.Lowered()
		p := aggAST{fn: moreAggs[name], name: name, args: x.Exprs, dist: x.Distinct, order: x.OrderBy, over: x.OverClause}
		if x.Filter != nil && len(x.Exprs) > 0 {
			// FILTER (WHERE c) is the value under CASE WHEN c THEN v END:
			// each of these aggregates skips NULL values (list keeps them,
			// bindMoreAgg refuses it); for one of two arguments, NULL in
			// either skips the row.
			p.args = append([]sqlparser.Expr{&sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: x.Filter, Val: x.Exprs[0]}}}}, x.Exprs[1:]...)
			p.filtered = true
		}
		return p, true
	}
	return p, false
}

// aggArgs is a moreAggs call's arguments bound: the value, and the
// constant that quantiles (their fraction) and string_agg (its
// separator) take as a second argument.
type aggArgs struct {
	fn    string
	arg   Expr
	param any
	order []SortKey // ORDER BY inside the call: the order values arrive in
}

// bindMoreAgg binds p's arguments with bind (over the aggregate's or the
// window's input) and applies the aggregate's type rule.
func bindMoreAgg(p aggAST, bind func(sqlparser.Expr) (Expr, error)) (aggArgs, arrow.DataType, error) {
	var a aggArgs
	text := p.name
	if p.fn == "" {
		if p.name == "percentile_cont" || p.name == "percentile_disc" {
			return a, nil, errs.NewNear(errs.Unsupported, p.name, "%s takes one fraction and WITHIN GROUP (ORDER BY x), x ascending (descending too for percentile_cont with a constant fraction)", p.name)
		}
		if p.name == "group_concat" {
			return a, nil, errs.New(errs.Unsupported, "GROUP_CONCAT with LIMIT is not supported")
		}
		return a, nil, errs.NewNear(errs.Unsupported, p.name, "function %s is not an aggregate or window function gq has", p.name)
	}
	if p.filtered && p.fn == "list" {
		// list() keeps NULLs: a filtered-out row would be one.
		return a, nil, errs.NewNear(errs.Unsupported, p.name, "FILTER in %s(…) is not supported", p.name)
	}
	if (p.filtered || p.dist) && (p.fn == "first" || p.fn == "last") {
		// first() keeps a NULL value: a filtered-out row would be one,
		// and DISTINCT has no order to take the first of.
		what := map[bool]string{true: "FILTER", false: "DISTINCT"}[p.filtered]
		return a, nil, errs.NewNear(errs.Unsupported, p.name, "%s in %s(…) is not supported", what, p.name)
	}
	if p.dist && p.fn == "list" && p.over == nil {
		// DuckDB's list(DISTINCT x) keeps one NULL; gq's GROUP BY
		// DISTINCT skips them (over a window it keeps one, window_agg.go).
		return a, nil, errs.NewNear(errs.Unsupported, p.name, "DISTINCT in %s(…) is not supported (over a window it is)", p.name)
	}
	if len(p.order) > 0 && p.dist && p.over == nil {
		// Under GROUP BY the ordered form is a window that does not
		// take DISTINCT (orderedAggCall); over a window it is.
		return a, nil, errs.NewNear(errs.Unsupported, p.name, "DISTINCT with ORDER BY inside %s(…) is not supported", p.name)
	}
	maxArgs := 1
	switch p.fn {
	case "quantile_cont", "quantile_disc", "string_agg":
		maxArgs = 2
	}
	minArgs := 1
	if p.fn == "quantile_cont" || p.fn == "quantile_disc" {
		minArgs = 2
	}
	if IsPairAgg(p.fn) {
		if p.dist {
			return a, nil, errs.NewNear(errs.Unsupported, p.name, "DISTINCT in %s(…) is not supported", p.name)
		}
		minArgs, maxArgs = 2, 2
	}
	if p.sep != nil {
		maxArgs = 1 // GROUP_CONCAT(a, b) concatenates; only one value is supported
	}
	if len(p.args) < minArgs || len(p.args) > maxArgs {
		want := fmt.Sprintf("%d to %d arguments", minArgs, maxArgs)
		if minArgs == maxArgs {
			want = fmt.Sprintf("%d argument", minArgs) + map[bool]string{true: "s"}[minArgs > 1]
		}
		return a, nil, errs.NewNear(errs.Binding, text, "%s takes %s, got %d", p.name, want, len(p.args))
	}
	arg, err := bind(p.args[0])
	if err != nil {
		return a, nil, err
	}
	a.fn, a.arg = p.fn, arg
	for _, o := range p.order {
		e, err := bind(o.Expr)
		if err != nil {
			return a, nil, err
		}
		desc, nullsFirst := orderDirection(o)
		a.order = append(a.order, SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
	}
	if p.sep != nil {
		a.param = *p.sep
	}
	if len(p.args) == 2 {
		k, err := bind(p.args[1])
		if err != nil {
			return a, nil, err
		}
		if IsPairAgg(p.fn) {
			t, err := pairAggType(&a, k)
			if err != nil {
				return a, nil, errs.NewNear(errs.KindOf(err), text, "%s", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "binding error: "), "unsupported: "))
			}
			return a, t, nil
		}
		qs, err := quantileFractions(p, k)
		if err != nil {
			return a, nil, err
		}
		if qs != nil {
			a.param = qs
		} else if a.param, err = aggConstant(p, k); err != nil {
			return a, nil, err
		}
	}
	if a.param == nil {
		switch a.fn {
		case "quantile_disc", "quantile_cont", "median":
			a.param = 0.5
		case "string_agg":
			a.param = ","
		}
	}
	t, err := moreAggType(&a)
	if err != nil {
		return a, nil, errs.NewNear(errs.KindOf(err), text, "%s", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "binding error: "), "unsupported: "))
	}
	if _, ok := a.param.([]float64); ok {
		// A list of quantiles: a list of what one would be. Lists of
		// DECIMAL(18) have no take kernel (see list()): 128-bit elements.
		if isDecimal(t) && !isWide(t) {
			_, sc := expr.DecimalPS(t)
			w := expr.Decimal(expr.MaxWidePrecision, sc)
			if a.arg, err = castTo(a.arg, w); err != nil {
				return a, nil, err
			}
			t = w
		}
		t = arrow.ListOf(t)
	}
	return a, t, nil
}

// aggConstant checks an aggregate's constant argument: a quantile's
// fraction (a number from 0 to 1) or string_agg's separator (a string).
func aggConstant(p aggAST, k Expr) (any, error) {
	near := sqlparser.String(p.args[1])
	c, ok := k.(*Const)
	if !ok {
		return nil, errs.NewNear(errs.Unsupported, near, "the second argument of %s must be a constant, got %s", p.name, near)
	}
	if p.fn == "string_agg" {
		if c.Value == nil {
			return nil, errs.NewNear(errs.Unsupported, near, "a NULL separator in %s is not supported", p.name)
		}
		if v, ok := c.Value.(string); ok {
			return v, nil
		}
		s, err := castTo(c, expr.String)
		if err != nil {
			return nil, err
		}
		if k, ok := s.(*Const); ok {
			if v, ok := k.Value.(string); ok {
				return v, nil
			}
		}
		return nil, errs.NewNear(errs.Unsupported, near, "the separator of %s must be a string, got %s", p.name, near)
	}
	return fraction(p, near, c)
}

// quantileFractions is a quantile's list of fractions, DuckDB's
// quantile_cont(x, [0.25, 0.5]) (whose result is the list of those
// quantiles), or nil when k is no list literal.
func quantileFractions(p aggAST, k Expr) ([]float64, error) {
	f, ok := k.(*Func)
	if !ok || f.Name != "list_value" || p.fn != "quantile_cont" && p.fn != "quantile_disc" {
		return nil, nil
	}
	near := sqlparser.String(p.args[1])
	if len(f.Args) == 0 {
		return nil, errs.NewNear(errs.Binding, near, "the list of fractions of %s is empty", p.name)
	}
	qs := make([]float64, len(f.Args))
	for i, a := range f.Args {
		c, ok := a.(*Const)
		if !ok {
			return nil, errs.NewNear(errs.Unsupported, near, "the fractions of %s must be constants, got %s", p.name, near)
		}
		q, err := fraction(p, near, c)
		if err != nil {
			return nil, err
		}
		qs[i] = q.(float64)
	}
	return qs, nil
}

// fraction is a quantile's constant fraction, a number from 0 to 1.
func fraction(p aggAST, near string, c *Const) (any, error) {
	if c.Value == nil || !isNumeric(c.T) {
		return nil, errs.NewNear(errs.Unsupported, near, "the fraction of %s must be a number from 0 to 1 or a list of them, got %s", p.name, near)
	}
	var q float64
	switch v := c.Value.(type) {
	case int64:
		q = float64(v)
		if isDecimal(c.T) {
			_, s := expr.DecimalPS(c.T)
			q = expr.DecimalToFloat64(v, s)
		}
	case float64:
		q = v
	default: // a DECIMAL(38) constant: no fraction is one
		q = math.NaN()
	}
	if !(q >= 0 && q <= 1) {
		return nil, errs.NewNear(errs.Binding, near, "the fraction of %s must be from 0 to 1, got %s", p.name, near)
	}
	return q, nil
}

// moreAggType is the result type of a (whose argument it may cast or
// whose function it may respell: median of a string is its lower middle
// value, quantile_disc at 0.5, as DuckDB's).
func moreAggType(a *aggArgs) (arrow.DataType, error) {
	t := a.arg.Type()
	if isNull(t) {
		switch a.fn {
		case "string_agg":
			t = expr.String
		case "bool_and", "bool_or":
			t = expr.Boolean
		default:
			t = expr.Int64
		}
		a.arg = &Const{T: t}
	}
	kind := func() string { return expr.TypeName(t) }
	switch a.fn {
	case "stddev_pop", "stddev_samp", "var_pop", "var_samp":
		if !isNumeric(t) {
			return nil, errs.New(errs.Binding, "%s() of %s is not supported", a.fn, kind())
		}
		return expr.Float64, nil
	case "bit_and", "bit_or", "bit_xor":
		if !isInt(t) {
			return nil, errs.New(errs.Binding, "%s() of %s is not supported (integers only)", a.fn, kind())
		}
		return expr.Int64, nil
	case "bool_and", "bool_or":
		b, err := truth(a.arg, a.fn+"()")
		if err != nil {
			return nil, err
		}
		a.arg = b
		return expr.Boolean, nil
	case "string_agg":
		if !isString(t) {
			s, err := castTo(a.arg, expr.String)
			if err != nil {
				return nil, err
			}
			a.arg = s
		}
		return expr.String, nil
	case "median", "quantile_cont", "mad":
		switch {
		case isInt(t) || isFloat(t):
			return expr.Float64, nil
		case isDecimal(t):
			return t, nil
		case a.fn == "median" && (isString(t) || isBool(t)):
			a.fn = "quantile_disc"
			return t, nil
		}
		return nil, errs.New(errs.Unsupported, "%s() of %s is not supported (numbers only; quantile_disc takes any ordered type)", a.fn, kind())
	case "list":
		if isDecimal(t) && !isWide(t) {
			// Lists of DECIMAL(18) have no take kernel (sorts, joins
			// and windows move rows by take): their elements are 128-bit.
			_, sc := expr.DecimalPS(t)
			w, err := castTo(a.arg, expr.Decimal(expr.MaxWidePrecision, sc))
			if err != nil {
				return nil, err
			}
			a.arg, t = w, w.Type()
		}
		return arrow.ListOf(t), nil
	case "entropy":
		if expr.IsNested(t) {
			return nil, errs.New(errs.Unsupported, "%s() of %s is not supported", a.fn, kind())
		}
		return expr.Float64, nil
	case "quantile_disc", "mode", "any_value", "first", "last":
		if expr.IsNested(t) {
			return nil, errs.New(errs.Unsupported, "%s() of %s is not supported", a.fn, kind())
		}
		return t, nil
	}
	return nil, errs.New(errs.Internal, "unknown aggregate %s", a.fn)
}

// moreAggCall binds the GROUP BY aggregate p (key: its text) over pre's
// input. bool_and and bool_or are min and max of their truth values.
func (c *ectx) moreAggCall(pre *ectx, p aggAST, key string, groups []Expr, in *Plan) (AggCall, error) {
	bind := func(e sqlparser.Expr) (Expr, error) {
		if len(collectAggs(e, nil)) > 0 {
			return nil, errs.NewNear(errs.Binding, key, "aggregate calls cannot be nested: %s", key)
		}
		return pre.bind(e)
	}
	a, t, err := bindMoreAgg(p, bind)
	if err != nil {
		return AggCall{}, err
	}
	call := AggCall{Fn: a.fn, Distinct: p.dist, Arg: a.arg, Type: t, Param: a.param}
	if len(a.order) > 0 {
		return orderedAggCall(a, t, key, groups, in)
	}
	switch a.fn {
	case "bool_and":
		call.Fn = "min"
	case "bool_or":
		call.Fn = "max"
	}
	return call, nil
}

// AggParamSuffix is an aggregate's constant argument as EXPLAIN prints it
// after the value (", 0.25", ", ';'"); "" for none.
func AggParamSuffix(p any) string {
	switch v := p.(type) {
	case nil:
		return ""
	case string:
		return ", " + strconv.Quote(v)
	}
	return fmt.Sprintf(", %v", p)
}

// IsMoreAgg reports whether fn is the IR name of one of these aggregates.
func IsMoreAgg(fn string) bool {
	switch fn {
	case "stddev_pop", "stddev_samp", "var_pop", "var_samp", "median", "quantile_cont", "quantile_disc",
		"mode", "string_agg", "any_value", "bit_and", "bit_or", "bit_xor", "mad", "list", "first", "last", "entropy":
		return true
	}
	return IsPairAgg(fn)
}

// IsPairAgg reports whether fn is the IR name of an aggregate of two
// arguments: covar_pop(y, x) and its family, arg_max(arg, val), arg_min.
func IsPairAgg(fn string) bool {
	switch fn {
	case "covar_pop", "covar_samp", "corr", "regr_count", "regr_slope", "regr_intercept", "regr_r2",
		"regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "arg_max", "arg_min":
		return true
	}
	return false
}

// pairAggType applies the type rule of an aggregate of two arguments, a.arg
// and second, and makes a.arg their struct_pack (exec's agg_pair.go takes
// it apart): covar_pop, corr and the regr_* family read both as DOUBLE
// (DuckDB's signatures), regr_count gives a BIGINT and the others a
// DOUBLE; arg_max and arg_min give their first argument's type and order
// by the second.
func pairAggType(a *aggArgs, second Expr) (arrow.DataType, error) {
	first := a.arg
	var t arrow.DataType
	switch a.fn {
	case "arg_max", "arg_min":
		if isNull(first.Type()) {
			first = &Const{T: expr.Int64}
		}
		if isNull(second.Type()) {
			second = &Const{T: expr.Int64}
		}
		for _, e := range []Expr{first, second} {
			if !pairValueType(e.Type()) {
				return nil, errs.New(errs.Unsupported, "%s() of %s is not supported", a.fn, expr.TypeName(e.Type()))
			}
		}
		t = first.Type()
	default:
		for _, e := range []*Expr{&first, &second} {
			et := (*e).Type()
			if isNull(et) {
				*e = &Const{T: expr.Float64}
				continue
			}
			if !isNumeric(et) {
				return nil, errs.New(errs.Binding, "%s() of %s is not supported (numbers only)", a.fn, expr.TypeName(et))
			}
			c, err := castTo(*e, expr.Float64)
			if err != nil {
				return nil, err
			}
			*e = c
		}
		t = expr.Float64
		if a.fn == "regr_count" {
			t = expr.Int64
		}
	}
	st := arrow.StructOf(arrow.Field{Name: expr.PairFields[0], Type: first.Type(), Nullable: true},
		arrow.Field{Name: expr.PairFields[1], Type: second.Type(), Nullable: true})
	a.arg = &Func{Name: "struct_pack", Args: []Expr{first, second}, T: st}
	return t, nil
}

// pairValueType reports whether arg_max and arg_min take values of t
// (the types exec's aggregate states keep).
func pairValueType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.BOOL,
		arrow.FLOAT64, arrow.DECIMAL128, arrow.STRING:
		return true
	}
	return false
}

// orderedAggCall is a GROUP BY aggregate with ORDER BY inside the call
// (string_agg(x, ',' ORDER BY y)): the aggregate over a window
// partitioned by the group keys, which feeds each partition's values in
// that order, computed once per partition; the aggregation takes any
// value of it per group (they are all equal). *in, the aggregation's
// input, gains the Window.
func orderedAggCall(a aggArgs, t arrow.DataType, key string, groups []Expr, in *Plan) (AggCall, error) {
	if expr.IsNested(t) {
		return AggCall{}, errs.NewNear(errs.Unsupported, key, "ORDER BY inside %s(…) under GROUP BY is not supported (over a window it is)", a.fn)
	}
	wc := WindowCall{Fn: windowAggFn(a.fn), Args: []Expr{a.arg}, Type: t, Param: a.param, Order: a.order,
		Frame: Frame{Start: FrameBound{Kind: expr.UnboundedPreceding}, End: FrameBound{Kind: expr.UnboundedFollowing}}}
	col := Column{ID: NewColumnID(), Name: key, Type: t, Nullable: true}
	*in = &Window{Input: *in, PartitionBy: groups, Funcs: []WindowCall{wc}, Cols: []Column{col}}
	return AggCall{Fn: "any_value", Arg: ref(col), Type: t}, nil
}

// windowAggFn is the window function that computes aggregate fn over a
// frame: bool_and and bool_or are min and max of truth values, first and
// last the value functions first_value and last_value (which keep NULLs
// too and read the frame directly).
func windowAggFn(fn string) string {
	switch fn {
	case "bool_and":
		return "min"
	case "bool_or":
		return "max"
	case "first":
		return "first_value"
	case "last":
		return "last_value"
	}
	return fn
}

// respellAggs rewrites DuckDB's count_star() (a call with no arguments,
// with or without OVER) to COUNT(*), so that one code path binds both
// spellings. Its other forms (arguments, DISTINCT, ORDER BY) are left as
// written and refused where bound.
func respellAggs(stmt sqlparser.SQLNode) sqlparser.SQLNode {
	return sqlparser.SafeRewrite(stmt, nil, func(cur *sqlparser.Cursor) bool {
		switch x := cur.Node().(type) {
		case *sqlparser.FuncExpr:
			if x.Name.Lowered() == "count_star" && x.Qualifier.IsEmpty() && len(x.Exprs) == 0 {
				cur.Replace(&sqlparser.CountStar{})
			}
			if x.Name.Lowered() == "approx_count_distinct" && x.Qualifier.IsEmpty() && len(x.Exprs) == 1 {
				// gq counts exactly: the estimate DuckDB's HyperLogLog
				// approximates.
				cur.Replace(&sqlparser.Count{Distinct: true, Args: x.Exprs})
			}
		case *sqlparser.AggFuncExpr:
			if x.Name.Lowered() == "count_star" && len(x.Exprs) == 0 && !x.Distinct && len(x.OrderBy) == 0 && x.Filter == nil {
				cur.Replace(&sqlparser.CountStar{OverClause: x.OverClause})
			}
			if r := orderedSetAgg(x); r != nil {
				cur.Replace(r)
			}
			if x.Name.Lowered() == "approx_count_distinct" && len(x.Exprs) == 1 && len(x.OrderBy) == 0 {
				// Over a window or with FILTER: the exact count, as above;
				// FILTER (WHERE c) counts CASE WHEN c THEN x END, as the
				// grammar does for count itself.
				arg := x.Exprs[0]
				if x.Filter != nil {
					arg = &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: x.Filter, Val: arg}}}
				}
				cur.Replace(&sqlparser.Count{Distinct: true, Args: []sqlparser.Expr{arg}, OverClause: x.OverClause})
			}
		}
		return true
	})
}

// orderedSetAgg respells an ordered-set aggregate, f(args) WITHIN GROUP
// (ORDER BY x) (the grammar's f(args ORDER BY x)), as DuckDB's aggregate
// of x: percentile_cont(q) is quantile_cont(x, q), percentile_disc(q)
// quantile_disc(x, q) (the grammar makes mode() WITHIN GROUP (ORDER BY
// x) mode(x) itself). Descending, the continuous
// percentile at q is the ascending one at 1 - q (interpolation is
// symmetric); the discrete one is not, and is left for bindMoreAgg to
// refuse, as are other shapes. nil: no respelling.
func orderedSetAgg(x *sqlparser.AggFuncExpr) sqlparser.Expr {
	name := x.Name.Lowered()
	if len(x.OrderBy) != 1 || x.Distinct {
		return nil
	}
	o := x.OrderBy[0]
	switch {
	case (name == "percentile_cont" || name == "percentile_disc") && len(x.Exprs) == 1:
		q := x.Exprs[0]
		if o.Direction == sqlparser.DescOrder {
			lit, ok := q.(*sqlparser.Literal)
			if !ok || name == "percentile_disc" || lit.Type != sqlparser.DecimalVal && lit.Type != sqlparser.IntVal && lit.Type != sqlparser.FloatVal {
				return nil
			}
			f, err := strconv.ParseFloat(lit.Val, 64)
			if err != nil {
				return nil
			}
			q = sqlparser.NewFloatLiteral(strconv.FormatFloat(1-f, 'g', -1, 64))
		}
		fn := "quantile_" + strings.TrimPrefix(name, "percentile_")
		return &sqlparser.AggFuncExpr{Name: sqlparser.NewIdentifierCI(fn), Exprs: []sqlparser.Expr{o.Expr, q}, Filter: x.Filter, OverClause: x.OverClause}
	}
	return nil
}
