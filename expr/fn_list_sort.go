package expr

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// list_sort(l) (also array_sort) is the list l with its elements in
// ascending order, NULLs last (DuckDB's defaults); elements that are lists
// or structs order as ORDER BY orders them (fn_nested_sort_key.go). A NULL
// list is NULL. DuckDB's order arguments are not taken. CPU only.
func init() {
	Register(&Function{Name: "list_sort", SQL: []string{"list_sort", "array_sort"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			if isNullType(args[0].Type()) {
				return b.Literal(nil, Null), nil
			}
			lt, ok := args[0].Type().(*arrow.ListType)
			if !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the argument must be a list", name, TypeName(args[0].Type()))
			}
			if err := sortKeyable(arrow.ListOf(lt.Elem())); err != nil {
				return nil, errs.NewNear(errs.Unsupported, name, "%s of %s: %v", name, TypeName(lt), err)
			}
			return b.Call("list_sort", args, lt), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			if _, ok := args[0].typ().(*arrow.ListType); !ok || !arrow.TypeEqual(args[0].typ(), call.Type) {
				return nil, argErr(call, "wants a list, got %s", args[0].typ())
			}
			return &listSortNode{a: args[0]}, nil
		},
		NullPropagating: true,
		Doc:             "list_sort(l) → the list type: l's elements ascending, NULLs last"})
}

type listSortNode struct{ a node }

func (n *listSortNode) typ() arrow.DataType { return n.a.typ() }

func (n *listSortNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	l, ok := a.(*array.List)
	if !ok { // a NULL constant
		return allNull(c, n.typ()), nil
	}
	vals := l.ListValues()
	var idx []int32
	var keys [][]byte
	offs := make([]int32, l.Len()+1)
	for r := range l.Len() {
		offs[r+1] = offs[r]
		if l.IsNull(r) {
			continue
		}
		s, e := l.ValueOffsets(r)
		keys = keys[:0]
		order := make([]int32, 0, e-s)
		for k := s; k < e; k++ {
			keys = append(keys, appendSortKey(nil, vals, int(k)))
			order = append(order, int32(k-s))
		}
		slices.SortStableFunc(order, func(x, y int32) int { return bytes.Compare(keys[x], keys[y]) })
		for _, o := range order {
			idx = append(idx, int32(s)+o)
		}
		offs[r+1] += int32(e - s)
	}
	elems := TakeNested(c.mem, vals, idx)
	defer elems.Release()
	ob := memory.NewResizableBuffer(c.mem)
	defer ob.Release()
	ob.Resize(arrow.Int32Traits.BytesRequired(len(offs)))
	copy(arrow.Int32Traits.CastFromBytes(ob.Bytes()), offs)
	valid := mergeValidity(c.mem, l.Len(), l)
	if valid != nil {
		defer valid.Release()
	}
	data := array.NewData(n.typ(), l.Len(), []*memory.Buffer{valid, ob}, []arrow.ArrayData{elems.Data()}, l.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}
