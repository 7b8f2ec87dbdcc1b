package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// PruneColumns removes columns no ancestor needs: scans read only what is
// used above them, projections, values, aggregates and windows drop unused
// outputs. The root keeps all of its columns.
func PruneColumns(p Plan) (Plan, error) {
	return prune(p, idSet(p.Columns())), nil
}

func exprsCols(s colSet, es ...Expr) colSet {
	for _, e := range es {
		if e != nil {
			exprColumns(e, s)
		}
	}
	return s
}

func copySet(s colSet) colSet {
	out := make(colSet, len(s))
	for k := range s {
		out[k] = true
	}
	return out
}

// prune returns p keeping at least the columns in need (and never zero
// columns, so every batch still has a row count to carry).
func prune(p Plan, need colSet) Plan {
	switch n := p.(type) {
	case *Scan:
		need = exprsCols(copySet(need), n.Filter)
		c := *n
		c.Cols, c.Ordinals = nil, nil
		for i, col := range n.Cols {
			if need[col.ID] {
				c.Cols = append(c.Cols, col)
				c.Ordinals = append(c.Ordinals, n.Ordinals[i])
			}
		}
		// A nested column is never read for a row count: a table of only
		// nested columns scans none (the table still counts its rows).
		if i := narrowest(n.Cols); len(c.Cols) == 0 && len(n.Cols) > 0 && !expr.IsNested(n.Cols[i].Type) {
			c.Cols, c.Ordinals = []Column{n.Cols[i]}, []int{n.Ordinals[i]}
		}
		return &c
	case *Values:
		keep := keepIdx(n.Cols, need)
		if len(keep) == len(n.Cols) {
			return n
		}
		c := &Values{Rows: make([][]Expr, len(n.Rows))}
		for _, i := range keep {
			c.Cols = append(c.Cols, n.Cols[i])
		}
		for r, row := range n.Rows {
			for _, i := range keep {
				c.Rows[r] = append(c.Rows[r], row[i])
			}
		}
		return c
	case *Filter:
		c := *n
		c.Input = prune(n.Input, exprsCols(copySet(need), n.Cond))
		return &c
	case *Project:
		keep := keepIdx(n.Cols, need)
		c := &Project{}
		for _, i := range keep {
			c.Cols = append(c.Cols, n.Cols[i])
			c.Exprs = append(c.Exprs, n.Exprs[i])
		}
		c.Input = prune(n.Input, exprsCols(colSet{}, c.Exprs...))
		return c
	case *Aggregate:
		c := *n
		c.Aggs, c.AggCols = nil, nil
		for i, col := range n.AggCols {
			if need[col.ID] {
				c.Aggs = append(c.Aggs, n.Aggs[i])
				c.AggCols = append(c.AggCols, col)
			}
		}
		if len(c.Aggs) == 0 && len(n.GroupBy) == 0 && len(n.Aggs) > 0 {
			// A global aggregate must still produce its one row.
			c.Aggs, c.AggCols = n.Aggs[:1], n.AggCols[:1]
		}
		in := exprsCols(colSet{}, n.GroupBy...)
		for _, a := range c.Aggs {
			exprsCols(in, a.Arg)
		}
		c.Input = prune(n.Input, in)
		return &c
	case *Join:
		all := exprsCols(copySet(need), n.Cond)
		c := *n
		c.Left = dropJoinKeys(dropFilterOnly(prune(n.Left, all), all), all)
		c.Right = dropJoinKeys(dropFilterOnly(prune(n.Right, all), all), all)
		return &c
	case *Sort:
		c := *n
		all := copySet(need)
		for _, k := range n.Keys {
			exprsCols(all, k.Expr)
		}
		c.Input = prune(n.Input, all)
		return &c
	case *Limit:
		c := *n
		c.Input = prune(n.Input, need)
		return &c
	case *Window:
		c := *n
		c.Funcs, c.Cols = nil, nil
		for i, col := range n.Cols {
			if need[col.ID] {
				c.Funcs = append(c.Funcs, n.Funcs[i])
				c.Cols = append(c.Cols, col)
			}
		}
		if len(c.Funcs) == 0 {
			return prune(n.Input, need)
		}
		all := exprsCols(copySet(need), n.PartitionBy...)
		for _, k := range n.OrderBy {
			exprsCols(all, k.Expr)
		}
		for _, f := range c.Funcs {
			exprsCols(all, f.Args...)
			for _, b := range []FrameBound{f.Frame.Start, f.Frame.End} {
				if b.PerRow != nil {
					exprsCols(all, b.PerRow)
				}
			}
			for _, k := range f.Order {
				exprsCols(all, k.Expr)
			}
		}
		c.Input = prune(n.Input, all)
		return &c
	case *Union:
		// Union columns are positional: keep every child whole.
		c := *n
		c.Children = make([]Plan, len(n.Children))
		for i, ch := range n.Children {
			c.Children[i] = prune(ch, idSet(ch.Columns()))
		}
		return &c
	case *RecursiveCTE:
		// The recursive term reads every column of the working table.
		c := *n
		c.Anchor = prune(n.Anchor, idSet(n.Anchor.Columns()))
		c.Recursive = prune(n.Recursive, idSet(n.Recursive.Columns()))
		return &c
	}
	return p
}

// dropFilterOnly projects away the columns a scan reads only for its own
// filter when the scan feeds a join: otherwise the join copies them into
// its build table and its output (q13 carried every o_comment through
// its join only to drop it after).
func dropFilterOnly(p Plan, need colSet) Plan {
	s, ok := p.(*Scan)
	if !ok || s.Filter == nil {
		return p
	}
	keep := keepIdx(s.Cols, need)
	if len(keep) == len(s.Cols) {
		return p
	}
	pr := &Project{Input: s}
	for _, i := range keep {
		c := s.Cols[i]
		pr.Cols = append(pr.Cols, c)
		pr.Exprs = append(pr.Exprs, &ColRef{ID: c.ID, Name: c.Name, T: c.Type})
	}
	return pr
}

// dropJoinKeys projects away the columns a join under a join outputs only
// because its own condition read them (its keys, typically): otherwise
// the join above copies them into its build table or carries them through
// its probe (a build of orders joined to customer kept both o_custkey and
// c_custkey, half of its rows' bytes).
func dropJoinKeys(p Plan, need colSet) Plan {
	j, ok := p.(*Join)
	if !ok {
		return p
	}
	cols := j.Columns()
	keep := keepIdx(cols, need)
	if len(keep) == len(cols) {
		return p
	}
	pr := &Project{Input: j}
	for _, i := range keep {
		c := cols[i]
		pr.Cols = append(pr.Cols, c)
		pr.Exprs = append(pr.Exprs, &ColRef{ID: c.ID, Name: c.Name, T: c.Type})
	}
	return pr
}

// keepIdx lists the positions of cols in need; never empty when cols is not.
func keepIdx(cols []Column, need colSet) []int {
	var keep []int
	for i, c := range cols {
		if need[c.ID] {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 && len(cols) > 0 {
		keep = []int{narrowest(cols)}
	}
	return keep
}

// narrowest picks the cheapest column to read when only the row count matters.
func narrowest(cols []Column) int {
	best, bestW := 0, 1<<30
	for i, c := range cols {
		w := 128 // strings and others
		if expr.IsNested(c.Type) {
			w = 1 << 20
		} else if fw, ok := c.Type.(arrow.FixedWidthDataType); ok && c.Type.ID() != arrow.STRING {
			w = fw.BitWidth()
		}
		if w < bestW {
			best, bestW = i, w
		}
	}
	return best
}
