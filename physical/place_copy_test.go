package physical

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gq/exec"
	"gq/gpuexec"
	"gq/shuffle"
)

// TestPlaceLeavesPlan: placing a plan on the GPU builds a new plan and
// leaves the CPU plan it was given as it was, field by field, so that one
// lowered plan can be placed twice (a plan cache, EXPLAIN and then the
// run) and a device operator's CPU twin is the plan the planner made. The
// queries fold joins into device pipelines (q03, q05, q09), keep CPU
// operators over device ones (q18's semi join, a window, a UNION) and
// split aggregations; each is placed for one rank and for rank 0 of 2.
func TestPlaceLeavesPlan(t *testing.T) {
	queries := map[string]string{
		"window": `select o_custkey, o_orderdate, sum(o_totalprice) over (partition by o_custkey order by o_orderdate) as run
			from orders where o_orderstatus = 'F' order by o_custkey, o_orderdate limit 10`,
		"union": `select n_name as name, count(*) as c from nation join supplier on s_nationkey = n_nationkey group by n_name
			union select r_name, count(*) from region join nation on n_regionkey = r_regionkey group by r_name order by name`,
		"distinct": `select l_returnflag, count(distinct l_suppkey), sum(l_quantity) from lineitem group by l_returnflag having sum(l_quantity) > 10`,
	}
	for _, q := range []string{"q03", "q05", "q09", "q13", "q16", "q18"} {
		text, err := os.ReadFile(filepath.Join("..", "testdata", "tpch", "queries", q+".sql"))
		if err != nil {
			t.Fatal(err)
		}
		queries[q] = string(text)
	}
	names := make([]string, 0, len(queries))
	for q := range queries {
		names = append(names, q)
	}
	sort.Strings(names)
	shared := 0 // build sides read through a SharedSource, under ranks
	for _, q := range names {
		t.Run(q, func(t *testing.T) {
			sql := strings.TrimSuffix(strings.TrimSpace(queries[q]), ";")
			cat := tpchCatalog(t)
			one := AttachJoinFilters(ShareCommonSubplans(lowerNode(t, cat, sql)))
			dist, _, err := Distribute(lowerNode(t, cat, sql), DistOptions{Comm: shuffle.NewLocal(2)[0], OpBase: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				root exec.Node
				o    GPUOptions
			}{
				{"one rank", one, GPUOptions{FallbackMode: "silent"}},
				{"rank 0 of 2", dist, GPUOptions{FallbackMode: "silent", Ranks: true}},
			} {
				before, explain := dumpPlan(c.root), Explain(c.root)
				placed, err := PlaceOnGPU(c.root, nil, c.o)
				if err != nil {
					t.Fatal(err)
				}
				if Explain(placed) == explain {
					t.Errorf("%s: nothing placed on the device:\n%s", c.name, explain)
				}
				if after := dumpPlan(c.root); after != before {
					t.Errorf("%s: placement changed the plan it was given:\n%s", c.name, firstDiff(before, after))
				}
				if c.o.Ranks {
					shared += twinsShareBuilds(t, placed)
				}
				again, err := PlaceOnGPU(c.root, nil, c.o)
				if err != nil {
					t.Fatal(err)
				}
				if Explain(again) != Explain(placed) {
					t.Errorf("%s: placed twice, the plans differ:\n%s\n---\n%s", c.name, Explain(placed), Explain(again))
				}
			}
		})
	}
	if shared == 0 {
		t.Error("no pipeline read a build side through a SharedSource under ranks: twinsShareBuilds checked nothing")
	}
}

// twinsShareBuilds checks that each build side of a device pipeline under
// n that the pipeline reads through a SharedSource (one that holds an
// exchange, under ranks) is read by the pipeline's CPU twin through the
// same source: a fallback replays its rows instead of running the
// exchange again. It returns how many it checked.
func twinsShareBuilds(t *testing.T, n exec.Node) int {
	t.Helper()
	checked := 0
	seen := map[exec.Node]bool{}
	var walk func(n exec.Node)
	walk = func(n exec.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		var builds []exec.Node
		var twin exec.Node
		switch y := n.(type) {
		case *gpuexec.GPUAggregate:
			builds, twin = y.Pipeline().Builds(), y.CPU
		case *gpuexec.GPUJoinRows:
			builds, twin = y.Pipeline().Builds(), y.CPU
		}
		for _, b := range builds {
			if r, ok := b.(*exec.SharedRead); ok && r.Primary && twin != nil {
				checked++
				if !readsSource(twin, r.Src, map[exec.Node]bool{}) {
					t.Errorf("%s: its CPU twin does not read build side %s through its source", Describe(n), r.Src.Explain())
				}
			}
		}
		for _, c := range linksAndChildren(n) {
			walk(c)
		}
	}
	walk(n)
	return checked
}

// readsSource reports whether a SharedRead of src is under n.
func readsSource(n exec.Node, src exec.Node, seen map[exec.Node]bool) bool {
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	if r, ok := n.(*exec.SharedRead); ok && r.Src == src {
		return true
	}
	for _, c := range linksAndChildren(n) {
		if readsSource(c, src, seen) {
			return true
		}
	}
	return false
}

func linksAndChildren(n exec.Node) []exec.Node {
	out := n.Children()
	if l, ok := n.(exec.Linked); ok {
		out = append(out[:len(out):len(out)], l.Links()...)
	}
	return out
}

// firstDiff is the first line where two dumps differ, with a few lines
// of context.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			lo := max(0, i-4)
			return fmt.Sprintf("before:\n%s\nafter:\n%s", strings.Join(al[lo:min(len(al), i+3)], "\n"), strings.Join(bl[lo:min(len(bl), i+3)], "\n"))
		}
	}
	return fmt.Sprintf("%d lines before, %d after", len(al), len(bl))
}

