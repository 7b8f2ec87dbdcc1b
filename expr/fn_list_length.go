package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// len(l) (also array_length) is the number of elements of the
// list l, NULL elements included; len of a string is its length in
// characters, as DuckDB's len is. CPU only.
func init() {
	Register(&Function{Name: "list_length", SQL: []string{"len", "array_length"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			t := args[0].Type()
			switch {
			case isNullType(t):
				return b.Literal(nil, Int64), nil
			case name == "len" && isType(t, arrow.STRING):
				return b.Call("length", args, Int64), nil
			}
			if _, ok := t.(*arrow.ListType); !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the argument must be a list", name, TypeName(t))
			}
			return b.Call("list_length", args, Int64), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			return &entriesNode{a: args[0]}, nil
		},
		NullPropagating: true,
		Doc:             "len(l) → BIGINT: the number of elements of a list (of a string: its length)"})
}

// entriesNode counts the entries of each list or map.
type entriesNode struct{ a node }

func (n *entriesNode) typ() arrow.DataType { return Int64 }

func (n *entriesNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	l, ok := a.(array.ListLike)
	if !ok { // a NULL constant
		return allNull(c, Int64), nil
	}
	buf, out := outI64(c.mem, c.n)
	for i := range out {
		start, end := l.ValueOffsets(i)
		out[i] = end - start
	}
	return finish(Int64, c.n, mergeValidity(c.mem, c.n, a), buf), nil
}
