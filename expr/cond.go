package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
)

// The conditional functions: coalesce (and ifnull, its two-argument
// form), evaluated lazily on the device as on the CPU; nullif and if are
// rewritten into CASE at binding.
func init() {
	Register(&Function{Name: "coalesce", SQL: []string{"coalesce"}, MinArgs: 1, MaxArgs: Variadic,
		Bind: bindCoalesce, CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, -1); err != nil {
				return nil, err
			}
			return newCoalesce(call, args)
		}, GPU: gpuCoalesce,
		Doc: "coalesce(a, b, …) → the first that is not NULL"})
	Register(&Function{SQL: []string{"ifnull"}, MinArgs: 2, MaxArgs: 2, Bind: bindCoalesce,
		Doc: "ifnull(a, b) → coalesce(a, b)"})
	Register(&Function{SQL: []string{"nullif"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			eq, err := b.Op("eq", args[0], args[1])
			if err != nil {
				return nil, err
			}
			return b.Op("case", eq, b.Literal(nil, Null), args[0])
		},
		Doc: "nullif(a, b) → NULL when a = b, else a"})
	Register(&Function{SQL: []string{"if"}, MinArgs: 3, MaxArgs: 3,
		Bind: func(b Binder, _ string, args []Operand) (Operand, error) {
			cond, err := b.Truth(args[0], "IF")
			if err != nil {
				return nil, err
			}
			return b.Op("case", cond, args[1], args[2])
		},
		Doc: "if(cond, a, b) → a when cond is true, else b"})
}

func bindCoalesce(b Binder, name string, args []Operand) (Operand, error) {
	t, out, err := b.Unify(name, args)
	if err != nil {
		return nil, err
	}
	return b.Call("coalesce", out, t), nil
}

// gpuCoalesce evaluates operands lazily, stopping at the first non-NULL.
func gpuCoalesce(g DeviceGen, c *Call) (DevValue, error) {
	r, err := g.Tmp(c.Type)
	if err != nil {
		return DevValue{}, err
	}
	depth := 0
	for _, a := range c.Args {
		v, err := g.Value(a)
		if err != nil {
			return DevValue{}, err
		}
		if v, err = g.Convert(c, v, c.Type); err != nil {
			return DevValue{}, err
		}
		g.Line("if (!%s) { %s = %s; %s = false; } else {", v.Null, r.Val, v.Val, r.Null)
		g.Indent(1)
		depth++
	}
	for ; depth > 0; depth-- {
		g.Indent(-1)
		g.Line("}")
	}
	return r, nil
}

// caseNode is CASE WHEN c1 THEN v1 … ELSE e END.
type caseNode struct {
	conds, vals []node // vals has one more entry: the else
	t           arrow.DataType
}

func newCase(call *Call, args []node) (node, error) {
	if len(args) < 1 || len(args)%2 == 0 {
		return nil, argErr(call, "needs cond/value pairs and an else (%d args)", len(args))
	}
	n := &caseNode{t: call.Type}
	for i := 0; i+1 < len(args); i += 2 {
		if err := wantType(call, args[i], arrow.BOOL); err != nil {
			return nil, err
		}
		n.conds = append(n.conds, args[i])
		v, err := toType(args[i+1], call.Type)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	e, err := toType(args[len(args)-1], call.Type)
	if err != nil {
		return nil, err
	}
	n.vals = append(n.vals, e)
	return n, nil
}

func (n *caseNode) typ() arrow.DataType { return n.t }

func (n *caseNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	choice, ops, err := n.branches(c, b, evalOperand)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ops)
	return pick(c, n.t, choice, ops)
}

// evalNarrow is eval for a decimal128 CASE whose taken branches all give
// this batch narrow values (see narrower): their int64s are picked into a
// Decimal64 of the same scale. A batch with a wide branch picks wide.
func (n *caseNode) evalNarrow(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	if !isWide(n.t) {
		return n.eval(c, b)
	}
	choice, ops, err := n.branches(c, b, evalNarrowOperand)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ops)
	for _, o := range ops {
		if !o.narrow() && !o.nullScalar() {
			for j := range ops {
				widenOperand(c, &ops[j], n.t)
			}
			return pick(c, n.t, choice, ops)
		}
	}
	return pick(c, &arrow.Decimal64Type{Precision: MaxDecimalPrecision, Scale: ScaleOf(n.t)}, choice, ops)
}

// widenOperand makes a narrow operand of a wide node's evaluation (an
// Int64 or Decimal64 at the node's scale) a decimal128 one of type t.
func widenOperand(c *ctx, o *operand, t arrow.DataType) {
	switch {
	case o.narrow() && o.arr != nil:
		w := widenArray(c, o.arr, t)
		o.arr.Release()
		o.arr = w
	case o.narrow() && !o.sc.null:
		o.sc = &scalar{w: decimal128.FromI64(o.sc.i)}
		o.wideSc = true
	}
}

// branches picks each row's branch (choice: index into vals) and
// evaluates, with ev, the branches some row takes; the rest are NULL
// scalars (a THEN that would fail on rows it does not serve must not fail
// the query). The caller releases the operands.
func (n *caseNode) branches(c *ctx, b arrow.RecordBatch, ev func(*ctx, arrow.RecordBatch, node) (operand, error)) ([]int32, []operand, error) {
	k := len(n.conds)
	choice := make([]int32, c.n)
	for i := range choice {
		choice[i] = int32(k)
	}
	used := make([]bool, k+1)
	rest := make([]int32, c.n)
	for i := range rest {
		rest[i] = int32(i)
	}
	for j, cond := range n.conds {
		if len(rest) == 0 {
			break
		}
		hit, err := filterRows(c, b, cond, rest, nil)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range hit {
			choice[r] = int32(j)
		}
		used[j] = len(hit) > 0
		rest = minusSorted(rest, hit)
	}
	used[k] = len(rest) > 0
	ops := make([]operand, len(n.vals))
	null := scalar{null: true}
	for j, v := range n.vals {
		if !used[j] {
			ops[j] = operand{sc: &null}
			continue
		}
		o, err := ev(c, b, v)
		if err != nil {
			releaseAll(ops[:j])
			return nil, nil, err
		}
		ops[j] = o
	}
	return choice, ops, nil
}

