package planner

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// ectx binds expressions of one query level.
type ectx struct {
	b   *binder
	s   *scope
	env *cteEnv
	// cur is the plan scalar subqueries join onto; nil where subqueries
	// are not allowed.
	cur     *Plan
	post    *postAgg           // non-nil after aggregation
	wins    map[string]*ColRef // window calls by AST text
	aliases []selItem          // select items HAVING may name
	// domains are the outer-value domains this (sub)query's
	// decorrelation reads (bind_corr.go); the outer query supplies them.
	domains []*domain
}

func (c *ectx) bindBool(e sqlparser.Expr, clause string) (Expr, error) {
	b, err := c.bind(e)
	if err != nil {
		return nil, err
	}
	return truth(b, clause)
}

// truth is the bound expression b as a condition.
func truth(b Expr, clause string) (Expr, error) {
	switch {
	case isBool(b.Type()):
		return b, nil
	case isNull(b.Type()):
		return &Const{T: expr.Boolean}, nil
	case isNumeric(b.Type()):
		// MySQL treats a number as a truth value: non-zero is true.
		z, err := castTo(&Const{Value: int64(0), T: expr.Int64}, b.Type())
		if err != nil {
			return nil, err
		}
		if isDecimal(b.Type()) {
			z = &Const{Value: int64(0), T: b.Type()}
		}
		return &Func{Name: "ne", Args: []Expr{b, z}, T: expr.Boolean}, nil
	}
	return nil, errs.New(errs.Binding, "%s condition must be boolean, got %s", clause, expr.TypeName(b.Type()))
}

