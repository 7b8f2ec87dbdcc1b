package planner

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// FoldConstants evaluates functions whose arguments are all constants
// (arithmetic, casts of literals, date arithmetic, comparisons, logic) and
// simplifies and/or with constant operands. A fold that would fail (an
// overflow, a bad cast) is left for execution, where it reports the error
// only if the row is actually evaluated.
func FoldConstants(p Plan) (Plan, error) {
	return transformUp(p, func(n Plan) (Plan, error) {
		return rewriteNodeExprs(n, foldExpr), nil
	})
}

// foldExpr folds one node whose arguments are already folded.
func foldExpr(e Expr) Expr {
	f, ok := e.(*Func)
	if !ok {
		return e
	}
	switch f.Name {
	case "and", "or":
		r := foldLogic(f)
		if c, ok := r.(*Const); ok {
			// A NULL operand may be typed Null; the result keeps f's type.
			return &Const{Value: c.Value, T: f.T}
		}
		return r
	}
	args := make([]*Const, len(f.Args))
	for i, a := range f.Args {
		c, ok := a.(*Const)
		if !ok {
			return e
		}
		args[i] = c
	}
	if v, ok := foldCall(f, args); ok {
		return &Const{Value: v, T: f.T}
	}
	return e
}

// foldLogic drops neutral constants from and/or and short-circuits on an
// absorbing one (false for and, true for or). NULL operands stay.
func foldLogic(f *Func) Expr {
	absorb := f.Name == "or"
	var keep []Expr
	for _, a := range f.Args {
		if isBoolConst(a, absorb) {
			return &Const{Value: absorb, T: f.T}
		}
		if isBoolConst(a, !absorb) {
			continue
		}
		keep = append(keep, a)
	}
	switch len(keep) {
	case 0:
		return &Const{Value: !absorb, T: f.T}
	case 1:
		return keep[0]
	}
	return &Func{Name: f.Name, Args: keep, T: f.T}
}

// nullPropagating lists functions that return NULL when any argument is NULL.
var nullPropagating = map[string]bool{
	"add": true, "sub": true, "mul": true, "neg": true, "mod": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"not": true, "like": true, "not_like": true, "cast": true,
}

// foldCall folds an operator here, a function by its registry entry.
func foldCall(f *Func, a []*Const) (any, bool) {
	fn := expr.Lookup(f.Name)
	if nullPropagating[f.Name] || fn != nil && fn.NullPropagating {
		for _, c := range a {
			if c.Value == nil {
				return nil, true
			}
		}
	}
	if fn != nil {
		if fn.Fold == nil {
			return nil, false
		}
		vals := make([]any, len(a))
		for i, c := range a {
			vals[i] = c.Value
		}
		return fn.Fold(&expr.Call{Fn: f.Name, Type: f.T}, vals)
	}
	switch f.Name {
	case "is_null":
		return a[0].Value == nil, true
	case "is_not_null":
		return a[0].Value != nil, true
	case "not":
		b, ok := a[0].Value.(bool)
		return !b, ok
	case "neg":
		switch v := a[0].Value.(type) {
		case int64:
			if v == math.MinInt64 {
				return nil, false
			}
			return -v, true
		case float64:
			return -v, true
		}
	case "add", "sub", "mul":
		return foldArith(f, a[0], a[1])
	case "eq", "ne", "lt", "le", "gt", "ge":
		return foldCompare(f.Name, a[0], a[1])
	case "cast":
		return foldConstCast(a[0], f.T)
	}
	return nil, false
}

func foldDecScale(t arrow.DataType) (int32, bool) {
	d, ok := t.(*arrow.Decimal64Type)
	if !ok {
		return 0, false
	}
	return d.Scale, true
}

// rescale converts an unscaled decimal from scale from to scale to, exactly
// (only upwards, or downwards without losing digits).
func foldRescale(v int64, from, to int32) (int64, bool) {
	for ; from < to; from++ {
		if v > math.MaxInt64/10 || v < math.MinInt64/10 {
			return 0, false
		}
		v *= 10
	}
	for ; from > to; from-- {
		if v%10 != 0 {
			return 0, false
		}
		v /= 10
	}
	return v, true
}

