package catalog

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"gq/errs"
	"gq/expr"
)

// Nested columns (lists, structs, maps, to any depth) are read as Arrow
// nested arrays of the same shape whose leaves are gq value types: the
// leaves go through normalizeType/normalizeArray like flat columns, and
// large and fixed-size lists become lists, so that the engine meets one
// list layout. A child gq cannot read keeps the whole column unreadable.
// Element and entry names are fixed (a list's "element", a map's "key" and
// "value"; struct fields keep theirs) and maps are not marked sorted, so
// that the same shape from two writers is one type.

// nestedType is the gq type of the nested field f, or why it cannot be read.
func nestedType(where string, f arrow.Field) (arrow.DataType, string) {
	switch t := f.Type.(type) {
	case *arrow.MapType:
		k, why := nestedType(where, t.KeyField())
		if why != "" {
			return nil, why
		}
		v, why := nestedType(where, t.ItemField())
		if why != "" {
			return nil, why
		}
		return arrow.MapOfFields(arrow.Field{Type: k}, arrow.Field{Type: v, Nullable: true}), ""
	case *arrow.ListType:
		return listOf(where, t.ElemField())
	case *arrow.LargeListType:
		return listOf(where, t.ElemField())
	case *arrow.FixedSizeListType:
		return listOf(where, t.ElemField())
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return nil, "a struct without fields has no gq type"
		}
		fields := make([]arrow.Field, t.NumFields())
		for i, c := range t.Fields() {
			ct, why := nestedType(where, c)
			if why != "" {
				return nil, why
			}
			fields[i] = arrow.Field{Name: c.Name, Type: ct, Nullable: true}
		}
		return arrow.StructOf(fields...), ""
	}
	if f.Type.ID() == arrow.NULL { // inside a nested value NULL is a value like others
		return arrow.Null, ""
	}
	gt, err := normalizeType(where, f)
	if err != nil {
		return nil, fmt.Sprintf("its field %s has type %s: %s", f.Name, typeString(f.Type), unreadableWhy(f))
	}
	return gt, ""
}

func listOf(where string, elem arrow.Field) (arrow.DataType, string) {
	et, why := nestedType(where, elem)
	if why != "" {
		return nil, why
	}
	// One element name whatever the writer chose ("element", "item",
	// "array"…), so that lists of one type from any file have one type.
	return arrow.ListOfField(arrow.Field{Name: "element", Type: et, Nullable: true}), ""
}

// schemaLeaves appends the leaf column indexes under sf, in file order.
func schemaLeaves(sf *pqarrow.SchemaField, out []int) []int {
	if sf.IsLeaf() {
		return append(out, sf.ColIndex)
	}
	for i := range sf.Children {
		out = schemaLeaves(&sf.Children[i], out)
	}
	return out
}

