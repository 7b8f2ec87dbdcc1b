package planner

import (
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
	"gq/parser/sqlparser"
)

// Binding of the time types (expr/timestamp.go): their SQL names, literals,
// the types they meet in, constant casts checked at binding, arithmetic
// (DuckDB's: timestamp ± interval, timestamp − timestamp is an interval,
// date − date a number of days) and now()/current_*.

func isTimestamp(t arrow.DataType) bool { return expr.IsTimestamp(t) }
func isTime(t arrow.DataType) bool      { return t.ID() == arrow.TIME64 }
func isInterval(t arrow.DataType) bool  { return t.ID() == arrow.INTERVAL_MONTH_DAY_NANO }

// timeSQLType is the time type a CAST or column names; ok is false for
// other names. DATETIME is MySQL's name for TIMESTAMP.
func timeSQLType(name string) (arrow.DataType, bool) {
	switch strings.ToLower(strings.Join(strings.Fields(name), " ")) {
	case "timestamp", "datetime", "timestamp without time zone":
		return expr.Timestamp, true
	case "timestamptz", "timestamp with time zone":
		return expr.TimestampTZ, true
	case "time", "time without time zone":
		return expr.Time, true
	case "interval":
		return expr.Interval, true
	}
	return nil, false
}

// timeLiteral binds TIMESTAMP '…' and TIME '…'; ok is false for other
// literals. A bad literal is an error naming it, at its position.
func timeLiteral(x *sqlparser.Literal) (c *Const, ok bool, err error) {
	switch x.Type {
	case sqlparser.TimestampVal:
		us, _, good := expr.ParseTimestamp(x.Val, false)
		if !good {
			return nil, true, errs.NewNear(errs.Binding, x.Val, "invalid TIMESTAMP literal %q: expected YYYY-MM-DD[ HH:MM:SS[.ffffff]][+HH[:MM]]", x.Val)
		}
		return &Const{Value: us, T: expr.Timestamp}, true, nil
	case sqlparser.TimeVal:
		us, good := expr.ParseTime(x.Val)
		if !good {
			return nil, true, errs.NewNear(errs.Binding, x.Val, "invalid TIME literal %q: expected HH:MM[:SS[.ffffff]]", x.Val)
		}
		return &Const{Value: us, T: expr.Time}, true, nil
	}
	return nil, false, nil
}

// commonTimeType is the type two values meet in where one is a time type
// (DuckDB's rules: a date widens to a timestamp, a timestamp to
// TIMESTAMPTZ, a string reads as the other side's type).
func commonTimeType(a, b arrow.DataType) (arrow.DataType, bool) {
	for range 2 {
		switch {
		case isTimestamp(a) && isTimestamp(b):
			return expr.TimestampTZ, true // equal types never get here
		case isTimestamp(a) && (isDate(b) || isString(b)):
			return a, true
		case (isTime(a) || isInterval(a)) && isString(b):
			return a, true
		}
		a, b = b, a
	}
	return nil, false
}

// foldTimeCast reads a string constant as a time type at binding, so that
// a bad one is an error naming the text where the query has it; handled
// is false for other casts.
func foldTimeCast(c *Const, t arrow.DataType) (e Expr, handled bool, err error) {
	s, ok := c.Value.(string)
	if !ok {
		return nil, false, nil
	}
	switch {
	case isTimestamp(t):
		us, _, good := expr.ParseTimestamp(s, expr.IsTZ(t))
		if !good {
			return nil, true, errs.NewNear(errs.Binding, s, "invalid %s %q: expected YYYY-MM-DD[ HH:MM:SS[.ffffff]][+HH[:MM]]", expr.TypeName(t), s)
		}
		return &Const{Value: us, T: t}, true, nil
	case isTime(t):
		us, good := expr.ParseTime(s)
		if !good {
			return nil, true, errs.NewNear(errs.Binding, s, "invalid TIME %q: expected HH:MM[:SS[.ffffff]]", s)
		}
		return &Const{Value: us, T: t}, true, nil
	case isInterval(t):
		iv, perr := expr.ParseInterval(s)
		if perr != nil {
			return nil, true, errs.NewNear(errs.Binding, s, "invalid INTERVAL %q: %v", s, perr)
		}
		return &Const{Value: iv, T: t}, true, nil
	}
	return nil, false, nil
}

