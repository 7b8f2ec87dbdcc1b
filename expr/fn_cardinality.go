package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// cardinality(m) is the number of entries of the map m (DuckDB's). CPU only.
func init() {
	Register(&Function{Name: "cardinality", SQL: []string{"cardinality"}, MinArgs: 1, MaxArgs: 1,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			t := args[0].Type()
			if isNullType(t) {
				return b.Literal(nil, Int64), nil
			}
			if _, ok := t.(*arrow.MapType); !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the argument must be a MAP", name, TypeName(t))
			}
			return b.Call("cardinality", args, Int64), nil
		},
		CPU: func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 1, 1); err != nil {
				return nil, err
			}
			return &entriesNode{a: args[0]}, nil
		},
		NullPropagating: true,
		Doc:             "cardinality(m) → BIGINT: the number of entries of a map"})
}