// normalizeNested converts the nested array arr to want (from nestedType);
// a new reference, arr is not released.
func normalizeNested(arr arrow.Array, want arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	if arrow.TypeEqual(arr.DataType(), want) {
		arr.Retain()
		return arr, nil
	}
	d := arr.Data()
	switch w := want.(type) {
	case *arrow.MapType:
		m, ok := arr.(*array.Map)
		if !ok {
			break
		}
		child, err := normalizeChild(m.ListValues(), w.Elem(), mem)
		if err != nil {
			return nil, err
		}
		return rebuilt(w, d, d.Buffers(), child), nil
	case *arrow.ListType:
		switch a := arr.(type) {
		case *array.List:
			child, err := normalizeChild(a.ListValues(), w.Elem(), mem)
			if err != nil {
				return nil, err
			}
			return rebuilt(w, d, d.Buffers(), child), nil
		case *array.LargeList:
			offs := a.Offsets() // covers a's logical range, offset applied
			out := make([]int32, len(offs))
			for i, o := range offs {
				if o > math.MaxInt32 {
					return nil, errs.New(errs.Execution, "a large list of more than %d values is not supported", math.MaxInt32)
				}
				out[i] = int32(o)
			}
			return listFrom(a, w, out, a.ListValues(), mem)
		case *array.Struct: // a legacy list element (legacyLists): its one field
			if a.NumField() == 1 {
				return normalizeNested(a.Field(0), w, mem)
			}
		case *array.FixedSizeList:
			n := int32(a.DataType().(*arrow.FixedSizeListType).Len())
			start := int32(a.Offset()) * n
			out := make([]int32, a.Len()+1)
			for i := range out {
				out[i] = start + int32(i)*n
			}
			return listFrom(a, w, out, a.ListValues(), mem)
		}
	case *arrow.StructType:
		s, ok := arr.(*array.Struct)
		if !ok {
			break
		}
		children := make([]arrow.ArrayData, s.NumField())
		for i := range children {
			c, err := normalizeChild(s.Field(i), w.Field(i).Type, mem)
			if err != nil {
				for _, done := range children[:i] {
					done.Release()
				}
				return nil, err
			}
			children[i] = c
		}
		// Field(i) is already sliced to s's range: the result starts at 0.
		var validity *memory.Buffer
		if s.NullN() > 0 {
			validity = sliceBitmap(s)
			defer validity.Release()
		}
		nd := array.NewData(w, s.Len(), []*memory.Buffer{validity}, children, s.NullN(), 0)
		for _, c := range children {
			c.Release()
		}
		defer nd.Release()
		return array.MakeFromData(nd), nil
	default:
		return normalizeArray(arr, want, mem)
	}
	return nil, errs.New(errs.Internal, "no conversion from %s to %s", arr.DataType(), want)
}

// normalizeChild normalises a child array; the result covers the child's
// whole logical range from offset 0, so the parent's offsets still apply.
func normalizeChild(c arrow.Array, want arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	n, err := normalizeNested(c, want, mem)
	if err != nil {
		return nil, err
	}
	d := n.Data()
	d.Retain()
	n.Release()
	return d, nil
}

// rebuilt is d with type t and the one child, keeping d's length, offset
// and buffers (the offsets index the child's whole range); it takes over
// child.
func rebuilt(t arrow.DataType, d arrow.ArrayData, bufs []*memory.Buffer, child arrow.ArrayData) arrow.Array {
	nd := array.NewData(t, d.Len(), bufs, []arrow.ArrayData{child}, d.NullN(), d.Offset())
	child.Release()
	defer nd.Release()
	return array.MakeFromData(nd)
}

// listFrom makes a list of a's logical range (offset 0, a's validity) with
// the given offsets into values.
func listFrom(a arrow.Array, t *arrow.ListType, offs []int32, values arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	child, err := normalizeChild(values, t.Elem(), mem)
	if err != nil {
		return nil, err
	}
	var validity *memory.Buffer
	if a.NullN() > 0 {
		validity = sliceBitmap(a)
		defer validity.Release()
	}
	nd := array.NewData(t, a.Len(), []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))}, []arrow.ArrayData{child}, a.NullN(), 0)
	child.Release()
	defer nd.Release()
	return array.MakeFromData(nd), nil
}

// addNested adds the nested top-level field sf to pf's columns, or says
// why gq cannot read it; t is its gq type.
func addNested(pf *parquetFile, sf pqarrow.SchemaField, node schema.Node, sch *schema.Schema, where string) (t arrow.DataType, why string) {
	f := *sf.Field
	f.Type = legacyLists(f.Type, node)
	t, why = nestedType(where, f)
	if why != "" {
		return nil, why
	}
	t = naiveNested(t, &sf, sch)
	if !expr.IsNested(t) { // a repeated leaf pqarrow did not make a list
		return nil, "gq cannot read this repeated column"
	}
	leaves := schemaLeaves(&sf, nil)
	if pf.nested == nil {
		pf.nested = map[int][]int{}
	}
	pf.nested[len(pf.leaves)] = leaves
	pf.leaves = append(pf.leaves, leaves[0])
	return t, ""
}

