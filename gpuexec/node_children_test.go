package gpuexec

import (
	"reflect"
	"testing"
)

// TestNodesHoldNoRunState: the device operators are plan nodes, and what a
// run counts or decides is the run's (exec.RunState), so none of them
// holds a sync or sync/atomic value — the kind a run writes. A field added
// to count a run fails here; and so the copies WithChildren makes
// (node_children.go) can be plain assignments.
func TestNodesHoldNoRunState(t *testing.T) {
	for _, n := range []any{GPUScan{}, GPUAggregate{}, GPUOuterAggregate{}, GPUJoinRows{}, GPUJoin{}, GPUSort{}, DevicePartition{}} {
		typ := reflect.TypeOf(n)
		if path := runStateField(typ, typ.Name()); path != "" {
			t.Errorf("%s is a run's state on a plan node", path)
		}
	}
}

// runStateField is the path of the first field of t (named path) that
// holds a sync or sync/atomic value, looking into the structs, arrays and
// slices it holds but not behind pointers; "" when there is none.
func runStateField(t reflect.Type, path string) string {
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		return runStateField(t.Elem(), path+"[]")
	case reflect.Struct:
		if t.PkgPath() == "sync" || t.PkgPath() == "sync/atomic" {
			return path
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if p := runStateField(f.Type, path+"."+f.Name); p != "" {
				return p
			}
		}
	}
	return ""
}
