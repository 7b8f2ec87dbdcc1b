package gpuexec

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/exec"
	"gq/expr"
)

// Join order for device pipelines. The CPU plan's join tree is shaped for
// the CPU's hash joins, which build on the smaller side of each join; a
// device pipeline probes one scan and builds every other input, so its
// cost is set by which table it probes. TPC-H q05's tree (lineitem ⋈
// (customer ⋈ orders) ⋈ …) made a pipeline over customer that built a
// table of all of lineitem's rows (60M at SF10) per query, and q09's one
// over orders did the same. For inner joins over scans the order does not
// change the result: reordered takes the tree apart into its scans and
// its equalities and joins them again from the largest table, the filtered
// tables first (they drop rows early), every table from the device cache.

// clusterLeaf is one scan of a tree of inner joins.
type clusterLeaf struct {
	scan *exec.Scan
	gs   *GPUScan
	// parent's input child (Children's order) is the scan: the CPU twin
	// reads gs there instead.
	parent exec.Node
	child  int
	// base numbers the leaf's first output column among the tree's.
	base int
	rows float64 // the table's rows
	est  float64 // estRows
}

// joinCluster is a tree of inner joins over scans taken apart: its
// leaves, each output column of a leaf numbered once ("refs"), the
// equalities the joins' keys state between refs, and their further
// conditions over refs.
type joinCluster struct {
	p      *placer
	leaves []*clusterLeaf
	owner  []int // ref → leaf
	edges  [][2]int
	extras []expr.Expr
}

// decompose adds the leaves, equalities and conditions of n and returns
// its output columns as refs; false when n is not a tree of inner device
// joins, Projects of columns and cached scans.
func (c *joinCluster) decompose(n, parent exec.Node, child int) ([]expr.Expr, bool) {
	switch y := n.(type) {
	case *exec.Scan:
		gs, _ := c.p.scan(y)
		rows := y.Table.Stats().RowCount
		if gs == nil || gs.HostFilter != nil || rows < 0 { // an exchange's rows: unknown
			return nil, false
		}
		leaf := &clusterLeaf{scan: y, gs: gs, parent: parent, child: child, base: len(c.owner), rows: float64(rows), est: estRows(y)}
		refs := make([]expr.Expr, y.Out.NumFields())
		for i := range refs {
			f := y.Out.Field(i)
			refs[i] = &expr.Column{Index: leaf.base + i, Type: f.Type, Name: f.Name}
			c.owner = append(c.owner, len(c.leaves))
		}
		c.leaves = append(c.leaves, leaf)
		return refs, true
	case *exec.Project:
		in, ok := c.decompose(y.Input, y, 0)
		if !ok {
			return nil, false
		}
		out := make([]expr.Expr, len(y.Exprs))
		for k, e := range y.Exprs {
			col, ok := e.(*expr.Column)
			if !ok {
				return nil, false
			}
			out[k] = in[col.Index]
		}
		return out, true
	case *exec.HashJoin:
		if !reorderable(y) {
			return nil, false
		}
		l, ok := c.decompose(y.Left, y, 0)
		if !ok {
			return nil, false
		}
		r, ok := c.decompose(y.Right, y, 1)
		if !ok {
			return nil, false
		}
		for k := range y.LeftKeys {
			lc, lok := y.LeftKeys[k].(*expr.Column)
			rc, rok := y.RightKeys[k].(*expr.Column)
			if !lok || !rok {
				return nil, false
			}
			a, b := l[lc.Index].(*expr.Column), r[rc.Index].(*expr.Column)
			if !arrowgpu.JoinKeyType(a.Type) || !arrow.TypeEqual(a.Type, b.Type) {
				return nil, false
			}
			c.edges = append(c.edges, [2]int{a.Index, b.Index})
		}
		out := append(l[:len(l):len(l)], r...)
		if y.Out.NumFields() != len(out) {
			return nil, false
		}
		if y.Extra != nil {
			c.extras = append(c.extras, substituteColumns(y.Extra, out))
		}
		return out, true
	}
	return nil, false
}

// reorderable reports whether y is an inner join reordered takes apart:
// the device joins it makes key on two of its equalities at most and
// test the others after the join, so any number of keys will do.
func reorderable(y *exec.HashJoin) bool {
	return y.Type == expr.JoinInner && !y.NullAware
}

// clusterRoot is the position on the spine (top first, the node right
// above the scan last) of the highest inner join of the run of inner
// joins and Projects of columns right above the scan; -1 when there is
// none.
func clusterRoot(spine []exec.Node) int {
	t := -1
	for i := len(spine) - 1; i >= 0; i-- {
		switch y := spine[i].(type) {
		case *exec.HashJoin:
			if !reorderable(y) {
				return t
			}
			t = i
		case *exec.Project:
			for _, e := range y.Exprs {
				if _, ok := e.(*expr.Column); !ok {
					return t
				}
			}
		default:
			return t
		}
	}
	return t
}

