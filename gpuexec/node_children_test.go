package gpuexec

import (
	"reflect"
	"testing"
	"unsafe"

	"gq/exec"
	"gq/expr"
)

// TestWithChildrenKeepsPlanFields: the field-by-field copies of the
// device operators (node_children.go) carry every field but the figures
// a run counts (sync/atomic values), so a field added to an operator and
// not to its copy fails here.
func TestWithChildrenKeepsPlanFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		node any
		copy func(any) any
	}{
		{"GPUScan", &GPUScan{}, func(n any) any { return n.(*GPUScan).clone() }},
		{"GPUAggregate", &GPUAggregate{}, func(n any) any { return n.(*GPUAggregate).clone() }},
		{"GPUOuterAggregate", &GPUOuterAggregate{}, func(n any) any { return n.(*GPUOuterAggregate).clone() }},
		{"GPUJoinRows", &GPUJoinRows{}, func(n any) any { return n.(*GPUJoinRows).clone() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := reflect.ValueOf(tc.node).Elem()
			fill(t, orig)
			cp := reflect.ValueOf(tc.copy(tc.node)).Elem()
			for i := range orig.NumField() {
				f := orig.Type().Field(i)
				if runFigures(f.Type) {
					continue
				}
				a, b := settable(orig.Field(i)), settable(cp.Field(i))
				if !sameValue(a, b) {
					t.Errorf("%s.%s is not copied", tc.name, f.Name)
				}
			}
		})
	}
}

// runFigures reports whether t is a run's figures: sync/atomic values,
// arrays and slices of structs of them.
func runFigures(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		return runFigures(t.Elem())
	case reflect.Struct:
		if t.PkgPath() == "sync/atomic" {
			return true
		}
		for i := range t.NumField() {
			if !runFigures(t.Field(i).Type) {
				return false
			}
		}
		return t.NumField() > 0
	}
	return false
}

func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func sameValue(a, b reflect.Value) bool {
	if a.Kind() == reflect.Func {
		return a.Pointer() == b.Pointer()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// fill sets every field of the struct v that is not a run's figures to a
// value other than its zero.
func fill(t *testing.T, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if runFigures(f.Type) {
			continue
		}
		fv := settable(v.Field(i))
		switch fv.Kind() {
		case reflect.Pointer:
			fv.Set(reflect.New(fv.Type().Elem()))
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
		case reflect.Map:
			fv.Set(reflect.MakeMap(fv.Type()))
		case reflect.Int, reflect.Int32, reflect.Int64:
			fv.SetInt(7)
		case reflect.Bool:
			fv.SetBool(true)
		case reflect.String:
			fv.SetString("x")
		case reflect.Struct:
			fill(t, fv)
		case reflect.Func:
			fv.Set(reflect.MakeFunc(fv.Type(), func([]reflect.Value) []reflect.Value { return nil }))
		case reflect.Interface:
			switch fv.Type() {
			case reflect.TypeFor[exec.Node]():
				fv.Set(reflect.ValueOf(&testSource{}))
			case reflect.TypeFor[expr.Expr]():
				fv.Set(reflect.ValueOf(&expr.Column{Index: 3}))
			default:
				t.Fatalf("field %s: no test value for %s", f.Name, fv.Type())
			}
		default:
			t.Fatalf("field %s: no test value for %s", f.Name, fv.Type())
		}
	}
}
