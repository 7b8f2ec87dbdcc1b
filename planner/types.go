package planner

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// Type rules of the binder (MySQL's, restricted to gq's value types). The
// evaluator trusts the argument types stated for expr's operators (the
// functions' own type rules are their registry entries'), so every
// implicit conversion becomes an explicit "cast" Func here.
//
// Decimal result types follow DuckDB's formulas for + − ×, MySQL's for ÷
// and %, capped at 38 digits (expr.MaxWidePrecision):
//
//	a ± b   s = max(s1,s2), p = max(p1−s1, p2−s2) + s + 1
//	a × b   s = s1+s2,      p = p1 + p2 (s1+s2 > 38 is an error)
//	a ÷ b   s = s1+4,       p = p1 + s2 + 4 (MySQL's div_precision_increment)
//	a % b   s = max(s1,s2), p = max(p1−s1, p2−s2) + s
//
// A BIGINT operand counts as DECIMAL(19,0), an integer literal as its own
// digits. Up to 18 digits the type is a Decimal64 (int64, the fast path),
// beyond a Decimal128 (whose arithmetic still runs in int64 where the
// values fit, see expr's wide.go). A value past 38 digits is an Execution
// error at run time; a cast checks the target's own precision.
//
// Where DuckDB (1.5) differs: when both operands are decimals of at most
// 18 digits, it keeps + − × at DECIMAL(18,s) and reports an overflow past
// 18 digits; gq types them by the formulas above, so those results are
// exact up to 38 digits (l_extendedprice * l_discount is DECIMAL(30,4)
// here, DECIMAL(18,4) there; same values wherever DuckDB answers).

func isDecimal(t arrow.DataType) bool { return expr.IsDecimal(t) }
func isWide(t arrow.DataType) bool    { return t.ID() == arrow.DECIMAL128 }
func isInt(t arrow.DataType) bool     { return t.ID() == arrow.INT64 }
func isFloat(t arrow.DataType) bool   { return t.ID() == arrow.FLOAT64 }
func isString(t arrow.DataType) bool  { return t.ID() == arrow.STRING }
func isDate(t arrow.DataType) bool    { return t.ID() == arrow.DATE32 }
func isBool(t arrow.DataType) bool    { return t.ID() == arrow.BOOL }
func isNull(t arrow.DataType) bool    { return t.ID() == arrow.NULL }
func isNumeric(t arrow.DataType) bool { return isInt(t) || isDecimal(t) || isFloat(t) }

// castTo converts e to t: a no-op when the types are equal, a folded
// constant when e is a constant that converts exactly, else a cast Func.
func castTo(e Expr, t arrow.DataType) (Expr, error) {
	if arrow.TypeEqual(e.Type(), t) {
		return e, nil
	}
	if c, ok := e.(*Const); ok {
		return foldCast(c, t)
	}
	return &Func{Name: "cast", Args: []Expr{e}, T: t}, nil
}

// foldCast converts a constant at bind time where that is exact and cheap;
// other conversions stay a cast Func. A string that is not a valid date is
// a Binding error (MySQL compares a date with a string as dates).
func foldCast(c *Const, t arrow.DataType) (Expr, error) {
	if c.Value == nil {
		return &Const{Value: nil, T: t}, nil
	}
	from := c.T
	if e, ok, err := foldTimeCast(c, t); ok {
		return e, err
	}
	if isWide(t) && (isInt(from) || isDecimal(from)) {
		_, s := expr.DecimalPS(from)
		if isInt(from) {
			s = 0
		}
		if v, ok := expr.WidenConstant(c.Value, s, t); ok {
			return &Const{Value: v, T: t}, nil
		}
	}
	if isWide(from) || isWide(t) {
		// The rest (rounding, narrowing) is folded by expr's compile.
		return &Func{Name: "cast", Args: []Expr{c}, T: t}, nil
	}
	switch {
	case isString(from) && isDate(t):
		d, err := parseDate(c.Value.(string))
		if err != nil {
			return nil, err
		}
		return &Const{Value: d, T: t}, nil
	case isInt(from) && isDecimal(t):
		_, s := expr.DecimalPS(t)
		v := c.Value.(int64)
		m := pow10(s)
		if v > math.MaxInt64/m || v < math.MinInt64/m || !inPrecision(v*m, t) {
			break // the run-time cast reports it
		}
		return &Const{Value: v * m, T: t}, nil
	case isDecimal(from) && isDecimal(t):
		_, s1 := expr.DecimalPS(from)
		_, s2 := expr.DecimalPS(t)
		v := c.Value.(int64)
		if s2 >= s1 {
			m := pow10(s2 - s1)
			if v > math.MaxInt64/m || v < math.MinInt64/m || !inPrecision(v*m, t) {
				break
			}
			return &Const{Value: v * m, T: t}, nil
		}
	case isInt(from) && isFloat(t):
		return &Const{Value: float64(c.Value.(int64)), T: t}, nil
	case isDecimal(from) && isFloat(t):
		_, s := expr.DecimalPS(from)
		return &Const{Value: expr.DecimalToFloat64(c.Value.(int64), s), T: t}, nil
	}
	return &Func{Name: "cast", Args: []Expr{c}, T: t}, nil
}

