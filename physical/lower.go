package physical

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
	"gq/exec"
	"gq/expr"
	"gq/planner"
)

// Lower maps an optimised logical plan to executable nodes. The output of
// the node for p has p.Columns() in order.
func Lower(p planner.Plan) (exec.Node, error) {
	if p == nil {
		return nil, errs.New(errs.Internal, "lower: nil plan")
	}
	switch n := p.(type) {
	case *planner.Scan:
		f, err := toExpr(n.Filter, layoutOf(n.Cols))
		if err != nil {
			return nil, err
		}
		return &exec.Scan{Table: n.Table, Columns: append([]int{}, n.Ordinals...), Filter: f, Out: schemaOf(n.Cols)}, nil
	case *planner.Values:
		return lowerValues(n)
	case *planner.Filter:
		in, err := Lower(n.Input)
		if err != nil {
			return nil, err
		}
		pred, err := toExpr(n.Cond, layoutOf(n.Input.Columns()))
		if err != nil {
			return nil, err
		}
		return &exec.Filter{Input: in, Pred: pred, KeepOrder: ordered(in)}, nil
	case *planner.Project:
		if len(n.Exprs) != len(n.Cols) {
			return nil, errs.New(errs.Internal, "lower: project has %d expressions for %d columns", len(n.Exprs), len(n.Cols))
		}
		in, err := Lower(n.Input)
		if err != nil {
			return nil, err
		}
		es, err := toExprs(n.Exprs, layoutOf(n.Input.Columns()))
		if err != nil {
			return nil, err
		}
		return &exec.Project{Input: in, Exprs: es, Out: schemaOf(n.Cols), KeepOrder: ordered(in)}, nil
	case *planner.Aggregate:
		return lowerAggregate(n)
	case *planner.Join:
		return lowerJoin(n)
	case *planner.Sort:
		return lowerSort(n, -1, 0)
	case *planner.Limit:
		if s, ok := n.Input.(*planner.Sort); ok && n.Count >= 0 {
			return lowerSort(s, n.Count, n.Offset) // top-N
		}
		in, err := Lower(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.Limit{Input: in, Offset: n.Offset, Count: n.Count}, nil
	case *planner.Window:
		return lowerWindow(n)
	case *planner.Union:
		u := &exec.UnionAll{Out: schemaOf(n.Cols), InOrder: n.InOrder}
		for _, c := range n.Children {
			in, err := Lower(c)
			if err != nil {
				return nil, err
			}
			u.Inputs = append(u.Inputs, in)
		}
		return u, nil
	case *planner.RecursiveCTE:
		anchor, err := Lower(n.Anchor)
		if err != nil {
			return nil, err
		}
		rec, err := Lower(n.Recursive)
		if err != nil {
			return nil, err
		}
		return &exec.RecursiveCTE{Work: exec.WorkTable{Name: n.Work.Name, Key: n.Work}, Anchor: anchor, Recursive: rec, Distinct: n.Distinct, Out: schemaOf(n.Cols)}, nil
	case *planner.WorkScan:
		return &exec.WorkScan{Work: exec.WorkTable{Name: n.Work.Name, Key: n.Work}, Out: schemaOf(n.Cols)}, nil
	}
	return nil, errs.New(errs.Internal, "lower: unknown plan node %T", p)
}

// ordered reports whether n emits rows in a meaningful order (a sort, or
// an order-keeping node over one), which nodes above must then keep.
func ordered(n exec.Node) bool {
	switch x := n.(type) {
	case *exec.Sort:
		return true
	case *exec.Filter:
		return x.KeepOrder
	case *exec.Project:
		return x.KeepOrder
	case *exec.Limit:
		return ordered(x.Input)
	}
	return false
}

func lowerValues(n *planner.Values) (exec.Node, error) {
	rows := make([][]*expr.Literal, len(n.Rows))
	for r, row := range n.Rows {
		if len(row) != len(n.Cols) {
			return nil, errs.New(errs.Internal, "lower: VALUES row %d has %d values for %d columns", r+1, len(row), len(n.Cols))
		}
		rows[r] = make([]*expr.Literal, len(row))
		for i, e := range row {
			c, ok := e.(*planner.Const)
			if !ok {
				return nil, errs.New(errs.Unsupported, "VALUES row %d column %d is not a constant: %s", r+1, i+1, e)
			}
			rows[r][i] = &expr.Literal{Value: c.Value, Type: n.Cols[i].Type}
		}
	}
	return &exec.Values{Rows: rows, Out: schemaOf(n.Cols)}, nil
}

func lowerAggregate(n *planner.Aggregate) (exec.Node, error) {
	if len(n.GroupBy) != len(n.GroupCols) || len(n.Aggs) != len(n.AggCols) {
		return nil, errs.New(errs.Internal, "lower: aggregate expressions and columns differ in number")
	}
	in, err := Lower(n.Input)
	if err != nil {
		return nil, err
	}
	l := layoutOf(n.Input.Columns())
	keys, err := toExprs(n.GroupBy, l)
	if err != nil {
		return nil, err
	}
	aggs := make([]exec.AggFunc, len(n.Aggs))
	for i, a := range n.Aggs {
		arg, err := toExpr(a.Arg, l)
		if err != nil {
			return nil, err
		}
		aggs[i] = exec.AggFunc{Fn: a.Fn, Distinct: a.Distinct, Arg: arg, Type: a.Type, Param: a.Param}
	}
	return &exec.HashAggregate{Input: in, GroupBy: keys, Aggs: aggs, Out: schemaOf(n.Columns())}, nil
}

func lowerSortKeys(keys []planner.SortKey, l layout) ([]exec.SortKey, error) {
	out := make([]exec.SortKey, len(keys))
	for i, k := range keys {
		e, err := toExpr(k.Expr, l)
		if err != nil {
			return nil, err
		}
		out[i] = exec.SortKey{Expr: e, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out, nil
}

func lowerSort(n *planner.Sort, limit, offset int64) (exec.Node, error) {
	in, err := Lower(n.Input)
	if err != nil {
		return nil, err
	}
	keys, err := lowerSortKeys(n.Keys, layoutOf(n.Input.Columns()))
	if err != nil {
		return nil, err
	}
	return &exec.Sort{Input: in, Keys: keys, Limit: limit, Offset: offset}, nil
}

// lowerFrame turns a frame's offset constants into the numbers exec's
// bound search adds to the ORDER BY key.
func lowerFrame(f planner.Frame) (exec.WindowFrame, error) {
	out := exec.WindowFrame{Rows: f.Rows, Groups: f.Groups, Exclude: f.Exclude}
	for i, b := range []planner.FrameBound{f.Start, f.End} {
		// planner.FrameKind and expr.FrameKind list the kinds in one order.
		eb := exec.FrameBound{Kind: expr.FrameKind(b.Kind), Months: b.Months, PerRow: b.PerRow != nil}
		if k := b.Offset; k != nil {
			v := k.Value
			if n, ok := v.(decimal128.Num); ok {
				// A DECIMAL(38) offset: as the 64-bit one where it fits.
				if n.HighBits() != int64(n.LowBits())>>63 {
					return out, errs.New(errs.Unsupported, "a window frame offset of more than 18 digits (%s)", k)
				}
				v = int64(n.LowBits())
			}
			switch v := v.(type) {
			case int64:
				eb.Rows, eb.Int, eb.Exact = v, v, true
				eb.Float = float64(v)
				if d, ok := k.T.(arrow.DecimalType); ok {
					eb.Scale = d.GetScale()
					eb.Float = expr.DecimalToFloat64(v, d.GetScale())
				}
			case float64:
				eb.Float = v
			default:
				return out, errs.New(errs.Internal, "lower: window frame offset %v", k)
			}
		}
		if i == 0 {
			out.Start = eb
		} else {
			out.End = eb
		}
	}
	return out, nil
}

func lowerWindow(n *planner.Window) (exec.Node, error) {
	if len(n.Funcs) != len(n.Cols) {
		return nil, errs.New(errs.Internal, "lower: window has %d functions for %d columns", len(n.Funcs), len(n.Cols))
	}
	in, err := Lower(n.Input)
	if err != nil {
		return nil, err
	}
	l := layoutOf(n.Input.Columns())
	part, err := toExprs(n.PartitionBy, l)
	if err != nil {
		return nil, err
	}
	order, err := lowerSortKeys(n.OrderBy, l)
	if err != nil {
		return nil, err
	}
	funcs := make([]exec.WindowFunc, len(n.Funcs))
	for i, f := range n.Funcs {
		args, err := toExprs(f.Args, l)
		if err != nil {
			return nil, err
		}
		fr, err := lowerFrame(f.Frame)
		if err != nil {
			return nil, err
		}
		var offs [2]expr.Expr
		for k, b := range []planner.FrameBound{f.Frame.Start, f.Frame.End} {
			if b.PerRow == nil {
				continue
			}
			if offs[k], err = toExpr(b.PerRow, l); err != nil {
				return nil, err
			}
		}
		inner, err := lowerSortKeys(f.Order, l)
		if err != nil {
			return nil, err
		}
		funcs[i] = exec.WindowFunc{Fn: f.Fn, Args: args, Type: f.Type, N: f.N, Frame: fr, IgnoreNulls: f.IgnoreNulls, Param: f.Param, Order: inner, Distinct: f.Distinct, FrameOffs: offs}
	}
	return &exec.Window{Input: in, PartitionBy: part, OrderBy: order, Funcs: funcs, Out: schemaOf(n.Columns())}, nil
}

// keyType is the common type two equi-join keys are compared in, or nil
// when they cannot be hashed together.
func keyType(a, b arrow.DataType) arrow.DataType {
	if arrow.TypeEqual(a, b) {
		return a
	}
	if a.ID() == arrow.DECIMAL128 || b.ID() == arrow.DECIMAL128 {
		// DECIMAL(38) beside another decimal or an integer: compared as
		// DECIMAL(38) at the larger scale.
		sa, okA := decimalOrIntScale(a)
		sb, okB := decimalOrIntScale(b)
		if !okA || !okB {
			return nil
		}
		return &arrow.Decimal128Type{Precision: 38, Scale: max(sa, sb)}
	}
	da, okA := a.(*arrow.Decimal64Type)
	db, okB := b.(*arrow.Decimal64Type)
	switch {
	case okA && okB:
		return expr.Decimal(expr.MaxDecimalPrecision, max(da.Scale, db.Scale))
	case okA && b.ID() == arrow.INT64:
		return expr.Decimal(expr.MaxDecimalPrecision, da.Scale)
	case okB && a.ID() == arrow.INT64:
		return expr.Decimal(expr.MaxDecimalPrecision, db.Scale)
	}
	return nil
}

// decimalOrIntScale is the scale of a decimal type, 0 for BIGINT; false
// for other types.
func decimalOrIntScale(t arrow.DataType) (int32, bool) {
	if d, ok := t.(arrow.DecimalType); ok {
		return d.GetScale(), true
	}
	return 0, t.ID() == arrow.INT64
}

func castTo(e expr.Expr, t arrow.DataType) expr.Expr {
	if arrow.TypeEqual(e.DataType(), t) {
		return e
	}
	return &expr.Call{Fn: "cast", Args: []expr.Expr{e}, Type: t}
}

// keyCastTo converts a join key to the join's key type t. A numeric key
// widened to a decimal scale it has no value at cannot match (key_cast:
// NULL) rather than fail.
func keyCastTo(e expr.Expr, t arrow.DataType) expr.Expr {
	if arrow.TypeEqual(e.DataType(), t) {
		return e
	}
	if t.ID() != arrow.DECIMAL64 && t.ID() != arrow.DECIMAL128 {
		return castTo(e, t)
	}
	return &expr.Call{Fn: "key_cast", Args: []expr.Expr{e}, Type: t}
}

// nullAwareKeys converts NOT IN's keys to t. A NULL key there changes the
// answer, so a key that cannot match must stay a value: where the two
// scales differ (one side is rescaled and may overflow) both sides go
// through nn_key_cast, otherwise nothing can overflow and a cast will do.
func nullAwareKeys(a, b expr.Expr, t arrow.DataType) (expr.Expr, expr.Expr) {
	sa, _ := decimalOrIntScale(a.DataType())
	sb, _ := decimalOrIntScale(b.DataType())
	if t.ID() != arrow.DECIMAL64 && t.ID() != arrow.DECIMAL128 || sa == sb {
		return castTo(a, t), castTo(b, t)
	}
	nn := func(e expr.Expr) expr.Expr { return &expr.Call{Fn: "nn_key_cast", Args: []expr.Expr{e}, Type: t} }
	return nn(a), nn(b)
}

// lowerJoin makes a HashJoin from the equality conjuncts of the condition
// whose sides each read one input (the rest becomes Extra), or a
// NestedLoopJoin when there are none.
func lowerJoin(n *planner.Join) (exec.Node, error) {
	left, err := Lower(n.Left)
	if err != nil {
		return nil, err
	}
	right, err := Lower(n.Right)
	if err != nil {
		return nil, err
	}
	lcols, rcols := n.Left.Columns(), n.Right.Columns()
	ll, rl, both := layoutOf(lcols), layoutOf(rcols), layoutOf(lcols, rcols)
	typ := n.Type
	out := schemaOf(n.Columns())
	var lkeys, rkeys []expr.Expr
	var extra []expr.Expr
	for _, c := range planner.Conjuncts(n.Cond) {
		if lk, rk, ok := equiKey(c, ll, rl, n.NullAware); ok {
			lkeys, rkeys = append(lkeys, lk), append(rkeys, rk)
			continue
		}
		e, err := toExpr(c, both)
		if err != nil {
			return nil, err
		}
		extra = append(extra, e)
	}
	var rest expr.Expr
	switch len(extra) {
	case 0:
	case 1:
		rest = extra[0]
	default:
		rest = &expr.Call{Fn: "and", Args: extra, Type: expr.Boolean}
	}
	if len(lkeys) == 0 {
		if n.NullAware {
			return nil, errs.New(errs.Unsupported, "NOT IN needs an equality between the value and the subquery column")
		}
		return &exec.NestedLoopJoin{Type: typ, Left: left, Right: right, Cond: rest, Out: out}, nil
	}
	return &exec.HashJoin{Type: typ, Left: left, Right: right, LeftKeys: lkeys, RightKeys: rkeys,
		Extra: rest, NullAware: n.NullAware, BuildLeft: n.BuildLeft && !n.NullAware && (typ == expr.JoinSemi || typ == expr.JoinAnti || typ == expr.JoinLeft), Out: out}, nil
}

// equiKey recognises eq(a, b) with a over the left input and b over the
// right (or the reverse) and returns the keys per side, in a common type.
func equiKey(c planner.Expr, ll, rl layout, nullAware bool) (lk, rk expr.Expr, ok bool) {
	f, isF := c.(*planner.Func)
	if !isF || f.Name != "eq" || len(f.Args) != 2 {
		return nil, nil, false
	}
	a, b := f.Args[0], f.Args[1]
	if onlyIn(b, ll) && onlyIn(a, rl) {
		a, b = b, a
	}
	if !onlyIn(a, ll) || !onlyIn(b, rl) {
		return nil, nil, false
	}
	t := keyType(a.Type(), b.Type())
	if t == nil {
		return nil, nil, false
	}
	la, err1 := toExpr(a, ll)
	rb, err2 := toExpr(b, rl)
	if err1 != nil || err2 != nil {
		return nil, nil, false
	}
	if nullAware {
		la, rb = nullAwareKeys(la, rb, t)
		return la, rb, true
	}
	return keyCastTo(la, t), keyCastTo(rb, t), true
}

// onlyIn reports whether e reads at least one column, all of them in l.
func onlyIn(e planner.Expr, l layout) bool {
	ids := planner.ColumnsOf(e)
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if _, ok := l[id]; !ok {
			return false
		}
	}
	return true
}
