package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// map_extract(m, k) (also element_at) is the list of m's values under key
// k — [v], or [] when k is absent — and map_extract_value(m, k) the value
// itself, NULL when absent: DuckDB's pair. The key is cast to the map's key
// type; keys are BIGINT, DOUBLE, DECIMAL, DATE, BOOLEAN or VARCHAR (what gq
// reads). CPU only.
func init() {
	bind := func(fn string, list bool) func(Binder, string, []Operand) (Operand, error) {
		return func(b Binder, name string, args []Operand) (Operand, error) {
			mt, ok := args[0].Type().(*arrow.MapType)
			if !ok {
				return nil, errs.NewNear(errs.Binding, name, "%s of %s: the first argument must be a MAP", name, TypeName(args[0].Type()))
			}
			k, err := b.Cast(args[1], mt.KeyType())
			if err != nil {
				return nil, err
			}
			t := mt.ItemType()
			if list {
				t = arrow.ListOf(t)
			}
			return b.Call(fn, []Operand{args[0], k}, t), nil
		}
	}
	cpu := func(list bool) func(*Call, []node) (node, error) {
		return func(call *Call, args []node) (node, error) {
			if err := wantArgs(call, args, 2, 2); err != nil {
				return nil, err
			}
			return &mapExtractNode{m: args[0], k: args[1], t: call.Type, list: list}, nil
		}
	}
	Register(&Function{Name: "map_extract", SQL: []string{"map_extract", "element_at"}, MinArgs: 2, MaxArgs: 2,
		Bind: bind("map_extract", true), CPU: cpu(true), NullPropagating: true,
		Doc: "map_extract(m, k) → a list of the value type: [the value under k], [] when k is absent"})
	Register(&Function{Name: "map_extract_value", SQL: []string{"map_extract_value"}, MinArgs: 2, MaxArgs: 2,
		Bind: bind("map_extract_value", false), CPU: cpu(false), NullPropagating: true,
		Doc: "map_extract_value(m, k) → the value type: the value under k, NULL when absent"})
}

type mapExtractNode struct {
	m, k node
	t    arrow.DataType
	list bool
}

func (n *mapExtractNode) typ() arrow.DataType { return n.t }

func (n *mapExtractNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	ma, err := n.m.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer ma.Release()
	ka, err := n.k.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer ka.Release()
	m, ok := ma.(*array.Map)
	if !ok || ka.DataType().ID() == arrow.NULL {
		return allNull(c, n.t), nil
	}
	kv := m.ListValues().(*array.Struct)
	keys, items := kv.Field(0), kv.Field(1)
	eq := keyEqual(keys, ka)
	if eq == nil {
		return nil, errs.New(errs.Unsupported, "map keys of type %s are not supported", TypeName(keys.DataType()))
	}
	at := make([]int32, m.Len()) // the entry under the key, -1: none or NULL
	for r := range at {
		at[r] = -1
		if m.IsNull(r) || ka.IsNull(r) {
			continue
		}
		start, end := m.ValueOffsets(r)
		for j := start; j < end; j++ {
			if eq(int(j), r) {
				at[r] = int32(j)
				break
			}
		}
	}
	if !n.list {
		return TakeNested(c.mem, items, at), nil
	}
	return listOfFound(c.mem, m, ka, at, items, n.t), nil
}

// listOfFound is the list per row of the one entry at[r] of items ([] where
// at[r] < 0), NULL where the map or the key is NULL.
func listOfFound(mem memory.Allocator, m *array.Map, ka arrow.Array, at []int32, items arrow.Array, t arrow.DataType) arrow.Array {
	var found []int32
	offs := make([]int32, len(at)+1)
	for r, j := range at {
		if j >= 0 {
			found = append(found, j)
		}
		offs[r+1] = int32(len(found))
	}
	child := TakeNested(mem, items, found)
	defer child.Release()
	valid := make([]byte, (len(at)+7)/8)
	nulls := 0
	for r := range at {
		if m.IsNull(r) || ka.IsNull(r) {
			nulls++
		} else {
			valid[r/8] |= 1 << (r % 8)
		}
	}
	d := array.NewData(t, len(at), []*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))},
		[]arrow.ArrayData{child.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// keyEqual compares entry j of keys with row r of k (same type); nil for a
// key type gq does not read.
func keyEqual(keys, k arrow.Array) func(j, r int) bool {
	switch a := keys.(type) {
	case *array.String:
		b := k.(*array.String)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	case *array.Int64:
		b := k.(*array.Int64)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	case *array.Float64:
		b := k.(*array.Float64)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	case *array.Date32:
		b := k.(*array.Date32)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	case *array.Decimal64:
		b := k.(*array.Decimal64)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	case *array.Boolean:
		b := k.(*array.Boolean)
		return func(j, r int) bool { return a.Value(j) == b.Value(r) }
	}
	return nil
}