func (c *ectx) bind(e sqlparser.Expr) (Expr, error) {
	if c.post != nil {
		if r, ok, err := c.postLookup(e); ok || err != nil {
			return r, err
		}
	}
	if isWindowAST(e) {
		if r, ok := c.wins[sqlparser.String(e)]; ok {
			return r, nil
		}
		return nil, errs.NewNear(errs.Binding, sqlparser.String(e), "window function %s is not allowed here", sqlparser.String(e))
	}
	if isAggAST(e) {
		return nil, errs.NewNear(errs.Binding, sqlparser.String(e), "aggregate %s is not allowed here", sqlparser.String(e))
	}
	switch x := e.(type) {
	case *sqlparser.ColName:
		sc, err := c.s.resolve(x)
		if err != nil {
			if f, ok := c.fieldAccess(x); ok {
				return f, nil
			}
			if x.Qualifier.IsEmpty() { // HAVING may name a select alias
				for _, it := range c.aliases {
					if it.alias != "" && strings.EqualFold(it.alias, x.Name.String()) {
						// The item's own expression names columns, not
						// aliases: "select a(a) a ... having a" would
						// otherwise expand a forever.
						saved := c.aliases
						c.aliases = nil
						r, err := c.bind(it.ast)
						c.aliases = saved
						return r, err
					}
				}
			}
			return nil, err
		}
		return &ColRef{ID: sc.id, Name: sc.name, T: sc.t}, nil
	case *sqlparser.Literal, *sqlparser.NullVal, sqlparser.BoolVal:
		return c.literal(e)
	case *sqlparser.IntroducerExpr:
		return c.bind(x.Expr)
	case *sqlparser.AndExpr:
		return c.logic("and", x.Left, x.Right)
	case *sqlparser.OrExpr:
		return c.logic("or", x.Left, x.Right)
	case *sqlparser.XorExpr:
		l, err := c.bindBool(x.Left, "XOR")
		if err != nil {
			return nil, err
		}
		r, err := c.bindBool(x.Right, "XOR")
		if err != nil {
			return nil, err
		}
		return &Func{Name: "ne", Args: []Expr{l, r}, T: expr.Boolean}, nil
	case *sqlparser.NotExpr:
		a, err := c.bindBool(x.Expr, "NOT")
		if err != nil {
			return nil, err
		}
		return &Func{Name: "not", Args: []Expr{a}, T: expr.Boolean}, nil
	case *sqlparser.ComparisonExpr:
		return c.comparison(x)
	case *sqlparser.BetweenExpr:
		v, err := c.bind(x.Left)
		if err != nil {
			return nil, err
		}
		lo, err := c.bind(x.From)
		if err != nil {
			return nil, err
		}
		hi, err := c.bind(x.To)
		if err != nil {
			return nil, err
		}
		ge, err := compare("ge", v, lo)
		if err != nil {
			return nil, err
		}
		le, err := compare("le", v, hi)
		if err != nil {
			return nil, err
		}
		if !x.IsBetween {
			lt, _ := compare("lt", v, lo)
			gt, _ := compare("gt", v, hi)
			return &Func{Name: "or", Args: []Expr{lt, gt}, T: expr.Boolean}, nil
		}
		return &Func{Name: "and", Args: []Expr{ge, le}, T: expr.Boolean}, nil
	case *sqlparser.IsExpr:
		return c.is(x)
	case *sqlparser.BinaryExpr:
		return c.binary(x)
	case *sqlparser.UnaryExpr:
		// -9223372036854775808 is the smallest BIGINT, but its digits
		// alone do not fit one: bind the pair as that BIGINT, not as the
		// negated DOUBLE (which would lose precision).
		if lit, ok := x.Expr.(*sqlparser.Literal); ok && x.Operator == sqlparser.UMinusOp &&
			lit.Type == sqlparser.IntVal && strings.TrimLeft(lit.Val, "0") == "9223372036854775808" {
			return &Const{Value: int64(math.MinInt64), T: expr.Int64}, nil
		}
		a, err := c.bind(x.Expr)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.UPlusOp:
			return a, nil
		case sqlparser.UMinusOp:
			return negate(a)
		case sqlparser.TildaOp:
			return bindEntry("bitnot", "~", a)
		}
	case *sqlparser.IntervalDateExpr:
		return c.interval(x)
	case *sqlparser.CurTimeFuncExpr:
		return c.curTime(x)
	case *sqlparser.FuncExpr:
		if n := x.Name.Lowered(); (n == "current_date" || n == "curdate") && len(x.Exprs) == 0 {
			return c.currentDate(), nil
		}
		if x.Name.Lowered() == "try_cast" && x.Qualifier.IsEmpty() && len(x.Exprs) == 1 {
			if ce, ok := x.Exprs[0].(*sqlparser.CastExpr); ok {
				return c.tryCast(ce)
			}
		}
		return c.function(x)
	case *sqlparser.CaseExpr:
		return c.caseExpr(x)
	case *sqlparser.CastExpr:
		return c.cast(x.Expr, x.Type)
	case *sqlparser.ConvertExpr:
		return c.cast(x.Expr, x.Type)
	case *sqlparser.SubstrExpr:
		args := []sqlparser.Expr{x.Name, x.From}
		if x.To != nil {
			args = append(args, x.To)
		}
		return c.callFunc("substring", args)
	case *sqlparser.TrimFuncExpr:
		if x.TrimArg != nil {
			return nil, errs.New(errs.Unsupported, "TRIM with a custom character is not supported")
		}
		name := "trim"
		switch {
		case x.TrimFuncType == sqlparser.LTrimType || x.Type == sqlparser.LeadingTrimType:
			name = "ltrim"
		case x.TrimFuncType == sqlparser.RTrimType || x.Type == sqlparser.TrailingTrimType:
			name = "rtrim"
		}
		return c.callFunc(name, []sqlparser.Expr{x.StringArg})
	case *sqlparser.ExtractFuncExpr:
		return c.callFunc("date_part", []sqlparser.Expr{sqlparser.NewStrLiteral(x.IntervalType.ToString()), x.Expr})
	case *sqlparser.LocateExpr, *sqlparser.RegexpLikeExpr, *sqlparser.RegexpReplaceExpr, *sqlparser.JSONExtractExpr:
		return c.fnSyntax(e)
	case *sqlparser.StructExpr:
		return c.structLiteral(x)
	case *sqlparser.Subquery:
		return c.scalarSubquery(x)
	case *sqlparser.ExistsExpr:
		return c.existsMark(x.Subquery)
	}
	return nil, errs.NewNear(errs.Unsupported, sqlparser.String(e), "expression %s is not supported", sqlparser.String(e))
}