// timeArith types + and − where a side is a time type (handled false
// otherwise):
//
//	TIMESTAMP[TZ] ± INTERVAL → same timestamp type; INTERVAL + TIMESTAMP too
//	DATE ± INTERVAL          → TIMESTAMP (DuckDB)
//	TIME ± INTERVAL           → TIME (wrapping at midnight)
//	TIMESTAMP − TIMESTAMP     → INTERVAL (days and µs)
//	DATE − DATE               → BIGINT days (DuckDB)
//	DATE ± BIGINT             → DATE (days)
//	INTERVAL ± INTERVAL       → INTERVAL
func timeArith(op string, l, r Expr) (e Expr, handled bool, err error) {
	lt, rt := l.Type(), r.Type()
	timeSide := func(t arrow.DataType) bool { return isTimestamp(t) || isTime(t) || isInterval(t) }
	if !timeSide(lt) && !timeSide(rt) && !(isDate(lt) && (isDate(rt) || isInt(rt))) && !(isInt(lt) && isDate(rt) && op == "add") {
		return nil, false, nil
	}
	if op != "add" && op != "sub" {
		return nil, true, errs.New(errs.Binding, "operator %s cannot be applied to %s and %s", opSymbol[op], expr.TypeName(lt), expr.TypeName(rt))
	}
	if op == "add" && (isInterval(lt) || isInt(lt)) && !isInterval(rt) && !isInt(rt) {
		l, r, lt, rt = r, l, rt, lt // interval + timestamp, n + date
	}
	if isDate(lt) && isInterval(rt) {
		if l, err = castTo(l, expr.Timestamp); err != nil {
			return nil, true, err
		}
		lt = expr.Timestamp
	}
	if isDate(rt) && isTimestamp(lt) && op == "sub" {
		if r, err = castTo(r, lt); err != nil {
			return nil, true, err
		}
		rt = lt
	}
	if isDate(lt) && isTimestamp(rt) && op == "sub" {
		if l, err = castTo(l, rt); err != nil {
			return nil, true, err
		}
		lt = rt
	}
	switch {
	case isTimestamp(lt) && isInterval(rt):
		return &Func{Name: "ts_" + op + "_interval", Args: []Expr{l, r}, T: lt}, true, nil
	case isTime(lt) && isInterval(rt):
		return &Func{Name: "time_" + op + "_interval", Args: []Expr{l, r}, T: lt}, true, nil
	case isTimestamp(lt) && isTimestamp(rt) && op == "sub":
		t, _ := commonType(lt, rt)
		if l, err = castTo(l, t); err != nil {
			return nil, true, err
		}
		if r, err = castTo(r, t); err != nil {
			return nil, true, err
		}
		return &Func{Name: "ts_diff", Args: []Expr{l, r}, T: expr.Interval}, true, nil
	case isDate(lt) && isDate(rt) && op == "sub":
		return &Func{Name: "date_diff_days", Args: []Expr{l, r}, T: expr.Int64}, true, nil
	case isDate(lt) && isInt(rt):
		if op == "sub" {
			if r, err = negate(r); err != nil {
				return nil, true, err
			}
		}
		e, err := dateAdd(l, r, sqlparser.IntervalDay)
		return e, true, err
	case isInterval(lt) && isInterval(rt):
		return &Func{Name: "interval_" + op, Args: []Expr{l, r}, T: expr.Interval}, true, nil
	}
	return nil, true, errs.New(errs.Binding, "operator %s cannot be applied to %s and %s", opSymbol[op], expr.TypeName(lt), expr.TypeName(rt))
}

// subDayUnit reports whether unit is below a day (an INTERVAL of it makes
// a DATE a TIMESTAMP).
func subDayUnit(u sqlparser.IntervalType) bool {
	switch u {
	case sqlparser.IntervalHour, sqlparser.IntervalMinute, sqlparser.IntervalSecond, sqlparser.IntervalMicrosecond:
		return true
	}
	return false
}

// timeInterval binds d ± INTERVAL n unit where d is a timestamp or a
// TIME, or the unit is below a day: n must be a constant (a number, or a
// string of one); the result is a timestamp (a TIME for a TIME).
func (c *ectx) timeInterval(d Expr, x *sqlparser.IntervalDateExpr) (Expr, error) {
	if k, ok := d.(*Const); ok && isString(k.T) {
		var err error
		if d, err = foldCast(k, expr.Timestamp); err != nil {
			return nil, err
		}
	}
	if isDate(d.Type()) || isNull(d.Type()) {
		var err error
		if d, err = castTo(d, expr.Timestamp); err != nil {
			return nil, err
		}
	}
	if !isTimestamp(d.Type()) && !isTime(d.Type()) {
		return nil, errs.New(errs.Binding, "interval arithmetic needs a DATE, TIMESTAMP or TIME, got %s", expr.TypeName(d.Type()))
	}
	iv, err := c.intervalValue(x)
	if err != nil {
		return nil, err
	}
	op := "add"
	switch x.Syntax {
	case sqlparser.IntervalDateExprDateSub, sqlparser.IntervalDateExprSubdate, sqlparser.IntervalDateExprBinarySub:
		op = "sub"
	}
	if k := iv.(*Const); k.Value == nil {
		return &Const{T: d.Type()}, nil // a NULL count
	}
	fn := "ts_" + op + "_interval"
	if isTime(d.Type()) {
		fn = "time_" + op + "_interval"
	}
	return &Func{Name: fn, Args: []Expr{d, iv}, T: d.Type()}, nil
}

