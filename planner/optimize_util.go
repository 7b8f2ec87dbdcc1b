package planner

import "github.com/apache/arrow-go/v18/arrow"

// Helpers shared by the optimiser rules: conjunct splitting, column sets,
// substitution and node copying.

// conjuncts flattens nested "and" calls into their operands.
func splitConjuncts(e Expr) []Expr {
	if e == nil {
		return nil
	}
	if f, ok := e.(*Func); ok && f.Name == "and" {
		var out []Expr
		for _, a := range f.Args {
			out = append(out, splitConjuncts(a)...)
		}
		return out
	}
	return []Expr{e}
}

// andAll is the conjunction of es: nil when empty, the single operand, or
// one "and" call.
func andExprs(es []Expr) Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &Func{Name: "and", Args: append([]Expr{}, es...), T: arrow.FixedWidthTypes.Boolean}
}

type colSet map[ColumnID]bool

// exprCols adds the columns e references to s (allocating s when nil).
func exprColumns(e Expr, s colSet) colSet {
	if s == nil {
		s = colSet{}
	}
	switch x := e.(type) {
	case *ColRef:
		s[x.ID] = true
	case *Func:
		for _, a := range x.Args {
			exprColumns(a, s)
		}
	}
	return s
}

func idSet(cols []Column) colSet {
	s := make(colSet, len(cols))
	for _, c := range cols {
		s[c.ID] = true
	}
	return s
}

// subsetOf reports whether every column of a is in b.
func (a colSet) subsetOf(b colSet) bool {
	for id := range a {
		if !b[id] {
			return false
		}
	}
	return true
}

// subsetOfEither reports whether every column of a is in b or in c (a
// subset of their union, without making it: the join order's search asks
// this for every condition of every pair of inputs).
func (a colSet) subsetOfEither(b, c colSet) bool {
	for id := range a {
		if !b[id] && !c[id] {
			return false
		}
	}
	return true
}

// substitute replaces column references by the expressions in m.
func substituteCols(e Expr, m map[ColumnID]Expr) Expr {
	switch x := e.(type) {
	case *ColRef:
		if r, ok := m[x.ID]; ok {
			return r
		}
	case *Func:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = substituteCols(a, m)
		}
		return &Func{Name: x.Name, Args: args, T: x.T}
	}
	return e
}

// withInputs returns a shallow copy of p with its inputs replaced.
func withInputs(p Plan, in []Plan) Plan {
	switch n := p.(type) {
	case *Filter:
		c := *n
		c.Input = in[0]
		return &c
	case *Project:
		c := *n
		c.Input = in[0]
		return &c
	case *Aggregate:
		c := *n
		c.Input = in[0]
		return &c
	case *Join:
		c := *n
		c.Left, c.Right = in[0], in[1]
		return &c
	case *Sort:
		c := *n
		c.Input = in[0]
		return &c
	case *Limit:
		c := *n
		c.Input = in[0]
		return &c
	case *Window:
		c := *n
		c.Input = in[0]
		return &c
	case *Union:
		c := *n
		c.Children = in
		return &c
	case *RecursiveCTE:
		c := *n
		c.Anchor, c.Recursive = in[0], in[1]
		return &c
	}
	return p // leaves
}

// transformUp applies f to every node, children first.
func transformUp(p Plan, f func(Plan) (Plan, error)) (Plan, error) {
	ins := p.Inputs()
	if len(ins) > 0 {
		nin := make([]Plan, len(ins))
		for i, c := range ins {
			var err error
			if nin[i], err = transformUp(c, f); err != nil {
				return nil, err
			}
		}
		p = withInputs(p, nin)
	}
	return f(p)
}

// mapExprs returns e rewritten by f everywhere, bottom-up.
func mapExprs(e Expr, f func(Expr) Expr) Expr {
	if fn, ok := e.(*Func); ok {
		args := make([]Expr, len(fn.Args))
		for i, a := range fn.Args {
			args[i] = mapExprs(a, f)
		}
		e = &Func{Name: fn.Name, Args: args, T: fn.T}
	}
	return f(e)
}

// rewriteNodeExprs applies f to every expression held by node p (not its
// children); p is copied.
func rewriteNodeExprs(p Plan, f func(Expr) Expr) Plan {
	m := func(e Expr) Expr {
		if e == nil {
			return nil
		}
		return mapExprs(e, f)
	}
	ms := func(es []Expr) []Expr {
		out := make([]Expr, len(es))
		for i, e := range es {
			out[i] = m(e)
		}
		return out
	}
	switch n := p.(type) {
	case *Scan:
		c := *n
		c.Filter = m(n.Filter)
		return &c
	case *Filter:
		c := *n
		c.Cond = m(n.Cond)
		return &c
	case *Project:
		c := *n
		c.Exprs = ms(n.Exprs)
		return &c
	case *Aggregate:
		c := *n
		c.GroupBy = ms(n.GroupBy)
		c.Aggs = make([]AggCall, len(n.Aggs))
		for i, a := range n.Aggs {
			a.Arg = m(a.Arg)
			c.Aggs[i] = a
		}
		return &c
	case *Join:
		c := *n
		c.Cond = m(n.Cond)
		return &c
	case *Sort:
		c := *n
		c.Keys = mapKeys(n.Keys, m)
		return &c
	case *Window:
		c := *n
		c.PartitionBy = ms(n.PartitionBy)
		c.OrderBy = mapKeys(n.OrderBy, m)
		c.Funcs = make([]WindowCall, len(n.Funcs))
		for i, w := range n.Funcs {
			w.Args = ms(w.Args)
			w.Order = mapKeys(w.Order, m)
			if w.Frame.Start.PerRow != nil {
				w.Frame.Start.PerRow = m(w.Frame.Start.PerRow)
			}
			if w.Frame.End.PerRow != nil {
				w.Frame.End.PerRow = m(w.Frame.End.PerRow)
			}
			c.Funcs[i] = w
		}
		return &c
	}
	return p
}

func mapKeys(keys []SortKey, m func(Expr) Expr) []SortKey {
	out := make([]SortKey, len(keys))
	for i, k := range keys {
		k.Expr = m(k.Expr)
		out[i] = k
	}
	return out
}

func isBoolConst(e Expr, v bool) bool {
	c, ok := e.(*Const)
	if !ok {
		return false
	}
	b, ok := c.Value.(bool)
	return ok && b == v
}

func isNullConst(e Expr) bool {
	c, ok := e.(*Const)
	return ok && c.Value == nil
}

// Conjuncts splits a condition into its top-level AND operands (nil: none).
func Conjuncts(e Expr) []Expr { return splitConjuncts(e) }

// ColumnsOf lists the columns e references, in order of first use.
func ColumnsOf(e Expr) []ColumnID {
	var out []ColumnID
	seen := colSet{}
	var walk func(Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *ColRef:
			if !seen[x.ID] {
				seen[x.ID] = true
				out = append(out, x.ID)
			}
		case *Func:
			for _, a := range x.Args {
				walk(a)
			}
		}
	}
	walk(e)
	return out
}
