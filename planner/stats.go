package planner

import (
	"math"

	"gq/catalog"
)

// Cardinality estimates for join ordering: base row counts from the
// catalog's Stats, fixed selectivities per predicate kind, and key
// domains from distinct counts where known (PK/FK assumption otherwise).

// defaultRows stands for a table whose row count is unknown.
const defaultRows = 1000

// origin is the base table column a column's values come from.
type origin struct {
	table   catalog.Table
	ordinal int
}

// estimator estimates rows of plans and distinct values of columns.
type estimator struct {
	origins map[ColumnID]origin
	// classNDV bounds the distinct count of columns that the join region
	// being ordered equates: by the key / foreign key assumption all
	// columns of a class draw from the smallest one's domain.
	classNDV map[ColumnID]float64
	// sums are the columns that hold a sum or an average per group, with
	// their aggregation: sums rarely repeat, so an equality with one
	// keeps about one group (TPC-H q15: total = (select max(total))).
	sums map[ColumnID]*Aggregate
}

func newEstimator(p Plan) *estimator {
	e := &estimator{origins: map[ColumnID]origin{}, sums: map[ColumnID]*Aggregate{}}
	e.collect(p)
	return e
}

// collect records where columns come from: scans, and projections or
// group keys that pass a column through unchanged.
func (e *estimator) collect(p Plan) {
	for _, c := range p.Inputs() {
		e.collect(c)
	}
	pass := func(id ColumnID, x Expr) {
		if r, ok := x.(*ColRef); ok {
			if o, ok := e.origins[r.ID]; ok {
				e.origins[id] = o
			}
			if a, ok := e.sums[r.ID]; ok {
				e.sums[id] = a
			}
		}
	}
	switch n := p.(type) {
	case *Scan:
		for i, c := range n.Cols {
			e.origins[c.ID] = origin{n.Table, n.Ordinals[i]}
		}
	case *Project:
		for i, c := range n.Cols {
			pass(c.ID, n.Exprs[i])
		}
	case *Aggregate:
		for i, c := range n.GroupCols {
			pass(c.ID, n.GroupBy[i])
		}
		for i, c := range n.AggCols {
			if fn := n.Aggs[i].Fn; (fn == "sum" || fn == "avg") && !n.Aggs[i].Distinct {
				e.sums[c.ID] = n
			}
		}
	}
}

func tableRows(t catalog.Table) float64 {
	if n := t.Stats().RowCount; n >= 0 {
		return float64(n)
	}
	return defaultRows
}

// ndv returns a column's distinct count and whether it is known from
// statistics; when unknown it is its table's row count (an upper bound),
// or -1 when the column has no base table.
func (e *estimator) ndv(id ColumnID) (float64, bool) {
	o, ok := e.origins[id]
	if !ok {
		return -1, false
	}
	st := o.table.Stats()
	if o.ordinal < len(st.Distinct) && st.Distinct[o.ordinal] > 0 {
		return float64(st.Distinct[o.ordinal]), true
	}
	return tableRows(o.table), false
}

// rows estimates the number of rows p produces.
func (e *estimator) rows(p Plan) float64 {
	switch n := p.(type) {
	case *Scan:
		return max(1, tableRows(n.Table)*e.selectivity(n.Filter))
	case *Values:
		return float64(len(n.Rows))
	case *Filter:
		return max(1, e.rows(n.Input)*e.selectivity(n.Cond))
	case *Limit:
		r := e.rows(n.Input)
		if n.Count >= 0 {
			r = min(r, float64(n.Count))
		}
		return r
	case *Aggregate:
		in := e.rows(n.Input)
		if len(n.GroupBy) == 0 {
			return 1
		}
		g := 1.0
		for _, c := range n.GroupCols {
			d, _ := e.ndv(c.ID)
			if d < 0 {
				return max(1, in/10)
			}
			g *= d
		}
		return max(1, min(in, g))
	case *Join:
		l, r := e.rows(n.Left), e.rows(n.Right)
		switch n.Type {
		case JoinSemi:
			return max(1, l*e.semiFraction(n, r))
		case JoinAnti:
			return max(1, l/2)
		case JoinSingle:
			return l
		}
		out := e.joinRows(l, r, splitConjuncts(n.Cond))
		if n.Type == JoinLeft {
			out = max(out, l)
		}
		return out
	case *Union:
		s := 0.0
		for _, c := range n.Children {
			s += e.rows(c)
		}
		return s
	}
	if in := p.Inputs(); len(in) == 1 { // Project, Sort, Window
		return e.rows(in[0])
	}
	return defaultRows
}

// joinRows estimates |L|·|R| times the join conditions' selectivity: the
// most selective equi-condition counts fully (several keys of one join are
// usually correlated), other conditions by their own selectivity.
func (e *estimator) joinRows(l, r float64, conds []Expr) float64 {
	keySel, other := 1.0, 1.0
	for _, c := range conds {
		if s, ok := e.equiSelectivity(c, l, r); ok {
			keySel = min(keySel, s)
		} else {
			other *= e.selectivity(c)
		}
	}
	return max(1, l*r*keySel*other)
}

