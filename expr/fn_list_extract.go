package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// list_extract(l, i) (also list_element, array_extract) is the i-th element of
// the list l, counted from 1, or from the end when i is negative (DuckDB's
// rule); NULL when i is 0 or out of range. CPU only.
func init() {
	Register(&Function{Name: "list_extract", SQL: []string{"list_extract", "list_element", "array_extract"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			lt, ok := args[0].Type().(*arrow.ListType)
			if !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the first argument must be a list", name, TypeName(args[0].Type()))
			}
			if !isIntType(args[1].Type()) && !isNullType(args[1].Type()) {
				return nil, errs.NewNear(errs.Binding, name, "%s: the index must be an integer, not %s", name, TypeName(args[1].Type()))
			}
			i, err := b.Cast(args[1], Int64)
			if err != nil {
				return nil, err
			}
			return b.Call("list_extract", []Operand{args[0], i}, lt.Elem()), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			if err := wantType(call, args[1], arrow.INT64); err != nil {
				return nil, err
			}
			return &listExtractNode{l: args[0], i: args[1], t: call.Type}, nil
		},
		NullPropagating: true,
		Doc:             "list_extract(l, i) → the element type: the i-th element of a list, from 1 (negative: from the end)"})
}

type listExtractNode struct {
	l, i node
	t    arrow.DataType
}

func (n *listExtractNode) typ() arrow.DataType { return n.t }

func (n *listExtractNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.l.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	ia, err := n.i.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer ia.Release()
	l, ok := a.(*array.List)
	if !ok || ia.DataType().ID() != arrow.INT64 { // a NULL constant
		return allNull(c, n.t), nil
	}
	ks := i64s(ia)
	idx := make([]int32, l.Len())
	for r := range idx {
		idx[r] = -1
		if l.IsNull(r) || ia.IsNull(r) {
			continue
		}
		start, end := l.ValueOffsets(r)
		switch k := ks[r]; {
		case k > 0 && k <= end-start:
			idx[r] = int32(start + k - 1)
		case k < 0 && -k <= end-start:
			idx[r] = int32(end + k)
		}
	}
	return TakeNested(c.mem, l.ListValues(), idx), nil
}