// reordered is the pipeline of the spine with the inner joins right
// above its scan joined again from their largest table (see the top of
// the file); nil when they are not a tree of at least three cached scans,
// under ranks (a scan there reads a rank's share of its table, the
// exchanges decide which), or when a table would join by no equality.
func (p *placer) reordered(spine []exec.Node) (*pipeline, []expr.Expr, *GPUScan) {
	t := clusterRoot(spine)
	if t < 0 || p.o.Ranks {
		return nil, nil, nil
	}
	c := &joinCluster{p: p}
	out, ok := c.decompose(spine[t], nil, 0)
	if !ok || len(c.leaves) < 3 {
		return nil, nil, nil
	}
	first := 0
	for i, l := range c.leaves {
		if l.rows > c.leaves[first].rows {
			first = i
		}
	}
	probe := c.leaves[first]
	pl := newPipeline(p, probe.scan)
	pipe := make([]expr.Expr, len(c.owner)) // ref → pipeline column
	copy(pipe[probe.base:], scanCols(probe.scan, 0))
	joined := map[int]bool{first: true}
	placed := make([]bool, len(c.extras))
	for len(joined) < len(c.leaves) {
		next := -1
		for i, l := range c.leaves {
			if joined[i] || !c.connected(i, joined) {
				continue
			}
			lf, b := l.scan.Filter != nil, c.leaves[max(next, 0)]
			if bf := b.scan.Filter != nil; next < 0 || lf && !bf || lf == bf && l.est < b.est {
				next = i
			}
		}
		if next < 0 {
			return nil, nil, nil // a cross product: the CPU's plan stays
		}
		j, ok := c.join(pl, pipe, next, joined)
		if !ok {
			return nil, nil, nil
		}
		joined[next] = true
		// The conditions over the tables joined so far filter its rows.
		conds := conjuncts(j.Filter)
		for k, x := range c.extras {
			if !placed[k] && c.within(x, joined) {
				conds = append(conds, substituteColumns(x, pipe))
				placed[k] = true
			}
		}
		j.Filter = conjunction(conds)
		pl.joins = append(pl.joins, j)
		gs := c.leaves[next].gs
		pl.builds = append(pl.builds, func(twinEdits) exec.Node { return gs })
		pl.est += c.leaves[next].est
	}
	cols := make([]expr.Expr, len(out))
	for i, r := range out {
		cols[i] = pipe[r.(*expr.Column).Index]
	}
	cols, ok = pl.add(spine[:t], cols)
	if !ok || len(pl.joins) == 0 {
		return nil, nil, nil
	}
	// The CPU twin runs the joins as they were, each scan through the GPU.
	for _, l := range c.leaves {
		pl.twin = append(pl.twin, func(e twinEdits) { e.set(l.parent, l.child, l.gs) })
	}
	return pl, cols, probe.gs
}

// connected reports whether an equality links leaf i with a joined leaf.
func (c *joinCluster) connected(i int, joined map[int]bool) bool {
	for _, e := range c.edges {
		a, b := c.owner[e[0]], c.owner[e[1]]
		if a == i && joined[b] || b == i && joined[a] {
			return true
		}
	}
	return false
}

// within reports whether every column of x is a joined leaf's.
func (c *joinCluster) within(x expr.Expr, joined map[int]bool) bool {
	ok := true
	MapColumns(x, func(col *expr.Column) expr.Expr {
		ok = ok && joined[c.owner[col.Index]]
		return col
	})
	return ok
}

// join is the device join of leaf i with the pipeline so far: on the
// equalities between its columns and joined leaves' (at most two; a
// third is tested after the join), all its columns appended.
func (c *joinCluster) join(pl *pipeline, pipe []expr.Expr, i int, joined map[int]bool) (GPUJoin, bool) {
	l := c.leaves[i]
	j := GPUJoin{Type: expr.JoinInner}
	n := l.scan.Out.NumFields()
	for k := range n {
		f := l.scan.Out.Field(k)
		j.Cols = append(j.Cols, k)
		pipe[l.base+k] = &expr.Column{Index: pl.width + k, Type: f.Type, Name: f.Name}
	}
	pl.note(pipe[l.base : l.base+n])
	var keys []string
	var filter []expr.Expr
	for _, e := range c.edges {
		a, b := e[0], e[1]
		switch {
		case c.owner[b] == i && joined[c.owner[a]]:
		case c.owner[a] == i && joined[c.owner[b]]:
			a, b = b, a
		default:
			continue
		}
		pa, pb := pipe[a].(*expr.Column), pipe[b].(*expr.Column)
		if len(j.ProbeKeys) == 2 {
			filter = append(filter, &expr.Call{Fn: "eq", Args: []expr.Expr{pa, pb}, Type: expr.Boolean})
			continue
		}
		j.ProbeKeys = append(j.ProbeKeys, pa.Index)
		j.BuildKeys = append(j.BuildKeys, b-l.base)
		keys = append(keys, pa.Name+" = "+pb.Name)
	}
	if len(j.ProbeKeys) == 0 {
		return j, false
	}
	pl.width += n
	j.Filter = conjunction(filter)
	j.Explain = fmt.Sprintf("HashJoin inner keys=[%s] build=right (joins reordered: %s built)", strings.Join(keys, ", "), l.scan.Table.Name())
	return j, true
}

// estRows is the rows a scan is guessed to keep: its table's, a quarter
// of them when it filters (0 when the table does not know).
func estRows(s *exec.Scan) float64 {
	n := float64(max(s.Table.Stats().RowCount, 0))
	if s.Filter != nil {
		n /= 4
	}
	return n
}