// equiSelectivity is 1/max(ndv) for a = b between two columns when both
// distinct counts are known; otherwise it assumes a key / foreign key
// join, whose domain is the smaller table (the key side).
func (e *estimator) equiSelectivity(c Expr, l, r float64) (float64, bool) {
	f, ok := c.(*Func)
	if !ok || f.Name != "eq" || len(f.Args) != 2 {
		return 0, false
	}
	a, ok1 := f.Args[0].(*ColRef)
	b, ok2 := f.Args[1].(*ColRef)
	if !ok1 || !ok2 {
		return 0, false
	}
	da, ka := e.ndv(a.ID)
	db, kb := e.ndv(b.ID)
	if c, ok := e.classNDV[a.ID]; ok && e.classNDV[b.ID] == c {
		return 1 / max(1, c), true
	}
	switch {
	case da < 0 && db < 0:
		return 1 / max(1, min(l, r)), true
	case da < 0:
		return 1 / max(1, db), true
	case db < 0:
		return 1 / max(1, da), true
	case ka && kb:
		return 1 / max(1, da, db), true
	}
	return 1 / max(1, min(da, db)), true
}

// selectivity estimates the fraction of rows for which e is true.
func (e *estimator) selectivity(x Expr) float64 {
	if x == nil {
		return 1
	}
	switch v := x.(type) {
	case *Const:
		if b, ok := v.Value.(bool); ok && b {
			return 1
		}
		return 0
	case *Func:
		switch v.Name {
		case "and":
			s := 1.0
			for _, a := range v.Args {
				s *= e.selectivity(a)
			}
			return s
		case "or":
			s := 1.0
			for _, a := range v.Args {
				s *= 1 - e.selectivity(a)
			}
			return 1 - s
		case "not":
			return 1 - e.selectivity(v.Args[0])
		case "eq":
			return e.eqSelectivity(v.Args)
		case "ne":
			return 1 - e.eqSelectivity(v.Args)
		case "lt", "le", "gt", "ge":
			return 0.3
		case "like", "starts_with":
			return 0.1
		case "not_like":
			return 0.9
		case "in":
			return math.Min(1, float64(len(v.Args)-1)*e.eqSelectivity(v.Args[:1]))
		case "not_in":
			return 1 - math.Min(1, float64(len(v.Args)-1)*e.eqSelectivity(v.Args[:1]))
		case "is_null":
			return 0.1
		case "is_not_null":
			return 0.9
		}
	}
	return 0.5
}

// eqSelectivity is 1/ndv of the column compared, one group's share for a
// sum or average per group (sums), or 0.1 when unknown.
func (e *estimator) eqSelectivity(args []Expr) float64 {
	for _, a := range args {
		if r, ok := a.(*ColRef); ok {
			if d, known := e.ndv(r.ID); known {
				return 1 / max(1, d)
			}
		}
	}
	for _, a := range args {
		if r, ok := a.(*ColRef); ok {
			if g, ok := e.sums[r.ID]; ok {
				return 1 / max(1, e.rows(g))
			}
		}
	}
	return 0.1
}

// setClasses computes classNDV for the equalities among conds.
func (e *estimator) setClasses(conds []Expr) {
	parent := map[ColumnID]ColumnID{}
	var find func(ColumnID) ColumnID
	find = func(x ColumnID) ColumnID {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, c := range conds {
		if a, b, ok := colEquality(c); ok {
			parent[find(a)] = find(b)
		}
	}
	minNDV := map[ColumnID]float64{}
	for id := range parent {
		d, _ := e.ndv(id)
		if d < 0 {
			continue
		}
		r := find(id)
		if m, ok := minNDV[r]; !ok || d < m {
			minNDV[r] = d
		}
	}
	e.classNDV = map[ColumnID]float64{}
	for id := range parent {
		if m, ok := minNDV[find(id)]; ok {
			e.classNDV[id] = m
		}
	}
}

// colEquality recognises eq(a, b) between two columns.
func colEquality(c Expr) (ColumnID, ColumnID, bool) {
	f, ok := c.(*Func)
	if !ok || f.Name != "eq" || len(f.Args) != 2 {
		return 0, 0, false
	}
	a, ok1 := f.Args[0].(*ColRef)
	b, ok2 := f.Args[1].(*ColRef)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return a.ID, b.ID, true
}

// semiFraction estimates the fraction of left rows a semi join keeps: the
// right side's rows over the distinct count of the left key of its first
// column equality (at most all of them), or one half without one.
func (e *estimator) semiFraction(j *Join, rightRows float64) float64 {
	left := idSet(j.Left.Columns())
	for _, c := range splitConjuncts(j.Cond) {
		a, b, ok := colEquality(c)
		if !ok {
			continue
		}
		if !left[a] {
			a, b = b, a
		}
		if !left[a] || left[b] {
			continue
		}
		if d, _ := e.ndv(a); d > 0 {
			return min(1, rightRows/d)
		}
	}
	return 0.5
}
