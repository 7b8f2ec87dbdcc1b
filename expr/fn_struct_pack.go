package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// struct_pack(a, b, …) is the STRUCT whose fields are its arguments, never
// NULL itself (a NULL argument is a NULL field). Only the planner emits it,
// with the field names in the call's type: for a struct literal {'k': v}
// (bind_nested.go), and for an aggregate of two arguments (covar_pop(y, x), arg_max(a, v)) takes them
// as one value, so that every operator that moves an aggregate's argument
// (hash aggregation, its spill, exchanges, windows) moves both unchanged.
// Building it shares the arguments' buffers. CPU only: placement leaves an
// expression that holds it to the CPU.
func init() {
	Register(&Function{Name: "struct_pack", MinArgs: 1, MaxArgs: Variadic,
		CPU: func(call *Call, args []node) (node, error) {
			st, ok := call.Type.(*arrow.StructType)
			if !ok || st.NumFields() != len(args) {
				return nil, argErr(call, "wants a STRUCT result with one field per argument, got %s", call.Type)
			}
			for i, a := range args {
				if !arrow.TypeEqual(a.typ(), st.Field(i).Type) {
					return nil, argErr(call, "argument %d is %s, field %s is %s", i+1, a.typ(), st.Field(i).Name, st.Field(i).Type)
				}
			}
			return &structPackNode{args: args, t: st}, nil
		},
		Doc: "struct_pack(a, b, …) → STRUCT: its arguments as the fields of one value (planner only)"})
}

// PairFields names the fields of an aggregate's struct_pack of two
// arguments: the aggregated value (covar_pop's y, arg_max's arg) and the
// second argument (covar_pop's x, arg_max's ordering value).
var PairFields = [2]string{"v", "k"}

type structPackNode struct {
	args []node
	t    *arrow.StructType
}

func (n *structPackNode) typ() arrow.DataType { return n.t }

func (n *structPackNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	kids := make([]arrow.ArrayData, 0, len(n.args))
	defer func() {
		for _, k := range kids {
			k.Release()
		}
	}()
	for _, a := range n.args {
		v, err := a.eval(c, b)
		if err != nil {
			return nil, err
		}
		d := v.Data()
		d.Retain()
		v.Release()
		if d.Len() != int(b.NumRows()) {
			d.Release()
			return nil, errs.New(errs.Internal, "struct_pack: argument of %d rows in a batch of %d", d.Len(), b.NumRows())
		}
		kids = append(kids, d)
	}
	data := array.NewData(n.t, int(b.NumRows()), []*memory.Buffer{nil}, kids, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}
