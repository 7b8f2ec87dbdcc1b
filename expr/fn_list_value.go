package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// list_value(a, b, …) (also list_pack) is the list [a, b, …], DuckDB's
// list literal: the grammar reads [a, b] as this call. Its elements meet
// in one type as CASE's branches do; nested elements (a list of lists or
// of structs) must have one type, up to NULLs and empty lists
// (cast_nested.go). [] is a list of the NULL type, as DuckDB's is. The list itself is never NULL; a NULL argument is
// a NULL element. CPU only.
func init() {
	Register(&Function{Name: "list_value", SQL: []string{"list_value", "list_pack"}, MinArgs: 0, MaxArgs: Variadic,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			et, args, err := b.Unify(name+"(…)", args)
			if err != nil {
				return nil, err
			}
			return b.Call("list_value", args, arrow.ListOf(et)), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			lt, ok := call.Type.(*arrow.ListType)
			if !ok {
				return nil, argErr(call, "wants a list result, got %s", call.Type)
			}
			for i, a := range args {
				if !arrow.TypeEqual(a.typ(), lt.Elem()) {
					return nil, argErr(call, "element %d is %s, the list holds %s", i+1, a.typ(), lt.Elem())
				}
			}
			return &listValueNode{args: args, t: lt}, nil
		},
		Doc: "list_value(a, b, …) → LIST: the list of its arguments ([a, b, …])"})
}

type listValueNode struct {
	args []node
	t    *arrow.ListType
}

func (n *listValueNode) typ() arrow.DataType { return n.t }

// eval lays the k arguments' n values out row by row: element j of row r
// is argument j's value r, gathered from the arguments placed end to end.
func (n *listValueNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	rows, k := int(b.NumRows()), len(n.args)
	vals := make([]arrow.Array, 0, k)
	defer func() {
		for _, v := range vals {
			v.Release()
		}
	}()
	for _, a := range n.args {
		v, err := a.eval(c, b)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		if v.Len() != rows {
			return nil, errs.New(errs.Internal, "list_value: argument of %d rows in a batch of %d", v.Len(), rows)
		}
	}
	var elems arrow.Array
	if k == 0 {
		elems = array.MakeArrayOfNull(c.mem, n.t.Elem(), 0)
	} else {
		all, err := array.Concatenate(vals, c.mem)
		if err != nil {
			return nil, errs.New(errs.Internal, "list_value: %v", err)
		}
		idx := make([]int32, rows*k)
		for r := 0; r < rows; r++ {
			for j := 0; j < k; j++ {
				idx[r*k+j] = int32(j*rows + r)
			}
		}
		elems = TakeNested(c.mem, all, idx)
		all.Release()
	}
	defer elems.Release()
	offs := memory.NewResizableBuffer(c.mem)
	defer offs.Release()
	offs.Resize(arrow.Int32Traits.BytesRequired(rows + 1))
	o := arrow.Int32Traits.CastFromBytes(offs.Bytes())
	for r := 0; r <= rows; r++ {
		o[r] = int32(r * k)
	}
	data := array.NewData(n.t, rows, []*memory.Buffer{nil, offs}, []arrow.ArrayData{elems.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}