// intervalValue is INTERVAL n unit as an INTERVAL constant: n must be a
// constant (a number, or a string of one). INTERVAL 'text' (no unit,
// DuckDB's) is the text cast to INTERVAL.
func (c *ectx) intervalValue(x *sqlparser.IntervalDateExpr) (Expr, error) {
	n, err := c.bind(x.Interval)
	if err != nil {
		return nil, err
	}
	if x.Unit == sqlparser.IntervalNone && x.Syntax == sqlparser.IntervalDateExprStandalone {
		k, ok := n.(*Const)
		if !ok || !isString(k.T) {
			return nil, errs.New(errs.Binding, "INTERVAL without a unit needs a string, as in INTERVAL '3 days'")
		}
		return foldCast(k, expr.Interval)
	}
	text := sqlparser.String(x.Interval)
	k, ok := n.(*Const)
	if !ok {
		return nil, errs.NewNear(errs.Unsupported, text, "INTERVAL %s %s on a timestamp: the count must be a constant", text, x.Unit.ToString())
	}
	if k.Value == nil {
		return &Const{T: expr.Interval}, nil
	}
	var count float64
	switch v := k.Value.(type) {
	case int64:
		count = float64(v)
	case float64:
		count = v
	case string:
		if count, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return nil, errs.NewNear(errs.Binding, v, "bad interval count %q", v)
		}
	default:
		if isDecimal(k.T) {
			_, s := expr.DecimalPS(k.T)
			count = expr.DecimalToFloat64(v.(int64), s)
		} else {
			return nil, errs.NewNear(errs.Binding, text, "bad interval count %s", text)
		}
	}
	unit, ok := expr.IntervalUnit(x.Unit.ToString())
	if !ok {
		return nil, errs.New(errs.Unsupported, "interval unit %s is not supported", x.Unit.ToString())
	}
	iv, ok := expr.ScaleInterval(unit, count)
	if !ok {
		return nil, errs.NewNear(errs.Binding, text, "INTERVAL %s %s is out of range or not a whole number of %ss", text, x.Unit.ToString(), x.Unit.ToString())
	}
	return &Const{Value: iv, T: expr.Interval}, nil
}

// curTime binds now(), current_timestamp, localtimestamp, current_time and
// the like: the statement's start, one value however often it is called
// (DuckDB's now() is the transaction's start). now() and
// current_timestamp are TIMESTAMPTZ, as in DuckDB; localtimestamp is
// TIMESTAMP (UTC: gq has no session zone).
func (c *ectx) curTime(x *sqlparser.CurTimeFuncExpr) (Expr, error) {
	if c.b.now == 0 {
		c.b.now = time.Now().UnixMicro()
	}
	now := c.b.now
	switch x.Name.Lowered() {
	case "now", "current_timestamp", "sysdate":
		return &Const{Value: now, T: expr.TimestampTZ}, nil
	case "localtimestamp", "localtime", "utc_timestamp":
		return &Const{Value: now, T: expr.Timestamp}, nil
	case "current_time", "curtime", "utc_time":
		_, tod := expr.SplitTimestamp(now)
		return &Const{Value: tod, T: expr.Time}, nil
	case "utc_date", "curdate", "current_date":
		days, _ := expr.SplitTimestamp(now)
		return &Const{Value: days, T: expr.Date}, nil
	}
	return nil, errs.NewNear(errs.Unsupported, x.Name.String(), "function %s is not supported", x.Name.String())
}

// currentDate is current_date / curdate() (a function call to the parser).
func (c *ectx) currentDate() Expr {
	if c.b.now == 0 {
		c.b.now = time.Now().UnixMicro()
	}
	days, _ := expr.SplitTimestamp(c.b.now)
	return &Const{Value: days, T: expr.Date}
}
