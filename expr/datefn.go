package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// The date functions: extract_* (year(d) and friends), date_add_days,
// date_add_months (what INTERVAL arithmetic binds to) and date_diff_days
// (datediff); adddate and subdate are date_add_days called by name. Their
// CPU kernel is dateFnNode; the device runs all but date_add_months.
func init() {
	for _, e := range []struct {
		part string
		sql  []string
		fold bool
	}{{"year", []string{"year"}, true}, {"month", []string{"month"}, true},
		{"day", []string{"day", "dayofmonth"}, true}, {"quarter", []string{"quarter"}, false}} {
		f := &Function{Name: "extract_" + e.part, SQL: e.sql, MinArgs: 1, MaxArgs: 1,
			Bind: bindExtract("extract_" + e.part), CPU: newDateFn, GPU: gpuExtract,
			Doc: e.sql[0] + "(d DATE) → BIGINT"}
		if e.fold {
			f.Fold, f.NullPropagating = foldDateFn, true
		}
		Register(f)
	}
	Register(&Function{Name: "date_diff_days", SQL: []string{"datediff"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			x, err := toDate(b, args[0])
			if err != nil {
				return nil, err
			}
			y, err := toDate(b, args[1])
			if err != nil {
				return nil, err
			}
			return b.Call("date_diff_days", []Operand{x, y}, Int64), nil
		},
		CPU: newDateFn, NullPropagating: true,
		GPU: func(g DeviceGen, c *Call) (DevValue, error) {
			a, err := g.Args(c)
			if err != nil {
				return DevValue{}, err
			}
			r, _ := g.Tmp(Int64)
			g.Line("%s = %s || %s; %s = (i64)%s - (i64)%s;", r.Null, a[0].Null, a[1].Null, r.Val, a[0].Val, a[1].Val)
			return r, nil
		},
		Doc: "datediff(a DATE, b DATE) → BIGINT: a - b in days"})
	Register(&Function{Name: "date_add_days", MinArgs: 2, MaxArgs: 2,
		CPU: newDateFn, Fold: foldDateFn, NullPropagating: true,
		GPU: func(g DeviceGen, c *Call) (DevValue, error) {
			a, err := g.Args(c)
			if err != nil {
				return DevValue{}, err
			}
			r, _ := g.Tmp(Date)
			g.Line("%s = %s || %s; %s = (i32)((i64)%s + %s);", r.Null, a[0].Null, a[1].Null, r.Val, a[0].Val, a[1].Val)
			return r, nil
		},
		Doc: "date_add_days(d DATE, n BIGINT) → DATE"})
	Register(&Function{Name: "date_add_months", MinArgs: 2, MaxArgs: 2,
		CPU: newDateFn, Fold: foldDateFn, NullPropagating: true,
		Doc: "date_add_months(d DATE, n BIGINT) → DATE: the day clamped to the month's end"})
	Register(&Function{SQL: []string{"adddate", "subdate"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindAddDate, Doc: "adddate(d DATE, days BIGINT) → DATE; subdate subtracts"})
}

func bindExtract(fn string) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, _ string, args []Operand) (Operand, error) {
		if IsTimestamp(args[0].Type()) {
			return bindDatePart(b, fn[len("extract_"):], args[0])
		}
		d, err := toDate(b, args[0])
		if err != nil {
			return nil, err
		}
		return b.Call(fn, []Operand{d}, Int64), nil
	}
}

func bindAddDate(b Binder, name string, args []Operand) (Operand, error) {
	d, err := toDate(b, args[0])
	if err != nil {
		return nil, err
	}
	n := args[1]
	if !isIntType(n.Type()) {
		return nil, errs.New(errs.Binding, "%s needs an integer number of days, got %s", name, TypeName(n.Type()))
	}
	if name == "subdate" {
		if n, err = b.Op("neg", n); err != nil {
			return nil, err
		}
	}
	return b.Op("date_add_days", d, n)
}

// toDate is o as a DATE: a string constant is read as one (at binding,
// where a bad date is an error), other types are refused.
func toDate(b Binder, o Operand) (Operand, error) {
	if _, ok := b.Constant(o); ok && isType(o.Type(), arrow.STRING) {
		return b.Cast(o, Date)
	}
	if !isType(o.Type(), arrow.DATE32) && !isNullType(o.Type()) {
		return nil, errs.New(errs.Binding, "date arithmetic needs a DATE, got %s", TypeName(o.Type()))
	}
	return b.Cast(o, Date)
}