// dumpPlan writes every field of every value reachable from n that the
// plan owns (the packages gq/exec, gq/expr and gq/physical, followed
// through pointers, interfaces, slices and maps): a node reached again
// is written as the number of its first visit, so a node swapped for an
// equal copy shows too. Values of other packages (tables, arrow types)
// are written by type and address: the plan holds them, it does not own
// them.
func dumpPlan(n exec.Node) string {
	d := dumper{seen: map[uintptr]int{}}
	d.value(reflect.ValueOf(&n).Elem(), 0)
	return d.b.String()
}

type dumper struct {
	b    strings.Builder
	seen map[uintptr]int
}

func owned(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	p := t.PkgPath()
	return p == "gq/exec" || p == "gq/expr" || p == "gq/physical" || p == "gq/gpuexec"
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat(" ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func (d *dumper) value(v reflect.Value, depth int) {
	if depth > 400 {
		d.line(depth, "…")
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			d.line(depth, "nil")
			return
		}
		d.value(v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			d.line(depth, "nil %s", v.Type())
			return
		}
		if !owned(v.Type()) {
			d.line(depth, "%s %#x", v.Type(), v.Pointer())
			return
		}
		if id, ok := d.seen[v.Pointer()]; ok {
			d.line(depth, "-> #%d", id)
			return
		}
		id := len(d.seen)
		d.seen[v.Pointer()] = id
		d.line(depth, "#%d %s", id, v.Type())
		d.value(v.Elem(), depth+1)
	case reflect.Struct:
		if !owned(v.Type()) {
			d.line(depth, "%s %v", v.Type(), v)
			return
		}
		for i := 0; i < v.NumField(); i++ {
			d.line(depth, "%s:", v.Type().Field(i).Name)
			d.value(v.Field(i), depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			d.line(depth, "nil slice")
			return
		}
		d.line(depth, "[%d]", v.Len())
		for i := 0; i < v.Len(); i++ {
			d.value(v.Index(i), depth+1)
		}
	case reflect.Map:
		keys := v.MapKeys()
		lines := make([]string, 0, len(keys))
		for _, k := range keys {
			lines = append(lines, fmt.Sprintf("%v", k)) // keys only: values are reached from the plan
		}
		sort.Strings(lines)
		d.line(depth, "map[%d] %s", v.Len(), strings.Join(lines, ","))
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		d.line(depth, "%s nil=%v", v.Kind(), v.IsNil())
	default:
		d.line(depth, "%v", v)
	}
}