// inPrecision reports whether the unscaled decimal v has at most t's
// precision digits (DECIMAL(18,s) holds any int64), as a cast requires.
func inPrecision(v int64, t arrow.DataType) bool {
	p, _ := expr.DecimalPS(t)
	if p >= expr.MaxDecimalPrecision {
		return true
	}
	limit := pow10(p)
	return v < limit && v > -limit
}

func pow10(n int32) int64 {
	r := int64(1)
	for i := int32(0); i < n; i++ {
		r *= 10
	}
	return r
}

// parseDate parses YYYY-MM-DD (MySQL also accepts one-digit month/day).
func parseDate(s string) (int32, error) {
	t, err := time.Parse("2006-1-2", strings.TrimSpace(s))
	if err != nil {
		return 0, errs.NewNear(errs.Binding, s, "invalid date %q", s)
	}
	return int32(t.Unix() / 86400), nil
}

// commonType is the type two values meet in, for comparisons, IN lists,
// CASE branches, COALESCE and UNION columns.
func commonType(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case isNull(a):
		return b, true
	case isNull(b):
		return a, true
	case arrow.TypeEqual(a, b):
		return a, true
	case expr.NullFills(a, b): // [] meets BIGINT[]
		return b, true
	case expr.NullFills(b, a):
		return a, true
	case isFloat(a) && isNumeric(b), isFloat(b) && isNumeric(a):
		return expr.Float64, true
	case isNumeric(a) && isNumeric(b): // Int64/Decimal mixes
		p1, s1 := expr.DecimalPS(a)
		p2, s2 := expr.DecimalPS(b)
		s := max(s1, s2)
		return expr.Decimal(max(p1-s1, p2-s2)+s, s), true
	case isDate(a) && isString(b), isString(a) && isDate(b):
		return expr.Date, true
	}
	return commonTimeType(a, b)
}

// unify casts every expression to one common type.
func unify(what string, es []Expr) (arrow.DataType, []Expr, error) {
	anyDec := false
	for _, e := range es {
		anyDec = anyDec || isDecimal(e.Type())
	}
	t := arrow.DataType(expr.Null)
	for _, e := range es {
		et := e.Type()
		if _, ok := e.(*Const); ok && anyDec && isInt(et) {
			et = decOperand(e) // an integer literal has its own digit count
		}
		nt, ok := commonType(t, et)
		if !ok {
			return nil, nil, errs.New(errs.Binding, "%s mixes incompatible types %s and %s", what, expr.TypeName(t), expr.TypeName(e.Type()))
		}
		t = nt
	}
	out := make([]Expr, len(es))
	for i, e := range es {
		c, err := castTo(e, t)
		if err != nil {
			return nil, nil, err
		}
		out[i] = c
	}
	return t, out, nil
}

// compareArgs prepares the two sides of a comparison: same type family
// (decimals may keep different scales; the evaluator aligns them).
func compareArgs(op string, l, r Expr) (Expr, Expr, error) {
	lt, rt := l.Type(), r.Type()
	if err := nestedUse("", &Func{Name: "eq", Args: []Expr{l, r}}); err != nil {
		return nil, nil, err
	}
	if isDecimal(lt) && isDecimal(rt) {
		return l, r, nil
	}
	if isDecimal(lt) && isInt(rt) {
		r, err := castTo(r, expr.Decimal(18, 0))
		return l, r, err
	}
	if isInt(lt) && isDecimal(rt) {
		l, err := castTo(l, expr.Decimal(18, 0))
		return l, r, err
	}
	// A string constant compared with a number is read as that number.
	if _, ok := r.(*Const); ok && isString(rt) && isNumeric(lt) {
		r, err := castTo(r, lt)
		return l, r, err
	}
	if _, ok := l.(*Const); ok && isString(lt) && isNumeric(rt) {
		l, err := castTo(l, rt)
		return l, r, err
	}
	t, ok := commonType(lt, rt)
	if !ok {
		return nil, nil, errs.New(errs.Binding, "cannot compare %s with %s (%s)", expr.TypeName(lt), expr.TypeName(rt), op)
	}
	var err error
	if l, err = castTo(l, t); err != nil {
		return nil, nil, err
	}
	r, err = castTo(r, t)
	return l, r, err
}

