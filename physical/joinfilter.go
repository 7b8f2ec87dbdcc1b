package physical

import (
	"gq/catalog"
	"gq/exec"
	"gq/exec/expr"
)

// AttachJoinFilters pairs each hash join that drops unmatched probe rows
// (inner and semi, building on the right) with the scan its probe keys come
// from, so that the scan skips rows the join's table cannot match (see
// exec/joinfilter.go). The keys are followed down through projections and
// filters (which keep or drop whole rows), the probe side of other joins
// (whose output starts with their left columns) and the group keys of
// aggregations (a group's rows share its key); any other node stops the
// search, and a key that is not a plain column on the way is left out (the
// filter then tests the remaining keys, q05's l_suppkey of (l_suppkey,
// c_nationkey)). One-rank plans only:
// under ranks a probe row may meet its match on another rank.
func AttachJoinFilters(root exec.Node) exec.Node {
	next := 0
	var walk func(n exec.Node)
	walk = func(n exec.Node) {
		if j, ok := n.(*exec.HashJoin); ok && filtersProbe(j) {
			if scan, keys, pos, ok := traceKeys(j.Left, j.LeftKeys); ok {
				next++
				j.Publish = &exec.JoinFilter{ID: next}
				if len(pos) < len(j.LeftKeys) {
					j.Publish.Keys = pos
				}
				scan.JoinFilters = append(scan.JoinFilters, exec.ScanJoinFilter{Filter: j.Publish, Keys: keys})
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(root)
	return root
}

func filtersProbe(j *exec.HashJoin) bool {
	return (j.Type == exec.JoinInner || j.Type == exec.JoinSemi) && !j.BuildLeft && !j.NullAware && j.Publish == nil
}

// traceKeys follows keys (over n's output) down to a scan. Keys that
// cannot be followed (computed, or from a join's build side) are dropped on
// the way: a match on the others is still necessary for a join match. It
// returns the scan, the surviving keys as the scan's columns and their
// positions in keys.
func traceKeys(n exec.Node, keys []expr.Expr) (*exec.Scan, []expr.Expr, []int, bool) {
	var pos, idx []int
	for i, k := range keys {
		if c, ok := k.(*expr.Column); ok {
			pos, idx = append(pos, i), append(idx, c.Index)
		}
	}
	// keep drops the keys for which f reports false and maps the others.
	keep := func(f func(c int) (int, bool)) {
		var p2, i2 []int
		for k, c := range idx {
			if m, ok := f(c); ok {
				p2, i2 = append(p2, pos[k]), append(i2, m)
			}
		}
		pos, idx = p2, i2
	}
	for len(idx) > 0 {
		switch x := n.(type) {
		case *exec.Scan:
			if _, ok := x.Table.(catalog.FilteredTable); !ok {
				return nil, nil, nil, false
			}
			out := make([]expr.Expr, len(idx))
			for i, c := range idx {
				out[i] = &expr.Column{Index: c, Type: x.Out.Field(c).Type, Name: x.Out.Field(c).Name}
			}
			return x, out, pos, true
		case *exec.Filter:
			n = x.Input
		case *exec.Project:
			keep(func(c int) (int, bool) {
				col, ok := x.Exprs[c].(*expr.Column)
				if !ok {
					return 0, false
				}
				return col.Index, true
			})
			n = x.Input
		case *exec.HashJoin:
			width := x.Left.Schema().NumFields()
			keep(func(c int) (int, bool) { return c, c < width })
			n = x.Left
		case *exec.HashAggregate:
			keep(func(c int) (int, bool) {
				if c >= len(x.GroupBy) {
					return 0, false
				}
				col, ok := x.GroupBy[c].(*expr.Column)
				if !ok {
					return 0, false
				}
				return col.Index, true
			})
			n = x.Input
		default:
			return nil, nil, nil, false
		}
	}
	return nil, nil, nil, false
}