func foldArith(f *Func, x, y *Const) (any, bool) {
	if rs, ok := foldDecScale(f.T); ok {
		xs, ok1 := foldDecScale(x.T)
		ys, ok2 := foldDecScale(y.T)
		xv, ok3 := x.Value.(int64)
		yv, ok4 := y.Value.(int64)
		if !(ok1 && ok2 && ok3 && ok4) {
			return nil, false
		}
		var r int64
		var rsc int32
		switch f.Name {
		case "mul":
			hi, lo := foldMul64(xv, yv)
			if !hi {
				return nil, false
			}
			r, rsc = lo, xs+ys
		default:
			s := max(xs, ys)
			a, ok1 := foldRescale(xv, xs, s)
			b, ok2 := foldRescale(yv, ys, s)
			if !ok1 || !ok2 {
				return nil, false
			}
			if f.Name == "sub" {
				b = -b
			}
			if (b > 0 && a > math.MaxInt64-b) || (b < 0 && a < math.MinInt64-b) {
				return nil, false
			}
			r, rsc = a+b, s
		}
		return foldRescale(r, rsc, rs)
	}
	switch xv := x.Value.(type) {
	case int64:
		yv, ok := y.Value.(int64)
		if !ok || f.T.ID() != arrow.INT64 {
			return nil, false
		}
		switch f.Name {
		case "add":
			if (yv > 0 && xv > math.MaxInt64-yv) || (yv < 0 && xv < math.MinInt64-yv) {
				return nil, false
			}
			return xv + yv, true
		case "sub":
			if (yv < 0 && xv > math.MaxInt64+yv) || (yv > 0 && xv < math.MinInt64+yv) {
				return nil, false
			}
			return xv - yv, true
		}
		ok, r := foldMul64(xv, yv)
		return r, ok
	case float64:
		yv, ok := y.Value.(float64)
		if !ok || f.T.ID() != arrow.FLOAT64 {
			return nil, false
		}
		var r float64
		switch f.Name {
		case "add":
			r = xv + yv
		case "sub":
			r = xv - yv
		default:
			r = xv * yv
		}
		if math.IsInf(r, 0) && !math.IsInf(xv, 0) && !math.IsInf(yv, 0) {
			return nil, false // overflow: left for run time, which reports it
		}
		return r, true
	}
	return nil, false
}

// mul64 multiplies with an overflow check; ok is false on overflow.
func foldMul64(a, b int64) (ok bool, r int64) {
	if a == 0 || b == 0 {
		return true, 0
	}
	r = a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return false, 0
	}
	return true, r
}

func foldCompare(op string, x, y *Const) (any, bool) {
	c, ok := foldCompareConsts(x, y)
	if !ok {
		return nil, false
	}
	switch op {
	case "eq":
		return c == 0, true
	case "ne":
		return c != 0, true
	case "lt":
		return c < 0, true
	case "le":
		return c <= 0, true
	case "gt":
		return c > 0, true
	}
	return c >= 0, true
}

func foldCmp[T int64 | int32 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareConsts orders two non-NULL constants of the same type family.
func foldCompareConsts(x, y *Const) (int, bool) {
	if xs, ok := foldDecScale(x.T); ok {
		ys, ok2 := foldDecScale(y.T)
		xv, ok3 := x.Value.(int64)
		yv, ok4 := y.Value.(int64)
		if !(ok2 && ok3 && ok4) {
			return 0, false
		}
		s := max(xs, ys)
		a, ok1 := foldRescale(xv, xs, s)
		b, ok2 := foldRescale(yv, ys, s)
		return foldCmp(a, b), ok1 && ok2
	}
	if _, ok := foldDecScale(y.T); ok {
		return 0, false
	}
	switch xv := x.Value.(type) {
	case int64:
		yv, ok := y.Value.(int64)
		return foldCmp(xv, yv), ok
	case int32:
		yv, ok := y.Value.(int32)
		return foldCmp(xv, yv), ok
	case float64:
		yv, ok := y.Value.(float64)
		return expr.CompareFloat(xv, yv), ok
	case string:
		yv, ok := y.Value.(string)
		return foldCmp(xv, yv), ok
	case bool:
		yv, ok := y.Value.(bool)
		a, b := int64(0), int64(0)
		if xv {
			a = 1
		}
		if yv {
			b = 1
		}
		return foldCmp(a, b), ok
	}
	return 0, false
}

// foldCast converts a literal where the conversion is exact; anything
// else is left to the evaluator.
func foldConstCast(c *Const, to arrow.DataType) (any, bool) {
	if arrow.TypeEqual(c.T, to) {
		return c.Value, true
	}
	toScale, toDec := foldDecScale(to)
	switch v := c.Value.(type) {
	case int64:
		if fs, ok := foldDecScale(c.T); ok {
			switch {
			case toDec:
				r, ok := foldRescale(v, fs, toScale)
				return r, ok && inPrecision(r, to)
			case to.ID() == arrow.FLOAT64:
				return expr.DecimalToFloat64(v, fs), true
			}
			return nil, false
		}
		switch {
		case toDec:
			r, ok := foldRescale(v, 0, toScale)
			return r, ok && inPrecision(r, to)
		case to.ID() == arrow.FLOAT64:
			return float64(v), true
		}
	case string:
		if to.ID() == arrow.DATE32 {
			t, err := time.Parse("2006-01-02", v)
			if err != nil {
				return nil, false
			}
			return int32(t.Unix() / 86400), true
		}
	}
	return nil, false
}