// arith types a binary arithmetic operator (add, sub, mul, div, mod).
func arith(op string, l, r Expr) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	if err := nestedUse("", &Func{Name: op, Args: []Expr{l, r}}); err != nil {
		return nil, err
	}
	if isNull(lt) && isNull(rt) {
		return &Const{Value: nil, T: expr.Null}, nil
	}
	if isNull(lt) {
		l, lt = &Const{T: rt}, rt
	}
	if isNull(rt) {
		r, rt = &Const{T: lt}, lt
	}
	if e, ok, err := timeArith(op, l, r); ok {
		return e, err
	}
	if !isNumeric(lt) || !isNumeric(rt) {
		return nil, errs.New(errs.Binding, "operator %s cannot be applied to %s and %s", opSymbol[op], expr.TypeName(lt), expr.TypeName(rt))
	}
	cast2 := func(t1, t2 arrow.DataType) error {
		var err error
		if l, err = castTo(l, t1); err != nil {
			return err
		}
		r, err = castTo(r, t2)
		return err
	}
	if isFloat(lt) || isFloat(rt) {
		if err := cast2(expr.Float64, expr.Float64); err != nil {
			return nil, err
		}
		return &Func{Name: op, Args: []Expr{l, r}, T: expr.Float64}, nil
	}
	if isInt(lt) && isInt(rt) && op != "div" {
		return &Func{Name: op, Args: []Expr{l, r}, T: expr.Int64}, nil
	}
	// Decimal arithmetic; an Int64 operand becomes DECIMAL(18,0) (a
	// literal keeps its own digit count, as MySQL types it).
	lt, rt = decOperand(l), decOperand(r)
	if op == "mod" { // mod wants equal scales
		p1, s1 := expr.DecimalPS(lt)
		p2, s2 := expr.DecimalPS(rt)
		s := max(s1, s2)
		lt, rt = expr.Decimal(p1-s1+s, s), expr.Decimal(p2-s2+s, s)
	}
	if err := cast2(lt, rt); err != nil {
		return nil, err
	}
	p1, s1 := expr.DecimalPS(lt)
	p2, s2 := expr.DecimalPS(rt)
	var t arrow.DataType
	switch op {
	case "add", "sub":
		s := max(s1, s2)
		t = expr.Decimal(max(p1-s1, p2-s2)+s+1, s)
	case "mul":
		if s1+s2 > expr.MaxWidePrecision {
			return nil, errs.New(errs.Unsupported, "decimal multiplication needs scale %d (max %d)", s1+s2, expr.MaxWidePrecision)
		}
		t = expr.Decimal(p1+p2, s1+s2)
	case "div":
		if s1+4 > expr.MaxWidePrecision {
			return nil, errs.New(errs.Unsupported, "decimal division needs scale %d (max %d)", s1+4, expr.MaxWidePrecision)
		}
		t = expr.Decimal(p1+s2+4, s1+4)
	case "mod":
		t = expr.Decimal(max(p1-s1, p2-s2)+s1, s1)
	}
	return &Func{Name: op, Args: []Expr{l, r}, T: t}, nil
}

// decOperand is the decimal type an arithmetic operand takes part as.
func decOperand(e Expr) arrow.DataType {
	t := e.Type()
	if isDecimal(t) {
		return t
	}
	if c, ok := e.(*Const); ok && c.Value != nil {
		v := strconv.FormatInt(c.Value.(int64), 10)
		return expr.Decimal(int32(len(strings.TrimPrefix(v, "-"))), 0)
	}
	return expr.Decimal(19, 0)
}

var opSymbol = map[string]string{"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%"}

// aggType is an aggregate's result type (see AggCall).
func aggType(fn string, arg arrow.DataType) (arrow.DataType, error) {
	switch fn {
	case "count", "count_star":
		return expr.Int64, nil
	case "min", "max":
		return arg, nil
	case "sum", "avg":
		// Sums are exact in 128 bits and typed DECIMAL(38,s) (DuckDB's
		// HUGEINT and DECIMAL(38,s) sums); an average is that sum divided,
		// at MySQL's scale s+4.
		switch {
		case isNull(arg):
			return expr.Float64, nil
		case isInt(arg) || isDecimal(arg):
			_, s := expr.DecimalPS(arg)
			if fn == "avg" {
				s += 4
			}
			return expr.Decimal(expr.MaxWidePrecision, min(s, expr.MaxWidePrecision)), nil
		case isFloat(arg):
			return expr.Float64, nil
		}
		return nil, errs.New(errs.Binding, "%s() of %s is not supported", fn, expr.TypeName(arg))
	}
	return nil, errs.New(errs.Internal, "unknown aggregate %s", fn)
}