// naiveNested is t with each timestamp leaf made naive as a top-level
// column's is (naiveTimestamp), so a legacy TIMESTAMP_MICROS inside a
// struct, list or map reads as the same type as one at the top. sf is t's
// field in pqarrow's manifest; where the two shapes differ (a legacy list
// legacyLists rewrote) the leaves below keep their type.
func naiveNested(t arrow.DataType, sf *pqarrow.SchemaField, sch *schema.Schema) arrow.DataType {
	if sf.IsLeaf() {
		if expr.IsNested(t) {
			return t
		}
		return naiveTimestamp(t, sch.Column(sf.ColIndex))
	}
	switch t := t.(type) {
	case *arrow.StructType:
		if len(sf.Children) != t.NumFields() {
			return t
		}
		fields := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			f.Type = naiveNested(f.Type, &sf.Children[i], sch)
			fields[i] = f
		}
		return arrow.StructOf(fields...)
	case *arrow.ListType:
		if len(sf.Children) != 1 {
			return t
		}
		f := t.ElemField()
		f.Type = naiveNested(f.Type, &sf.Children[0], sch)
		return arrow.ListOfField(f)
	case *arrow.MapType:
		if len(sf.Children) != 1 || len(sf.Children[0].Children) != 2 {
			return t
		}
		kv := sf.Children[0].Children
		k, v := t.KeyField(), t.ItemField()
		k.Type = naiveNested(k.Type, &kv[0], sch)
		v.Type = naiveNested(v.Type, &kv[1], sch)
		return arrow.MapOfFields(k, v)
	}
	return t
}

// legacyLists rewrites t, pqarrow's type of the Parquet field node, where
// pqarrow misreads a legacy two-level list whose element is itself a list
// (a repeated LIST-annotated group): pqarrow makes that element a struct
// of one list field, DuckDB — following the format's compatibility rules —
// the list itself. The rewritten element is that list; normalizeNested
// takes the struct's field in its place.
func legacyLists(t arrow.DataType, node schema.Node) arrow.DataType {
	g, ok := node.(*schema.GroupNode)
	if !ok {
		return t
	}
	switch t := t.(type) {
	case *arrow.ListType:
		elem := listElementNode(g)
		if elem == nil {
			return t
		}
		f := t.ElemField()
		f.Type = legacyLists(f.Type, elem)
		return arrow.ListOfField(f)
	case *arrow.StructType:
		if g.RepetitionType() == parquet.Repetitions.Repeated && isListGroup(g) && g.NumFields() == 1 && t.NumFields() == 1 {
			if _, isList := t.Field(0).Type.(*arrow.ListType); isList {
				return legacyLists(t.Field(0).Type, g.Field(0))
			}
		}
		if g.NumFields() != t.NumFields() {
			return t
		}
		fields := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			f.Type = legacyLists(f.Type, g.Field(i))
			fields[i] = f
		}
		return arrow.StructOf(fields...)
	}
	return t
}

// listElementNode is the node of a list's elements under the list's group
// g, by the format's rules for two- and three-level lists; nil when g is
// not a list group.
func listElementNode(g *schema.GroupNode) schema.Node {
	if g.RepetitionType() == parquet.Repetitions.Repeated {
		return g // a repeated group not under a LIST: its own element
	}
	if !isListGroup(g) || g.NumFields() != 1 {
		return nil
	}
	r, ok := g.Field(0).(*schema.GroupNode)
	if !ok || r.NumFields() != 1 || r.Name() == "array" || r.Name() == g.Name()+"_tuple" || isListGroup(r) {
		return g.Field(0) // two levels: the repeated field is the element
	}
	return r.Field(0)
}

func isListGroup(g *schema.GroupNode) bool {
	_, list := g.LogicalType().(schema.ListLogicalType)
	return list || g.ConvertedType() == schema.ConvertedTypes.List
}

// leavesOf lists the file's leaf columns of the table's column c.
func (f *parquetFile) leavesOf(c int) []int {
	if l := f.nested[c]; l != nil {
		return l
	}
	return f.leaves[c : c+1]
}
