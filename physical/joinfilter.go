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
// aggregations (a group's rows share its key); any other node, or a key that
// is not a plain column on the way, stops the search. One-rank plans only:
// under ranks a probe row may meet its match on another rank.
func AttachJoinFilters(root exec.Node) exec.Node {
	next := 0
	var walk func(n exec.Node)
	walk = func(n exec.Node) {
		if j, ok := n.(*exec.HashJoin); ok && filtersProbe(j) {
			if scan, keys, ok := traceKeys(j.Left, j.LeftKeys); ok {
				next++
				j.Publish = &exec.JoinFilter{ID: next}
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

// traceKeys follows keys (over n's output) down to a scan.
func traceKeys(n exec.Node, keys []expr.Expr) (*exec.Scan, []expr.Expr, bool) {
	idx := make([]int, len(keys))
	for i, k := range keys {
		c, ok := k.(*expr.Column)
		if !ok {
			return nil, nil, false
		}
		idx[i] = c.Index
	}
	for {
		switch x := n.(type) {
		case *exec.Scan:
			if _, ok := x.Table.(catalog.FilteredTable); !ok {
				return nil, nil, false
			}
			out := make([]expr.Expr, len(idx))
			for i, c := range idx {
				out[i] = &expr.Column{Index: c, Type: x.Out.Field(c).Type, Name: x.Out.Field(c).Name}
			}
			return x, out, true
		case *exec.Filter:
			n = x.Input
		case *exec.Project:
			for i, c := range idx {
				col, ok := x.Exprs[c].(*expr.Column)
				if !ok {
					return nil, nil, false
				}
				idx[i] = col.Index
			}
			n = x.Input
		case *exec.HashJoin:
			width := x.Left.Schema().NumFields()
			for _, c := range idx {
				if c >= width {
					return nil, nil, false
				}
			}
			n = x.Left
		case *exec.HashAggregate:
			for i, c := range idx {
				if c >= len(x.GroupBy) {
					return nil, nil, false
				}
				col, ok := x.GroupBy[c].(*expr.Column)
				if !ok {
					return nil, nil, false
				}
				idx[i] = col.Index
			}
			n = x.Input
		default:
			return nil, nil, false
		}
	}
}