func (c *ectx) logic(op string, l, r sqlparser.Expr) (Expr, error) {
	le, err := c.bindBool(l, strings.ToUpper(op))
	if err != nil {
		return nil, err
	}
	re, err := c.bindBool(r, strings.ToUpper(op))
	if err != nil {
		return nil, err
	}
	var args []Expr
	for _, a := range []Expr{le, re} {
		if f, ok := a.(*Func); ok && f.Name == op { // flatten a AND b AND c
			args = append(args, f.Args...)
		} else {
			args = append(args, a)
		}
	}
	return &Func{Name: op, Args: args, T: expr.Boolean}, nil
}

// literal binds a constant.
func (c *ectx) literal(e sqlparser.Expr) (*Const, error) {
	switch x := e.(type) {
	case *sqlparser.NullVal:
		return &Const{T: expr.Null}, nil
	case sqlparser.BoolVal:
		return &Const{Value: bool(x), T: expr.Boolean}, nil
	case *sqlparser.Literal:
		switch x.Type {
		case sqlparser.StrVal:
			return &Const{Value: x.Val, T: expr.String}, nil
		case sqlparser.IntVal:
			v, err := strconv.ParseInt(x.Val, 10, 64)
			if err == nil {
				return &Const{Value: v, T: expr.Int64}, nil
			}
			return decimalLiteral(x.Val)
		case sqlparser.DecimalVal:
			return decimalLiteral(x.Val)
		case sqlparser.FloatVal:
			v, err := strconv.ParseFloat(x.Val, 64)
			if err != nil {
				return nil, errs.NewNear(errs.Binding, x.Val, "bad number %s", x.Val)
			}
			return &Const{Value: v, T: expr.Float64}, nil
		case sqlparser.TimestampVal, sqlparser.TimeVal:
			k, _, err := timeLiteral(x)
			return k, err
		case sqlparser.DateVal:
			d, err := parseDate(x.Val)
			if err != nil {
				return nil, err
			}
			return &Const{Value: d, T: expr.Date}, nil
		}
	}
	return nil, errs.NewNear(errs.Unsupported, sqlparser.String(e), "literal %s is not supported", sqlparser.String(e))
}

// decimalLiteral types 12.345 as DECIMAL(5,3), a decimal128 constant past
// 18 digits; past 38 digits → DOUBLE.
func decimalLiteral(s string) (*Const, error) {
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart, "0") + frac
	p := max(len(strings.TrimLeft(digits, "0")), len(frac), 1)
	if p <= expr.MaxDecimalPrecision {
		v, err := strconv.ParseInt(intPart+frac, 10, 64)
		if err == nil {
			return &Const{Value: v, T: expr.Decimal(int32(p), int32(len(frac)))}, nil
		}
	}
	if p <= expr.MaxWidePrecision {
		if v, ok := expr.ParseDecimal128(s, int32(len(frac))); ok {
			return &Const{Value: v, T: expr.Decimal(max(int32(p), expr.MaxDecimalPrecision+1), int32(len(frac)))}, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, errs.NewNear(errs.Binding, s, "bad number %s", s)
	}
	return &Const{Value: f, T: expr.Float64}, nil
}

// negate is unary minus, folded for constants.
func negate(a Expr) (Expr, error) {
	if k, ok := a.(*Const); ok && k.Value != nil {
		switch v := k.Value.(type) {
		case int64:
			if v != -v || v == 0 {
				return &Const{Value: -v, T: k.T}, nil
			}
		case float64:
			return &Const{Value: -v, T: k.T}, nil
		case decimal128.Num:
			return &Const{Value: v.Negate(), T: k.T}, nil
		}
	}
	if isNull(a.Type()) {
		return a, nil
	}
	if !isNumeric(a.Type()) {
		return nil, errs.New(errs.Binding, "unary minus cannot be applied to %s", expr.TypeName(a.Type()))
	}
	return &Func{Name: "neg", Args: []Expr{a}, T: a.Type()}, nil
}

