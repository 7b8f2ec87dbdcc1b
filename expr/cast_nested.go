package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A nested value built from literals can hold the NULL type where a value
// was NULL or a list was empty: [] is NULL[], {'a': NULL} is STRUCT(a
// NULL). Such a value casts to any type of the same shape (its NULLs
// become NULLs of that type), so that [[1], []] is a BIGINT[][] and []
// goes into a BIGINT[] column. No other cast of a nested value exists.

// NullFills reports whether from is to with the NULL type in some places:
// equal, or NULL, or a list, struct (same field names, in order) whose
// parts fill in the same way.
func NullFills(from, to arrow.DataType) bool {
	if isNullType(from) || arrow.TypeEqual(from, to) {
		return true
	}
	switch f := from.(type) {
	case *arrow.ListType:
		t, ok := to.(*arrow.ListType)
		return ok && NullFills(f.Elem(), t.Elem())
	case *arrow.StructType:
		t, ok := to.(*arrow.StructType)
		if !ok || f.NumFields() != t.NumFields() {
			return false
		}
		for i := range f.NumFields() {
			if f.Field(i).Name != t.Field(i).Name || !NullFills(f.Field(i).Type, t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// nullFillNode casts a nested value whose type NullFills the target.
type nullFillNode struct {
	a  node
	to arrow.DataType
}

func (n *nullFillNode) typ() arrow.DataType { return n.to }

func (n *nullFillNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	d := nullFill(c, a.Data(), n.to)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// nullFill is d retyped as to (NullFills(d's type, to)): the same buffers,
// with each part of the NULL type replaced by NULLs of to's part.
func nullFill(c *ctx, d arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	if arrow.TypeEqual(d.DataType(), to) {
		d.Retain()
		return d
	}
	if isNullType(d.DataType()) {
		whole := array.MakeArrayOfNull(c.mem, to, d.Offset()+d.Len())
		defer whole.Release()
		return array.NewSliceData(whole.Data(), int64(d.Offset()), int64(d.Offset()+d.Len()))
	}
	var kids []arrow.ArrayData
	switch t := to.(type) {
	case *arrow.ListType:
		kids = []arrow.ArrayData{nullFill(c, d.Children()[0], t.Elem())}
	case *arrow.StructType:
		for i, f := range t.Fields() {
			kids = append(kids, nullFill(c, d.Children()[i], f.Type))
		}
	}
	out := array.NewData(to, d.Len(), d.Buffers(), kids, d.NullN(), d.Offset())
	for _, k := range kids {
		k.Release()
	}
	return out
}