// foldDateFn folds the date functions over constants, with the kernel's
// own arithmetic; day and month counts beyond any real date stay for run
// time.
func foldDateFn(c *Call, args []any) (any, bool) {
	d, ok := args[0].(int32)
	if !ok {
		return nil, false
	}
	switch c.Fn {
	case "extract_year", "extract_month", "extract_day":
		y, m, dd := civilFromDays(d)
		return int64(map[string]int32{"extract_year": y, "extract_month": m, "extract_day": dd}[c.Fn]), true
	}
	n, ok := args[1].(int64)
	switch {
	case !ok:
		return nil, false
	case c.Fn == "date_add_days" && n > -1e7 && n < 1e7:
		return d + int32(n), true
	case c.Fn == "date_add_months" && n > -1e5 && n < 1e5:
		return AddMonths(d, n), true
	}
	return nil, false
}

// gpuExtract is extract_* on the device.
func gpuExtract(g DeviceGen, c *Call) (DevValue, error) {
	args, err := g.Args(c)
	if err != nil {
		return DevValue{}, err
	}
	a := args[0]
	if a.Type.ID() != arrow.DATE32 {
		return DevValue{}, g.Unsupported(fmt.Sprintf("%s of %s", c.Fn, a.Type))
	}
	r, _ := g.Tmp(Int64)
	part := map[string]string{"extract_year": "y", "extract_month": "m", "extract_day": "d", "extract_quarter": "(m + 2) / 3"}[c.Fn]
	g.Line("%s = %s; { i64 y, m, d; gq_civil(%s, &y, &m, &d); %s = %s; }", r.Null, a.Null, a.Val, r.Val, part)
	return r, nil
}

// dateFnNode is extract_*, date_add_days, date_add_months or date_diff_days.
type dateFnNode struct {
	fn   string
	a, b node // b is nil for extract_*
	t    arrow.DataType
}

func newDateFn(call *Call, args []node) (node, error) {
	n := &dateFnNode{fn: call.Fn, t: call.Type}
	switch call.Fn {
	case "date_add_days", "date_add_months", "date_diff_days":
		if err := wantArgs(call, args, 2, 2); err != nil {
			return nil, err
		}
		second := arrow.INT64
		if call.Fn == "date_diff_days" {
			second = arrow.DATE32
		}
		if err := wantType(call, args[1], second); err != nil {
			return nil, err
		}
		n.b = args[1]
	default:
		if err := wantArgs(call, args, 1, 1); err != nil {
			return nil, err
		}
	}
	if err := wantType(call, args[0], arrow.DATE32); err != nil {
		return nil, err
	}
	n.a = args[0]
	return n, nil
}

func (n *dateFnNode) typ() arrow.DataType { return n.t }

func (n *dateFnNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := evalOperand(c, b, n.a)
	if err != nil {
		return nil, err
	}
	defer a.release()
	if a.sc != nil {
		a = operand{arr: materialize(c, Date, a)}
		defer a.release()
	}
	av := i32s(a.arr)
	if n.b == nil {
		buf, out := rawI64(c.mem, c.n)
		for i, d := range av {
			y, m, dd := civilFromDays(d)
			switch n.fn {
			case "extract_year":
				out[i] = int64(y)
			case "extract_month":
				out[i] = int64(m)
			case "extract_day":
				out[i] = int64(dd)
			case "extract_quarter":
				out[i] = int64((m + 2) / 3)
			}
		}
		return finish(n.t, c.n, mergeValidity(c.mem, c.n, a.arr), buf), nil
	}
	o, err := evalOperand(c, b, n.b)
	if err != nil {
		return nil, err
	}
	defer o.release()
	if o.nullScalar() {
		return allNull(c, n.t), nil
	}
	valid := mergeValidity(c.mem, c.n, a.arr, o.arr)
	if n.fn == "date_diff_days" {
		buf, out := rawI64(c.mem, c.n)
		if o.sc != nil {
			for i, d := range av {
				out[i] = int64(d) - o.sc.i
			}
		} else {
			bv := i32s(o.arr)
			for i, d := range av {
				out[i] = int64(d) - int64(bv[i])
			}
		}
		return finish(n.t, c.n, valid, buf), nil
	}
	var kv []int64
	var ks int64
	if o.sc != nil {
		ks = o.sc.i
	} else {
		kv = i64s(o.arr)
	}
	buf, out := rawI32(c.mem, c.n)
	for i, d := range av {
		k := ks
		if kv != nil {
			k = kv[i]
		}
		if n.fn == "date_add_days" {
			out[i] = d + int32(k)
		} else {
			out[i] = AddMonths(d, k)
		}
	}
	return finish(n.t, c.n, valid, buf), nil
}