var cmpNames = map[sqlparser.ComparisonExprOperator]string{
	sqlparser.EqualOp: "eq", sqlparser.NotEqualOp: "ne", sqlparser.LessThanOp: "lt",
	sqlparser.LessEqualOp: "le", sqlparser.GreaterThanOp: "gt", sqlparser.GreaterEqualOp: "ge",
}

// compare builds a comparison with its arguments made comparable.
func compare(op string, l, r Expr) (Expr, error) {
	l, r, err := compareArgs(op, l, r)
	if err != nil {
		return nil, err
	}
	return &Func{Name: op, Args: []Expr{l, r}, T: expr.Boolean}, nil
}

func (c *ectx) comparison(x *sqlparser.ComparisonExpr) (Expr, error) {
	if x.Modifier != 0 {
		return nil, errs.New(errs.Unsupported, "ANY/ALL comparisons are not supported")
	}
	if sq, ok := x.Right.(*sqlparser.Subquery); ok && (x.Operator == sqlparser.InOp || x.Operator == sqlparser.NotInOp) {
		if _, ok := x.Left.(sqlparser.ValTuple); ok {
			return nil, errs.New(errs.Unsupported, "row IN (subquery) is not supported")
		}
		l, err := c.bind(x.Left)
		if err != nil {
			return nil, err
		}
		m, err := c.inMark(l, sq)
		if err != nil || x.Operator == sqlparser.InOp {
			return m, err
		}
		return &Func{Name: "not", Args: []Expr{m}, T: expr.Boolean}, nil
	}
	l, err := c.bind(x.Left)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.InOp, sqlparser.NotInOp:
		return c.inList(x, l)
	case sqlparser.LikeOp, sqlparser.NotLikeOp, sqlparser.ILikeOp, sqlparser.NotILikeOp:
		if x.Escape != nil {
			if lit, ok := x.Escape.(*sqlparser.Literal); !ok || lit.Val != "\\" {
				return nil, errs.New(errs.Unsupported, "%s … ESCAPE other than '\\' is not supported", strings.ToUpper(strings.TrimPrefix(x.Operator.ToString(), "not ")))
			}
		}
		r, err := c.bind(x.Right)
		if err != nil {
			return nil, err
		}
		if l, err = castTo(l, expr.String); err != nil {
			return nil, err
		}
		if r, err = castTo(r, expr.String); err != nil {
			return nil, err
		}
		if x.Operator == sqlparser.ILikeOp || x.Operator == sqlparser.NotILikeOp {
			// ILIKE is LIKE over both sides lowered: '%', '_' and '\\'
			// are not letters, so lowering the pattern keeps its meaning.
			l = &Func{Name: "lower", Args: []Expr{l}, T: expr.String}
			r = &Func{Name: "lower", Args: []Expr{r}, T: expr.String}
		}
		name := "like"
		if x.Operator == sqlparser.NotLikeOp || x.Operator == sqlparser.NotILikeOp {
			name = "not_like"
		}
		return &Func{Name: name, Args: []Expr{l, r}, T: expr.Boolean}, nil
	case sqlparser.RegexpOp, sqlparser.NotRegexpOp:
		return c.regexpOp(x, l)
	case sqlparser.NullSafeEqualOp:
		r, err := c.bind(x.Right)
		if err != nil {
			return nil, err
		}
		// a <=> b: both NULL, or both non-NULL and equal.
		eq, err := compare("eq", l, r)
		if err != nil {
			return nil, err
		}
		ln := &Func{Name: "is_null", Args: []Expr{l}, T: expr.Boolean}
		rn := &Func{Name: "is_null", Args: []Expr{r}, T: expr.Boolean}
		bothNull := &Func{Name: "and", Args: []Expr{ln, rn}, T: expr.Boolean}
		return &Func{Name: "case", Args: []Expr{bothNull, &Const{Value: true, T: expr.Boolean},
			&Func{Name: "or", Args: []Expr{ln, rn}, T: expr.Boolean}, &Const{Value: false, T: expr.Boolean}, eq}, T: expr.Boolean}, nil
	}
	name, ok := cmpNames[x.Operator]
	if !ok {
		return nil, errs.New(errs.Unsupported, "operator %s is not supported", x.Operator.ToString())
	}
	r, err := c.bind(x.Right)
	if err != nil {
		return nil, err
	}
	return compare(name, l, r)
}

