package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	cexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// Nested values: a file's list, struct and map columns are read as Arrow
// nested arrays whose leaves are gq value types (catalog normalises them as
// it does flat columns; large and fixed-size lists become lists). They can
// be selected, tested with IS [NOT] NULL, counted, carried through every
// operator as payload, and taken apart by the functions of fn_struct_extract.go,
// fn_list_extract.go, fn_list_length.go, fn_map_extract.go and
// fn_cardinality.go. Everything that needs an order, an equality or
// arithmetic on the whole value (keys of GROUP BY, joins, ORDER BY,
// DISTINCT, comparisons, casts, min/max/sum) is refused at binding by
// NestedErr, naming the column, its type and the feature.

// IsNested reports whether t is a list, struct or map type.
func IsNested(t arrow.DataType) bool {
	switch t.(type) {
	case *arrow.ListType, *arrow.LargeListType, *arrow.FixedSizeListType, *arrow.StructType, *arrow.MapType:
		return true
	}
	return false
}

// NestedErr is the binding error of a feature applied to a nested value:
// what names the value (a column name or the expression), near locates it.
func NestedErr(near, what string, t arrow.DataType, feature string) error {
	return errs.NewNear(errs.Unsupported, near, "%s has type %s: %s of a nested value is not supported", what, TypeName(t), feature)
}

// nestedTypeName spells a nested type as DuckDB does: BIGINT[],
// STRUCT(a BIGINT, b VARCHAR), MAP(VARCHAR, BIGINT).
func nestedTypeName(t arrow.DataType) string {
	switch t := t.(type) {
	case *arrow.MapType:
		return "MAP(" + TypeName(t.KeyType()) + ", " + TypeName(t.ItemType()) + ")"
	case *arrow.ListType:
		return TypeName(t.Elem()) + "[]"
	case *arrow.LargeListType:
		return TypeName(t.Elem()) + "[]"
	case *arrow.FixedSizeListType:
		return TypeName(t.Elem()) + fmt.Sprintf("[%d]", t.Len())
	case *arrow.StructType:
		s := "STRUCT("
		for i, f := range t.Fields() {
			if i > 0 {
				s += ", "
			}
			s += fieldName(f.Name) + " " + TypeName(f.Type)
		}
		return s + ")"
	}
	return t.String()
}

// fieldName is a struct field's name in a type name: double-quoted unless
// it is a plain identifier.
func fieldName(n string) string {
	for i, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
	}
	if n == "" {
		return `""`
	}
	return n
}

// Nested values are never keys, but they travel as payload through every
// operator that gathers rows (exec.TakeArray, catalog's filtered scans).
// Such gathers are rarer and slower than flat ones, so they go through
// arrow-go's compute Take, which handles every nested layout.

// TakeNested gathers values idx of the nested array arr; -1 yields NULL.
func TakeNested(mem memory.Allocator, arr arrow.Array, idx []int32) arrow.Array {
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.Reserve(len(idx))
	for _, j := range idx {
		if j < 0 {
			b.AppendNull()
		} else {
			b.UnsafeAppend(j)
		}
	}
	ix := b.NewInt32Array()
	defer ix.Release()
	// arrow-go's take has no kernel for decimal64 or month_day_nano
	// values: the take runs over the same buffers typed as int64 and
	// decimal128 (the same widths) and the result is typed back.
	orig := arr.DataType()
	if tt, changed := takeType(orig); changed {
		d := retype(arr.Data(), tt)
		arr = array.MakeFromData(d)
		d.Release()
		defer arr.Release()
	}
	out, err := compute.TakeArray(cexec.WithAllocator(context.Background(), mem), arr, ix)
	if err == nil && !arrow.TypeEqual(out.DataType(), orig) {
		d := retype(out.Data(), orig)
		out.Release()
		out = array.MakeFromData(d)
		d.Release()
	}
	if err != nil {
		// Indices come from the operator and are in range: a failure here
		// is a bug in arrow-go or in the caller, as a panic in TakeArray's
		// flat cases would be; the operator's recover reports it.
		panic("expr.TakeNested: " + err.Error())
	}
	return out
}

// takeType is t with every decimal64 inside it as int64 and every
// month_day_nano interval as decimal128(38,0), and whether that changed
// anything.
func takeType(t arrow.DataType) (arrow.DataType, bool) {
	switch t := t.(type) {
	case *arrow.Decimal64Type:
		return arrow.PrimitiveTypes.Int64, true
	case *arrow.MonthDayNanoIntervalType:
		return &arrow.Decimal128Type{Precision: 38, Scale: 0}, true
	case *arrow.ListType:
		e, ch := takeType(t.Elem())
		return arrow.ListOfField(arrow.Field{Name: t.ElemField().Name, Type: e, Nullable: t.ElemField().Nullable}), ch
	case *arrow.LargeListType:
		e, ch := takeType(t.Elem())
		return arrow.LargeListOfField(arrow.Field{Name: t.ElemField().Name, Type: e, Nullable: t.ElemField().Nullable}), ch
	case *arrow.FixedSizeListType:
		e, ch := takeType(t.Elem())
		return arrow.FixedSizeListOfField(t.Len(), arrow.Field{Name: t.ElemField().Name, Type: e, Nullable: t.ElemField().Nullable}), ch
	case *arrow.MapType:
		k, kch := takeType(t.KeyType())
		v, vch := takeType(t.ItemType())
		m := arrow.MapOfWithMetadata(k, t.KeyField().Metadata, v, t.ItemField().Metadata)
		m.KeysSorted = t.KeysSorted
		return m, kch || vch
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		changed := false
		for i, f := range t.Fields() {
			ft, ch := takeType(f.Type)
			f.Type = ft
			fs[i] = f
			changed = changed || ch
		}
		return arrow.StructOf(fs...), changed
	}
	return t, false
}

// retype is d's buffers under type t, which has d's layout (takeType's
// result or its inverse), children included.
func retype(d arrow.ArrayData, t arrow.DataType) arrow.ArrayData {
	var kids []arrow.ArrayData
	switch t := t.(type) {
	case *arrow.ListType:
		kids = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	case *arrow.LargeListType:
		kids = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	case *arrow.FixedSizeListType:
		kids = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	case *arrow.MapType:
		kids = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	case *arrow.StructType:
		for i, f := range t.Fields() {
			kids = append(kids, retype(d.Children()[i], f.Type))
		}
	}
	out := array.NewData(t, d.Len(), d.Buffers(), kids, d.NullN(), d.Offset())
	for _, k := range kids {
		k.Release()
	}
	return out
}

// takesNested lists the IR names of what accepts nested arguments: the
// functions that take them apart or build them, and the NULL tests. Any other operator or
// function given one is refused at binding (NestedErr).
var takesNested = map[string]bool{
	"struct_extract": true, "list_extract": true, "list_length": true, "cardinality": true, "list_sort": true,
	"map_extract": true, "map_extract_value": true,
	"list_value": true, "struct_pack": true, // build them
	"nested_key": true, "nested_sort_key": true, // key them for DISTINCT and ORDER BY
	"unnest":  true, // refuses them itself, saying what it lacks
	"is_null": true, "is_not_null": true,
}

// TakesNested reports whether the IR function or operator fn (or, for
// unnest, the SQL name) accepts nested arguments.
func TakesNested(fn string) bool { return takesNested[fn] }
