package physical

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/exec"
	"gq/expr"
)

// AttachJoinFilters pairs each hash join that drops unmatched probe rows
// (filtersProbe) with the scan its probe keys come
// from, so that the scan skips rows the join's table cannot match (see
// exec/joinfilter.go). The keys are followed down through projections and
// filters (which keep or drop whole rows), the probe side of other joins
// (whose output starts with their left columns) and the group keys of
// aggregations (a group's rows share its key); any other node stops the
// search, and a key that is not a plain column on the way is left out (the
// filter then tests the remaining keys, q05's l_suppkey of (l_suppkey,
// c_nationkey)). One-rank plans only:
// under ranks a probe row may meet its match on another rank.
//
// It returns a copy of the plan with the joins that publish and the scans
// that test their filters copied; root is left as it was.
func AttachJoinFilters(root exec.Node) exec.Node {
	next := 0
	publish := map[*exec.HashJoin]*exec.JoinFilter{}
	tests := map[*exec.Scan][]exec.ScanJoinFilter{}
	var walk func(n exec.Node)
	walk = func(n exec.Node) {
		if j, ok := n.(*exec.HashJoin); ok && publish[j] == nil && filtersProbe(j) {
			probe, probeKeys := j.Left, j.LeftKeys
			if j.BuildLeft {
				probe, probeKeys = j.Right, j.RightKeys
			}
			if scan, keys, pos, ok := traceKeys(probe, probeKeys); ok {
				next++
				f := &exec.JoinFilter{ID: next}
				if len(pos) < len(j.LeftKeys) {
					f.Keys = pos
				}
				publish[j] = f
				tests[scan] = append(tests[scan], exec.ScanJoinFilter{Filter: f, Keys: keys})
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(root)
	if next == 0 {
		return root
	}
	// The copies are memoised: a node reached twice (a shared source's
	// reads) stays one node.
	done := map[exec.Node]exec.Node{}
	var attach func(n exec.Node) exec.Node
	attach = func(n exec.Node) exec.Node {
		if m, ok := done[n]; ok {
			return m
		}
		m := exec.RewriteChildren(n, attach)
		switch x := n.(type) {
		case *exec.HashJoin:
			if f := publish[x]; f != nil {
				cp := *m.(*exec.HashJoin)
				cp.Publish = f
				m = &cp
			}
		case *exec.Scan:
			if fs := tests[x]; fs != nil {
				cp := *x
				cp.JoinFilters = append(slices.Clip(x.JoinFilters), fs...)
				m = &cp
			}
		}
		done[n] = m
		return m
	}
	return attach(root)
}

// filtersProbe reports whether j's probe rows without a match can go
// unseen: an inner or semi join's build on the right drops them; a join
// that builds on the left (semi, anti, left: its output is left rows,
// marked by their matches) never looks at a right row without a match.
// NOT IN (NullAware) is out: a NULL key on the right changes its answer.
func filtersProbe(j *exec.HashJoin) bool {
	if j.NullAware || j.Publish != nil {
		return false
	}
	if j.BuildLeft {
		return j.Type == expr.JoinSemi || j.Type == expr.JoinAnti || j.Type == expr.JoinLeft
	}
	return j.Type == expr.JoinInner || j.Type == expr.JoinSemi
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

// PruneScanOutputs lets a scan under a projection emit only the columns
// the projection reads: columns read just for the scan's filter or join
// filters are then never gathered for the surviving rows (TPC-H q04's
// l_commitdate and l_receiptdate, 3.8M rows each). Only scans that filter
// while they read (Parquet) can do so.
func PruneScanOutputs(root exec.Node) exec.Node {
	done := map[exec.Node]exec.Node{} // a shared source's reads get one copy
	var walk func(n exec.Node) exec.Node
	walk = func(n exec.Node) exec.Node {
		if m, ok := done[n]; ok {
			return m
		}
		m := n
		if p, ok := n.(*exec.Project); ok {
			if s, ok := p.Input.(*exec.Scan); ok {
				if pp, ok := pruneScan(p, s); ok {
					m = pp
					if identity(pp) {
						m = pp.Input // the projection passes the scan's columns through
					}
				}
			}
		}
		if m == n {
			m = exec.RewriteChildren(n, walk)
		}
		done[n] = m
		return m
	}
	return walk(root)
}

// identity reports whether p passes its input's columns through unchanged.
func identity(p *exec.Project) bool {
	in := p.Input.Schema()
	if len(p.Exprs) != in.NumFields() || p.Out.NumFields() != in.NumFields() {
		return false
	}
	for i, e := range p.Exprs {
		c, ok := e.(*expr.Column)
		if !ok || c.Index != i || !arrow.TypeEqual(p.Out.Field(i).Type, in.Field(i).Type) {
			return false
		}
	}
	return true
}

// pruneScan returns a copy of p over a copy of s, its input, narrowed to
// the columns p reads; false (p and s as they were) when there is nothing
// to narrow.
func pruneScan(p *exec.Project, s *exec.Scan) (*exec.Project, bool) {
	if s.Emit != nil || (s.Filter == nil && len(s.JoinFilters) == 0) {
		return nil, false
	}
	if _, ok := s.Table.(catalog.FilteredTable); !ok {
		return nil, false
	}
	used := make([]bool, len(s.Columns))
	var mark func(e expr.Expr)
	mark = func(e expr.Expr) {
		switch x := e.(type) {
		case *expr.Column:
			used[x.Index] = true
		case *expr.Call:
			for _, a := range x.Args {
				mark(a)
			}
		}
	}
	for _, e := range p.Exprs {
		mark(e)
	}
	var emit []int
	newPos := make([]int, len(s.Columns))
	for i, u := range used {
		if u {
			newPos[i] = len(emit)
			emit = append(emit, i)
		}
	}
	if len(emit) == len(s.Columns) || len(emit) == 0 {
		return nil, false // nothing to drop; no columns at all is the scan's own case
	}
	var remap func(e expr.Expr) expr.Expr
	remap = func(e expr.Expr) expr.Expr {
		switch x := e.(type) {
		case *expr.Column:
			return &expr.Column{Index: newPos[x.Index], Type: x.Type, Name: x.Name}
		case *expr.Call:
			args := make([]expr.Expr, len(x.Args))
			for i, a := range x.Args {
				args[i] = remap(a)
			}
			return &expr.Call{Fn: x.Fn, Args: args, Type: x.Type}
		}
		return e
	}
	fields := make([]arrow.Field, len(emit))
	for i, c := range emit {
		fields[i] = s.Out.Field(c)
	}
	ns := *s
	ns.Emit, ns.Out = emit, arrow.NewSchema(fields, nil)
	np := *p
	np.Input = &ns
	np.Exprs = make([]expr.Expr, len(p.Exprs))
	for i, e := range p.Exprs {
		np.Exprs[i] = remap(e)
	}
	return &np, true
}