func (c *ectx) inList(x *sqlparser.ComparisonExpr, l Expr) (Expr, error) {
	tuple, ok := x.Right.(sqlparser.ValTuple)
	if !ok {
		return nil, errs.New(errs.Unsupported, "IN %s is not supported", sqlparser.String(x.Right))
	}
	vals := []Expr{l}
	allConst := true
	for _, v := range tuple {
		e, err := c.bind(v)
		if err != nil {
			return nil, err
		}
		if _, ok := e.(*Const); !ok {
			allConst = false
		}
		vals = append(vals, e)
	}
	neg := x.Operator == sqlparser.NotInOp
	if allConst {
		if args, numeric := exactNumericList(l, vals[1:]); numeric {
			if len(args) > 1 {
				name := "in"
				if neg {
					name = "not_in"
				}
				return &Func{Name: name, Args: args, T: expr.Boolean}, nil
			}
			allConst = false // none can match: compared one by one below
		}
	}
	if allConst {
		t, cast, err := unify("IN list", vals)
		if err == nil && !isNull(t) {
			// A string-typed list compared with a date column is dates.
			folded := true
			for _, v := range cast[1:] {
				if _, ok := v.(*Const); !ok {
					folded = false
				}
			}
			if folded {
				name := "in"
				if neg {
					name = "not_in"
				}
				return &Func{Name: name, Args: cast, T: expr.Boolean}, nil
			}
		}
	}
	// Otherwise: x = v1 OR x = v2 … (NOT IN: AND of <>).
	var parts []Expr
	op, join := "eq", "or"
	if neg {
		op, join = "ne", "and"
	}
	for _, v := range vals[1:] {
		p, err := compare(op, l, v)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return &Func{Name: join, Args: parts, T: expr.Boolean}, nil
}

func (c *ectx) is(x *sqlparser.IsExpr) (Expr, error) {
	a, err := c.bind(x.Left)
	if err != nil {
		return nil, err
	}
	switch x.Right {
	case sqlparser.IsNullOp:
		return &Func{Name: "is_null", Args: []Expr{a}, T: expr.Boolean}, nil
	case sqlparser.IsNotNullOp:
		return &Func{Name: "is_not_null", Args: []Expr{a}, T: expr.Boolean}, nil
	}
	if a, err = c.bindBool(x.Left, "IS"); err != nil {
		return nil, err
	}
	// IS [NOT] TRUE/FALSE never yields NULL: coalesce(a = v, false).
	want := x.Right == sqlparser.IsTrueOp || x.Right == sqlparser.IsNotTrueOp
	eq := &Func{Name: "eq", Args: []Expr{a, &Const{Value: want, T: expr.Boolean}}, T: expr.Boolean}
	r := Expr(&Func{Name: "coalesce", Args: []Expr{eq, &Const{Value: false, T: expr.Boolean}}, T: expr.Boolean})
	if x.Right == sqlparser.IsNotTrueOp || x.Right == sqlparser.IsNotFalseOp {
		r = &Func{Name: "not", Args: []Expr{r}, T: expr.Boolean}
	}
	return r, nil
}

func (c *ectx) binary(x *sqlparser.BinaryExpr) (Expr, error) {
	l, err := c.bind(x.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.bind(x.Right)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.PlusOp:
		return arith("add", l, r)
	case sqlparser.MinusOp:
		return arith("sub", l, r)
	case sqlparser.MultOp:
		return arith("mul", l, r)
	case sqlparser.DivOp:
		return arith("div", l, r)
	case sqlparser.ModOp:
		return arith("mod", l, r)
	case sqlparser.IntDivOp:
		return intDiv(l, r)
	case sqlparser.ConcatOp:
		return concatOp(x, l, r)
	}
	if fn, ok := bitOps[x.Operator]; ok {
		return bindEntry(fn, x.Operator.ToString(), l, r)
	}
	return nil, errs.New(errs.Unsupported, "operator %s is not supported", x.Operator.ToString())
}

// concatOp is a || b: string concatenation, as in DuckDB, PostgreSQL and
// the SQL standard (MySQL's PIPES_AS_CONCAT mode); the operands are cast
// to VARCHAR and a NULL one makes the result NULL (concat's rule). A
// BOOLEAN operand is refused: DuckDB concatenates 'true'/'false', MySQL
// by default reads || as OR, and either reading would be a surprise to
// the other's users. Nested values are refused too (DuckDB's list ||
// list appends lists; gq has no list concatenation).
func concatOp(x *sqlparser.BinaryExpr, l, r Expr) (Expr, error) {
	for i, e := range []Expr{l, r} {
		ast := []sqlparser.Expr{x.Left, x.Right}[i]
		switch t := e.Type(); {
		case isBool(t):
			return nil, errs.NewNear(errs.Unsupported, "||", "|| concatenates strings in gq (as in DuckDB and PostgreSQL), and %s is a BOOLEAN: for a logical OR write OR; to join the text, CAST it AS CHAR", sqlparser.String(ast))
		case expr.IsNested(t):
			return nil, errs.NewNear(errs.Unsupported, "||", "|| on %s values is not supported (gq's || concatenates strings)", expr.TypeName(t))
		}
	}
	return bindEntry("concat", "||", l, r)
}

// intDiv is a DIV b for integers: (a - a % b) / b is exact, so the decimal
// division and the cast back lose nothing, and it truncates toward zero.
func intDiv(l, r Expr) (Expr, error) {
	exact := func(t arrow.DataType) bool { return isInt(t) || isDecimal(t) || isNull(t) }
	if !exact(l.Type()) || !exact(r.Type()) {
		return nil, errs.New(errs.Unsupported, "DIV is only supported for integers and decimals, not %s and %s", expr.TypeName(l.Type()), expr.TypeName(r.Type()))
	}
	if !isInt(l.Type()) || !isInt(r.Type()) {
		// l - l MOD r is an exact multiple of r (MOD keeps the dividend's
		// sign, so the quotient truncates toward zero, as DIV does), and
		// decimal MOD, subtraction and division are exact: the quotient
		// is DIV's, whatever the scales. A zero divisor gives NULL.
		m, err := arith("mod", l, r)
		if err != nil {
			return nil, err
		}
		num, err := arith("sub", l, m)
		if err != nil {
			return nil, err
		}
		q, err := arith("div", num, r)
		if err != nil {
			return nil, err
		}
		return castTo(q, expr.Int64)
	}
	d0 := expr.Decimal(18, 0)
	num := &Func{Name: "sub", Args: []Expr{l, &Func{Name: "mod", Args: []Expr{l, r}, T: expr.Int64}}, T: expr.Int64}
	a, _ := castTo(num, d0)
	b, _ := castTo(r, d0)
	q := &Func{Name: "div", Args: []Expr{a, b}, T: d0}
	return castTo(q, expr.Int64)
}

// interval binds date ± INTERVAL n unit, DATE_ADD, DATE_SUB, ADDDATE,
// SUBDATE, and INTERVAL n unit on its own (an INTERVAL constant, which an
// interval ± INTERVAL n unit adds to an interval).
func (c *ectx) interval(x *sqlparser.IntervalDateExpr) (Expr, error) {
	if x.Syntax == sqlparser.IntervalDateExprStandalone {
		return c.intervalValue(x)
	}
	d, err := c.bind(x.Date)
	if err != nil {
		return nil, err
	}
	if isInterval(d.Type()) && x.Unit != sqlparser.IntervalNone {
		iv, err := c.intervalValue(x)
		if err != nil {
			return nil, err
		}
		op := "add"
		if x.IsSubtraction() {
			op = "sub"
		}
		e, _, err := timeArith(op, d, iv)
		return e, err
	}
	if isTimestamp(d.Type()) || isTime(d.Type()) || subDayUnit(x.Unit) {
		return c.timeInterval(d, x)
	}
	if d, err = toDate(d); err != nil {
		return nil, err
	}
	n, err := c.bind(x.Interval)
	if err != nil {
		return nil, err
	}
	if k, ok := n.(*Const); ok && isString(k.T) {
		v, perr := strconv.ParseInt(strings.TrimSpace(k.Value.(string)), 10, 64)
		if perr != nil {
			return nil, errs.NewNear(errs.Binding, k.Value.(string), "bad interval %q", k.Value.(string))
		}
		n = &Const{Value: v, T: expr.Int64}
	}
	if !isInt(n.Type()) {
		return nil, errs.New(errs.Unsupported, "interval of %s is not supported (integers only)", expr.TypeName(n.Type()))
	}
	switch x.Syntax {
	case sqlparser.IntervalDateExprDateSub, sqlparser.IntervalDateExprSubdate, sqlparser.IntervalDateExprBinarySub:
		if n, err = negate(n); err != nil {
			return nil, err
		}
	}
	return dateAdd(d, n, x.Unit)
}

func toDate(d Expr) (Expr, error) {
	if k, ok := d.(*Const); ok && isString(k.T) {
		return foldCast(k, expr.Date)
	}
	if !isDate(d.Type()) && !isNull(d.Type()) {
		return nil, errs.New(errs.Binding, "date arithmetic needs a DATE, got %s", expr.TypeName(d.Type()))
	}
	return castTo(d, expr.Date)
}

// dateAdd adds n units to date d, folding constants.
func dateAdd(d, n Expr, unit sqlparser.IntervalType) (Expr, error) {
	mult, name := int64(1), "date_add_days"
	switch unit {
	case sqlparser.IntervalDay, sqlparser.IntervalNone: // ADDDATE(d, n): days
	case sqlparser.IntervalWeek:
		mult = 7
	case sqlparser.IntervalMonth:
		name = "date_add_months"
	case sqlparser.IntervalQuarter:
		mult, name = 3, "date_add_months"
	case sqlparser.IntervalYear:
		mult, name = 12, "date_add_months"
	default:
		return nil, errs.New(errs.Unsupported, "interval unit %s is not supported", unit.ToString())
	}
	if mult != 1 {
		if k, ok := n.(*Const); ok && k.Value != nil {
			n = &Const{Value: k.Value.(int64) * mult, T: expr.Int64}
		} else {
			n = &Func{Name: "mul", Args: []Expr{n, &Const{Value: mult, T: expr.Int64}}, T: expr.Int64}
		}
	}
	dk, ok1 := d.(*Const)
	nk, ok2 := n.(*Const)
	if ok1 && ok2 && dk.Value != nil && nk.Value != nil {
		days := dk.Value.(int32)
		if name == "date_add_days" {
			return &Const{Value: days + int32(nk.Value.(int64)), T: expr.Date}, nil
		}
		return &Const{Value: expr.AddMonths(days, nk.Value.(int64)), T: expr.Date}, nil
	}
	return &Func{Name: name, Args: []Expr{d, n}, T: expr.Date}, nil
}

func (c *ectx) caseExpr(x *sqlparser.CaseExpr) (Expr, error) {
	var subject Expr
	if x.Expr != nil {
		var err error
		if subject, err = c.bind(x.Expr); err != nil {
			return nil, err
		}
	}
	var conds, vals []Expr
	for _, w := range x.Whens {
		var cond Expr
		var err error
		if subject != nil {
			v, err := c.bind(w.Cond)
			if err != nil {
				return nil, err
			}
			if cond, err = compare("eq", subject, v); err != nil {
				return nil, err
			}
		} else if cond, err = c.bindBool(w.Cond, "WHEN"); err != nil {
			return nil, err
		}
		v, err := c.bind(w.Val)
		if err != nil {
			return nil, err
		}
		conds, vals = append(conds, cond), append(vals, v)
	}
	var els Expr = &Const{T: expr.Null}
	if x.Else != nil {
		var err error
		if els, err = c.bind(x.Else); err != nil {
			return nil, err
		}
	}
	return makeCase(conds, append(vals, els))
}

// makeCase builds case(c1, v1, …, else) with the values unified; vals has
// one more element (the else) than conds.
func makeCase(conds, vals []Expr) (Expr, error) {
	t, vals, err := unify("CASE", vals)
	if err != nil {
		return nil, err
	}
	var args []Expr
	for i, cnd := range conds {
		args = append(args, cnd, vals[i])
	}
	args = append(args, vals[len(vals)-1])
	return &Func{Name: "case", Args: args, T: t}, nil
}

func (c *ectx) cast(e sqlparser.Expr, ct *sqlparser.ConvertType) (Expr, error) {
	a, err := c.bind(e)
	if err != nil {
		return nil, err
	}
	t, err := SQLType(ct.Type, ct.Length, ct.Scale, false)
	if err != nil {
		return nil, err
	}
	return castValue(a, t)
}

// tryCast binds TRY_CAST(x AS type) (the grammar's try_cast(CAST(x AS
// type))): the cast, NULL where a value does not convert. A constant that
// does not convert is NULL at once.
func (c *ectx) tryCast(ce *sqlparser.CastExpr) (Expr, error) {
	a, err := c.bind(ce.Expr)
	if err != nil {
		return nil, err
	}
	t, err := SQLType(ce.Type.Type, ce.Type.Length, ce.Type.Scale, false)
	if err != nil {
		return nil, err
	}
	r, err := castValue(a, t)
	if err != nil {
		if _, ok := a.(*Const); ok && errs.KindOf(err) != errs.Unsupported {
			return &Const{T: t}, nil
		}
		return nil, err
	}
	if f, ok := r.(*Func); ok && f.Name == "cast" {
		r = &Func{Name: "try_cast", Args: f.Args, T: f.T}
	}
	return r, nil
}

// castValue is CAST(a AS t) of a bound a.
func castValue(a Expr, t arrow.DataType) (Expr, error) {
	if isBool(a.Type()) && !isString(t) {
		// Booleans convert to numbers as 1/0.
		a = &Func{Name: "case", Args: []Expr{a, &Const{Value: int64(1), T: expr.Int64}, &Func{Name: "is_null", Args: []Expr{a}, T: expr.Boolean}, &Const{T: expr.Int64}, &Const{Value: int64(0), T: expr.Int64}}, T: expr.Int64}
	}
	return castTo(a, t)
}

// exactNumericList converts an IN list of integer and decimal constants to
// the type of x, an integer or decimal, exactly: a constant with no value
// of that type (digits below x's scale, or beyond int64 at it) can never
// equal x and is left out. Unifying x with the list instead would cast x
// to a decimal that may not hold it (BIGINT 9223372036854775807 has no
// DECIMAL(18,1) value). numeric is false when x or a constant is of
// another type.
func exactNumericList(x Expr, list []Expr) (args []Expr, numeric bool) {
	xt := x.Type()
	if !isInt(xt) && !isDecimal(xt) {
		return nil, false
	}
	if isWide(xt) {
		return nil, false
	}
	_, xs := expr.DecimalPS(xt)
	args = []Expr{x}
	for _, e := range list {
		c := e.(*Const)
		if c.Value == nil {
			args = append(args, &Const{Value: nil, T: xt})
			continue
		}
		if !isInt(c.T) && !isDecimal(c.T) || isWide(c.T) {
			return nil, false
		}
		_, cs := expr.DecimalPS(c.T)
		v := c.Value.(int64)
		if cs > xs {
			p := pow10(cs - xs)
			if v%p != 0 {
				continue
			}
			v /= p
		} else if m := pow10(xs - cs); v > math.MaxInt64/m || v < math.MinInt64/m {
			continue
		} else {
			v *= m
		}
		args = append(args, &Const{Value: v, T: xt})
	}
	return args, true
}
