package physical

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec"
	"gq/expr"
)

// ShareCommonSubplans computes identical expensive subplans once. The
// binder inlines a CTE at every reference, so a query that names one CTE
// twice (TPC-H q15's revenue0) lowers to two equal subtrees; each becomes
// a SharedRead of one SharedSource, which runs the subtree once and keeps
// its result for the query (DuckDB materialises such CTEs too). Only
// subtrees rooted at an aggregate, join, sort or window are shared: below
// those, recomputing is cheap next to keeping the rows.
//
// Subtrees are equal when their fingerprints are: every field of every
// node, expressions with column positions and types, tables by identity.
// A node with a field the fingerprint does not understand is never shared.
// Plans for several ranks are not shared (their exchanges differ), so the
// engine calls this for one-rank plans only.
func ShareCommonSubplans(root exec.Node) exec.Node {
	candidates := repeatedShapes(root)
	if len(candidates) == 0 {
		return root // most plans: no two shareable subtrees alike
	}
	fps := map[exec.Node]string{}
	count := map[string]int{}
	for _, n := range candidates {
		if fp, ok := fingerprint(n, fps); ok {
			count[fp]++
		}
	}
	sources := map[string]*exec.SharedSource{}
	next := 0
	var rewrite func(n exec.Node) exec.Node
	rewrite = func(n exec.Node) exec.Node {
		if fp, ok := fps[n]; ok && shareable(n) && count[fp] > 1 {
			src, seen := sources[fp]
			if !seen {
				next++
				src = &exec.SharedSource{Input: exec.RewriteChildren(n, rewrite), ID: next}
				sources[fp] = src
			}
			return &exec.SharedRead{Src: src, ID: src.ID, Primary: !seen}
		}
		return exec.RewriteChildren(n, rewrite)
	}
	if len(count) == 0 {
		return root
	}
	return rewrite(root)
}

// repeatedShapes returns the shareable subtrees of root whose shape
// (node types, in the same tree) another one has. Equal subtrees have
// equal shapes, so only these can be equal, and only they need
// fingerprints: every field of every node below, written out (made for
// every node, they were a fifth of planning a TPC-H query).
func repeatedShapes(root exec.Node) []exec.Node {
	byShape := map[uint64][]exec.Node{}
	var shape func(n exec.Node) uint64
	shape = func(n exec.Node) uint64 {
		var h maphash.Hash
		h.SetSeed(shapeSeed)
		h.WriteString(reflect.TypeOf(n).String())
		for _, c := range n.Children() {
			maphash.WriteComparable(&h, shape(c))
		}
		sum := h.Sum64()
		if shareable(n) {
			byShape[sum] = append(byShape[sum], n)
		}
		return sum
	}
	shape(root)
	var out []exec.Node
	for _, ns := range byShape {
		if len(ns) > 1 {
			out = append(out, ns...)
		}
	}
	return out
}

var shapeSeed = maphash.MakeSeed()

func shareable(n exec.Node) bool {
	switch n.(type) {
	case *exec.HashAggregate, *exec.HashJoin, *exec.Sort, *exec.Window:
		return true
	}
	return false
}

var (
	nodeType   = reflect.TypeFor[exec.Node]()
	exprType   = reflect.TypeFor[expr.Expr]()
	dtypeType  = reflect.TypeFor[arrow.DataType]()
	schemaType = reflect.TypeFor[*arrow.Schema]()
)

// fingerprint returns n's fingerprint (memoised in fps), or false when a
// field of n or below cannot be fingerprinted.
func fingerprint(n exec.Node, fps map[exec.Node]string) (string, bool) {
	if fp, ok := fps[n]; ok {
		return fp, true
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	var b strings.Builder
	b.WriteString(v.Elem().Type().String())
	b.WriteByte('{')
	if !fpStruct(&b, v.Elem(), fps) {
		return "", false
	}
	b.WriteByte('}')
	fps[n] = b.String()
	return fps[n], true
}

func fpStruct(b *strings.Builder, s reflect.Value, fps map[exec.Node]string) bool {
	for i := range s.NumField() {
		if !s.Type().Field(i).IsExported() {
			return false // state we cannot see: never share
		}
		b.WriteString(s.Type().Field(i).Name)
		b.WriteByte('=')
		if !fpValue(b, s.Field(i), fps) {
			return false
		}
		b.WriteByte(';')
	}
	return true
}

func fpValue(b *strings.Builder, v reflect.Value, fps map[exec.Node]string) bool {
	t := v.Type()
	switch {
	case t == nodeType:
		if v.IsNil() {
			b.WriteString("nil")
			return true
		}
		fp, ok := fingerprint(v.Interface().(exec.Node), fps)
		b.WriteString(fp)
		return ok
	case t == exprType:
		if v.IsNil() {
			b.WriteString("nil")
			return true
		}
		return expr.WriteKey(b, v.Interface().(expr.Expr))
	case t == dtypeType:
		if v.IsNil() {
			b.WriteString("nil")
		} else {
			b.WriteString(fpType(v.Interface().(arrow.DataType)))
		}
		return true
	case t == schemaType:
		if v.IsNil() {
			b.WriteString("nil")
		} else {
			b.WriteString(v.Interface().(*arrow.Schema).String())
		}
		return true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.String,
		reflect.Float64:
		fmt.Fprintf(b, "%v", v.Interface())
		return true
	case reflect.Slice:
		b.WriteByte('[')
		for j := range v.Len() {
			if !fpValue(b, v.Index(j), fps) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(']')
		return true
	case reflect.Struct:
		return fpStruct(b, v, fps)
	case reflect.Pointer:
		if v.IsNil() { // an unset option (HashJoin.Publish)
			b.WriteString("nil")
			return true
		}
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return true
		}
		// A table or other source: equal only when it is the same object.
		if e := v.Elem(); e.Kind() == reflect.Pointer {
			fmt.Fprintf(b, "%s@%x", e.Type(), e.Pointer())
			return true
		}
	}
	return false
}

func fpType(t arrow.DataType) string { return expr.TypeKey(t) }
