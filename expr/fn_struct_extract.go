package expr

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// struct_extract(s, 'f') is field f of the struct s (DuckDB's; s.f binds to
// it too): NULL where s is NULL. Field names match case-insensitively, an
// exact match first. CPU only: placement leaves it to the CPU.
func init() {
	Register(&Function{Name: "struct_extract", SQL: []string{"struct_extract"}, MinArgs: 2, MaxArgs: 2,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			st, ok := args[0].Type().(*arrow.StructType)
			if !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the first argument must be a STRUCT", name, TypeName(args[0].Type()))
			}
			v, _ := b.Constant(args[1])
			f, ok := v.(string)
			if !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s: the field name must be a constant string", name)
			}
			i := structField(st, f)
			if i < 0 {
				return nil, errs.NewNear(errs.Binding, name, "%s has no field %q", TypeName(st), f)
			}
			return b.Call("struct_extract", []Operand{args[0], b.Literal(st.Field(i).Name, String)}, st.Field(i).Type), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			st, ok := args[0].typ().(*arrow.StructType)
			lit, isLit := call.Args[1].(*Literal)
			if !ok || !isLit {
				return nil, argErr(call, "wants a struct and a constant field name")
			}
			name, _ := lit.Value.(string)
			i := structField(st, name)
			if i < 0 {
				return nil, argErr(call, "no field %q in %s", name, st)
			}
			return &structExtractNode{s: args[0], field: i, t: st.Field(i).Type}, nil
		},
		NullPropagating: true,
		Doc:             "struct_extract(s, 'field') → the field's type: a field of a STRUCT (also s.field)"})
}

// structField is the index of the field of st named name (exactly, else
// ignoring case), -1 when there is none.
func structField(st *arrow.StructType, name string) int {
	if i, ok := st.FieldIdx(name); ok {
		return i
	}
	for i, f := range st.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

type structExtractNode struct {
	s     node
	field int
	t     arrow.DataType
}

func (n *structExtractNode) typ() arrow.DataType { return n.t }

func (n *structExtractNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.s.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	s, ok := a.(*array.Struct)
	if !ok { // a NULL constant
		return allNull(c, n.t), nil
	}
	f := s.Field(n.field) // sliced to s's rows
	if s.NullN() == 0 && f.Data().Offset() == 0 {
		f.Retain()
		return f, nil
	}
	// A NULL struct's fields need not be NULL in the child: gather the
	// field with NULL where the struct is, which also starts it at 0.
	idx := make([]int32, s.Len())
	for i := range idx {
		idx[i] = int32(i)
		if s.IsNull(i) {
			idx[i] = -1
		}
	}
	return TakeNested(c.mem, f, idx), nil
}