// coalesceNode returns its first non-NULL argument.
type coalesceNode struct {
	args []node
	t    arrow.DataType
}

func newCoalesce(call *Call, args []node) (node, error) {
	n := &coalesceNode{t: call.Type}
	for _, a := range args {
		v, err := toType(a, call.Type)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, v)
	}
	return n, nil
}

func (n *coalesceNode) typ() arrow.DataType { return n.t }

func (n *coalesceNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	ops, err := evalOperands(c, b, n.args)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ops)
	choice := make([]int32, c.n)
	for i := range choice {
		choice[i] = -1
	}
	// Walk the arguments once each; a row takes the first that is valid.
	for j, o := range ops {
		if o.sc != nil {
			if o.sc.null {
				continue
			}
			for i, k := range choice {
				if k < 0 {
					choice[i] = int32(j)
				}
			}
			break
		}
		valid, off := validBits(o.arr), o.arr.Data().Offset()
		for i, k := range choice {
			if k < 0 && isValid(valid, off, i) {
				choice[i] = int32(j)
			}
		}
	}
	return pick(c, n.t, choice, ops)
}

// pick builds out[i] = ops[choice[i]][i] (choice -1: NULL). A type it has
// no loop for is an error, never a column of NULLs.
func pick(c *ctx, t arrow.DataType, choice []int32, ops []operand) (arrow.Array, error) {
	valid := newAllValid(c.mem, c.n)
	vb := valid.Bytes()
	type nulls struct {
		scalarNull bool
		valid      []byte
		off        int
	}
	ns := make([]nulls, len(ops))
	for j, o := range ops {
		if o.sc != nil {
			ns[j].scalarNull = o.sc.null
		} else {
			ns[j].valid, ns[j].off = validBits(o.arr), o.arr.Data().Offset()
		}
	}
	for i, k := range choice {
		if k < 0 || ns[k].scalarNull || !isValid(ns[k].valid, ns[k].off, i) {
			clearBit(vb, i)
			choice[i] = -1
		}
	}
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		return finish(t, c.n, valid, pickFixed(c, choice, ops, i64s, func(s *scalar) int64 { return s.i }, outI64)), nil
	case arrow.DECIMAL128:
		return finish(t, c.n, valid, pickFixed(c, choice, ops, w128s, func(s *scalar) num { return s.w }, outW128)), nil
	case arrow.FLOAT64:
		return finish(t, c.n, valid, pickFixed(c, choice, ops, f64s, func(s *scalar) float64 { return s.f }, outF64)), nil
	case arrow.DATE32:
		return finish(t, c.n, valid, pickFixed(c, choice, ops, i32s, func(s *scalar) int32 { return int32(s.i) }, outI32)), nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return finish(t, c.n, valid, pickFixed(c, choice, ops, ivs, func(s *scalar) arrow.MonthDayNanoInterval { return s.iv }, outIV)), nil
	case arrow.BOOL:
		vals := newBitmap(c.mem, c.n)
		db := vals.Bytes()
		for i, k := range choice {
			if k < 0 {
				continue
			}
			o := ops[k]
			if o.sc != nil {
				if o.sc.i != 0 {
					setBit(db, i)
				}
			} else if bitSet(o.arr.Data().Buffers()[1].Bytes(), o.arr.Data().Offset()+i) {
				setBit(db, i)
			}
		}
		return finish(t, c.n, valid, vals), nil
	case arrow.STRING:
		type sv struct {
			offs []int32
			data []byte
		}
		views := make([]sv, len(ops))
		for j, o := range ops {
			if o.arr != nil {
				views[j].offs, views[j].data = strView(o.arr)
			}
		}
		s := newStrOut(c.mem, c.n, c.n*8)
		for i, k := range choice {
			switch {
			case k < 0:
				s.empty()
			case ops[k].sc != nil:
				s.addString(ops[k].sc.s)
			default:
				v := views[k]
				s.add(v.data[v.offs[i]:v.offs[i+1]])
			}
		}
		return s.finish(valid), nil
	}
	valid.Release()
	if t.ID() == arrow.NULL {
		return allNull(c, t), nil
	}
	return nil, errs.New(errs.Unsupported, "CASE or COALESCE with a %s result", t)
}

func pickFixed[T int64 | int32 | float64 | num | arrow.MonthDayNanoInterval](c *ctx, choice []int32, ops []operand, view func(arrow.Array) []T,
	sc func(*scalar) T, alloc func(mem_ memAlloc, n int) (memBuf, []T)) memBuf {
	vals := make([][]T, len(ops))
	lits := make([]T, len(ops))
	for j, o := range ops {
		if o.arr != nil {
			vals[j] = view(o.arr)
		} else if !o.sc.null {
			lits[j] = sc(o.sc)
		}
	}
	buf, out := alloc(c.mem, c.n)
	for i, k := range choice {
		switch {
		case k < 0:
			var zero T
			out[i] = zero
		case vals[k] != nil:
			out[i] = vals[k][i]
		default:
			out[i] = lits[k]
		}
	}
	return buf
}
