package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// linearMax is the list length up to which IN scans the list instead of
// probing a hash set.
const linearMax = 8

// inNode is x IN (v1, …) / x NOT IN (…) over literal values.
type inNode struct {
	x       node
	not     bool
	hasNull bool // some v is NULL: a non-match is NULL, not FALSE
	ints    []int64
	floats  []float64
	strs    []string
	intSet  map[int64]struct{}
	strSet  map[string]struct{}
	packed  *packedStrs // short string lists
	fltSet  map[float64]struct{}
	hasNaN  bool             // NaN is in the list: it matches NaN (CompareFloat's order)
	wideSet map[num]struct{} // Decimal128 values
}

func newIn(call *Call, args []node) (node, error) {
	if err := wantArgs(call, args, 2, -1); err != nil {
		return nil, err
	}
	x := args[0]
	n := &inNode{x: x, not: call.Fn == "not_in"}
	xt := x.typ()
	for _, a := range args[1:] {
		a, err := toType(a, xt)
		if err != nil {
			return nil, err
		}
		l, ok := a.(*litNode)
		if !ok {
			return nil, argErr(call, "list values must be literals")
		}
		if l.v.null {
			n.hasNull = true
			continue
		}
		switch xt.ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.BOOL, arrow.TIMESTAMP, arrow.TIME64:
			n.ints = append(n.ints, l.v.i)
		case arrow.DECIMAL128:
			if n.wideSet == nil {
				n.wideSet = map[num]struct{}{}
			}
			n.wideSet[l.v.w] = struct{}{}
		case arrow.FLOAT64:
			if l.v.f != l.v.f {
				n.hasNaN = true
				continue
			}
			n.floats = append(n.floats, l.v.f)
		case arrow.STRING:
			n.strs = append(n.strs, l.v.s)
		case arrow.NULL:
		default:
			return nil, argErr(call, "type %s not supported", xt)
		}
	}
	if len(n.ints) > linearMax {
		n.intSet = make(map[int64]struct{}, len(n.ints))
		for _, v := range n.ints {
			n.intSet[v] = struct{}{}
		}
	}
	if len(n.strs) > linearMax {
		n.strSet = make(map[string]struct{}, len(n.strs))
		for _, v := range n.strs {
			n.strSet[v] = struct{}{}
		}
	}
	if len(n.strs) > 0 && len(n.strs) <= 2*linearMax {
		n.packed = packStrs(n.strs)
	}
	if len(n.floats) > linearMax {
		n.fltSet = make(map[float64]struct{}, len(n.floats))
		for _, v := range n.floats {
			n.fltSet[v] = struct{}{}
		}
	}
	return n, nil
}

func (n *inNode) typ() arrow.DataType { return Boolean }

func (n *inNode) hasInt(v int64) bool {
	if n.intSet != nil {
		_, ok := n.intSet[v]
		return ok
	}
	for _, w := range n.ints {
		if w == v {
			return true
		}
	}
	return false
}

func (n *inNode) hasStr(v []byte) bool {
	if n.strSet != nil {
		_, ok := n.strSet[string(v)] // no allocation for map lookups
		return ok
	}
	for _, w := range n.strs {
		if len(w) == len(v) && w == bstr(v) {
			return true
		}
	}
	return false
}

func (n *inNode) hasFloat(v float64) bool {
	if v != v {
		return n.hasNaN
	}
	if n.fltSet != nil {
		_, ok := n.fltSet[v]
		return ok
	}
	for _, w := range n.floats {
		if w == v {
			return true
		}
	}
	return false
}

// matches returns a per-row membership test for x (validity not checked).
func (n *inNode) matches(x arrow.Array) func(i int) bool {
	switch x.DataType().ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		v := i64s(x)
		return func(i int) bool { return n.hasInt(v[i]) }
	case arrow.DATE32:
		v := i32s(x)
		return func(i int) bool { return n.hasInt(int64(v[i])) }
	case arrow.DECIMAL128:
		v := w128s(x)
		return func(i int) bool {
			_, ok := n.wideSet[v[i]]
			return ok
		}
	case arrow.FLOAT64:
		v := f64s(x)
		return func(i int) bool { return n.hasFloat(v[i]) }
	case arrow.STRING:
		offs, data := strView(x)
		return func(i int) bool { return n.hasStr(data[offs[i]:offs[i+1]]) }
	case arrow.BOOL:
		d := x.Data()
		vals, off := d.Buffers()[1].Bytes(), d.Offset()
		return func(i int) bool { return n.hasInt(int64(b2i(bitSet(vals, off+i)))) }
	}
	return func(int) bool { return false }
}

func (n *inNode) operand(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	o, err := evalOperand(c, b, n.x)
	if err != nil {
		return nil, err
	}
	if o.sc != nil {
		return materialize(c, n.x.typ(), o), nil
	}
	return o.arr, nil
}

func (n *inNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	if n.not && n.hasNull {
		return dst, nil // NOT IN a list with NULL is never TRUE
	}
	x, err := n.operand(c, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if x.DataType().ID() == arrow.NULL {
		return dst, nil
	}
	valid, off := validBits(x), x.Data().Offset()
	want := !n.not
	if x.DataType().ID() == arrow.STRING && cand == nil {
		// specialised loop: no closure call per row
		offs, data := strView(x)
		if n.packed != nil {
			return dropNulls(x, nil, n.packed.sel(offs, data, want, dst)), nil
		}
		for i := 0; i < c.n; i++ {
			if n.hasStr(data[offs[i]:offs[i+1]]) == want {
				dst = append(dst, int32(i))
			}
		}
		return dropNulls(x, nil, dst), nil
	}
	if id := x.DataType().ID(); (id == arrow.INT64 || id == arrow.DECIMAL64) && cand == nil {
		for i, v := range i64s(x) {
			if n.hasInt(v) == want {
				dst = append(dst, int32(i))
			}
		}
		return dropNulls(x, nil, dst), nil
	}
	m := n.matches(x)
	return selectRows(c, cand, dst, func(i int) bool { return isValid(valid, off, i) && m(i) == want }), nil
}

func (n *inNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := n.operand(c, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if x.DataType().ID() == arrow.NULL {
		return allNull(c, Boolean), nil
	}
	m := n.matches(x)
	vals := newBitmap(c.mem, c.n)
	valid := ownValidity(c.mem, c.n, mergeValidity(c.mem, c.n, x))
	db, vb := vals.Bytes(), valid.Bytes()
	for i := 0; i < c.n; i++ {
		if !bitSet(vb, i) {
			continue
		}
		if m(i) {
			if !n.not {
				setBit(db, i)
			}
		} else if n.hasNull {
			clearBit(vb, i)
		} else if n.not {
			setBit(db, i)
		}
	}
	return finish(Boolean, c.n, valid, vals), nil
}
