package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// General decorrelation (Neumann and Kemper, "Unnesting Arbitrary
// Queries"; DuckDB's model). Equality correlations (outer = inner) are
// cheap: the subquery is grouped by its inner side and joined on the
// equality. Any other correlation (x.b < t1.b, <>, expressions over
// both) cannot be grouped that way, so the subquery is evaluated once
// per distinct value of the outer columns it reads — the domain:
//
//	D   = distinct outer correlated columns, read from the outer plan
//	S'  = D ⋈ S on the correlation conditions, the outer columns renamed
//	      to D's (a left join for an aggregate without GROUP BY, so that
//	      every domain value has its group; count(*) then counts a
//	      non-NULL marker of S, so an empty group counts 0)
//	S'' = the subquery over S', grouped by D's columns as well
//	out = outer ⋈ S'' on outer column = D column, NULL matching NULL
//
// S'' holds one row per domain value (per group, with GROUP BY), so the
// join back keeps the join types and semantics the equality path uses
// (single join, semi/anti join, mark aggregates).

// domain is the distinct outer correlated columns of a subquery. Its
// Aggregate's Input is set when the subquery is joined onto the outer
// plan (attachDomains), which is not known while the subquery is bound.
type domain struct {
	agg   *Aggregate
	outer []*ColRef // outer columns, in the order of agg.GroupCols
	// nullable[i]: outer[i] may be NULL, so the join back must match NULL
	// with NULL.
	nullable []bool
}

// isOuterEquality reports whether ce is outer = inner with each side over
// one level only: the form that grouping by the inner side decorrelates.
func isOuterEquality(ce Expr, innerIDs map[ColumnID]bool) bool {
	f, ok := ce.(*Func)
	if !ok || f.Name != "eq" || len(f.Args) != 2 {
		return false
	}
	l, r := f.Args[0], f.Args[1]
	if within(l, innerIDs) {
		l, r = r, l
	}
	return within(r, innerIDs) && noneWithin(l, innerIDs) && !within(l, map[ColumnID]bool{})
}

// newDomain makes the domain of corr's outer columns (those not in
// innerIDs) and returns corr with them renamed to the domain's columns,
// and the conditions that join the renamed subquery back to the outer
// query.
func (c *ectx) newDomain(corr []Expr, innerIDs map[ColumnID]bool) (*domain, []Expr, []Expr, error) {
	d := &domain{agg: &Aggregate{}}
	m := map[ColumnID]*ColRef{}
	var visit func(e Expr)
	visit = func(e Expr) {
		switch x := e.(type) {
		case *ColRef:
			if innerIDs[x.ID] || m[x.ID] != nil {
				return
			}
			col := Column{ID: NewColumnID(), Name: x.Name, Type: x.T, Nullable: true}
			d.agg.GroupBy = append(d.agg.GroupBy, x)
			d.agg.GroupCols = append(d.agg.GroupCols, col)
			d.outer = append(d.outer, x)
			d.nullable = append(d.nullable, c.s.nullableCol(x.ID))
			m[x.ID] = ref(col)
		case *Func:
			for _, a := range x.Args {
				visit(a)
			}
		}
	}
	for _, ce := range corr {
		visit(ce)
	}
	if len(d.outer) == 0 {
		return nil, nil, nil, errs.New(errs.Internal, "correlated conditions without outer columns: %v", corr)
	}
	renamed := make([]Expr, len(corr))
	for i, ce := range corr {
		renamed[i] = remap(ce, m)
	}
	var back []Expr
	for i, o := range d.outer {
		eqs, err := nullSafeEq(o, ref(d.agg.GroupCols[i]), d.nullable[i])
		if err != nil {
			return nil, nil, nil, err
		}
		back = append(back, eqs...)
	}
	return d, renamed, back, nil
}

// nullableCol reports whether the column id of s (or of a scope further
// out) may hold NULL; unknown columns are taken as nullable.
func (s *scope) nullableCol(id ColumnID) bool {
	for ; s != nil; s = s.outer {
		for _, c := range s.cols {
			if c.id == id {
				return c.nullable
			}
		}
	}
	return true
}

// nullSafeEq is o IS NOT DISTINCT FROM d as conditions a hash join can
// take as keys: the values with NULL replaced by a zero of their type,
// and whether each is NULL. A non-nullable o needs only o = d (a NULL d
// cannot equal it).
func nullSafeEq(o, d Expr, nullable bool) ([]Expr, error) {
	eq := func(a, b Expr) Expr { return &Func{Name: "eq", Args: []Expr{a, b}, T: expr.Boolean} }
	if !nullable {
		return []Expr{eq(o, d)}, nil
	}
	isNull := func(e Expr) Expr { return &Func{Name: "is_null", Args: []Expr{e}, T: expr.Boolean} }
	flags := eq(isNull(o), isNull(d))
	var zero any
	switch o.Type().ID() {
	case arrow.NULL:
		return []Expr{flags}, nil // always NULL: only the flags compare
	case arrow.INT64, arrow.DECIMAL64, arrow.TIMESTAMP, arrow.TIME64:
		zero = int64(0)
	case arrow.FLOAT64:
		zero = float64(0)
	case arrow.DATE32:
		zero = int32(0)
	case arrow.BOOL:
		zero = false
	case arrow.STRING:
		zero = ""
	default:
		return nil, errs.New(errs.Unsupported, "a subquery correlated on a column of type %s by a condition other than equality is not supported", expr.TypeName(o.Type()))
	}
	z := &Const{Value: zero, T: o.Type()}
	coalesce := func(e Expr) Expr { return &Func{Name: "coalesce", Args: []Expr{e, z}, T: o.Type()} }
	return []Expr{eq(coalesce(o), coalesce(d)), flags}, nil
}

// attachDomains gives each domain of r its input: the outer plan *c.cur
// the subquery joins onto, below the joins of earlier subqueries (their
// left input holds a superset of its rows' outer values, and reading it
// keeps a query with several subqueries from copying the plan again for
// each).
func (c *ectx) attachDomains(r *selResult) error {
	for _, d := range r.domains {
		need := map[ColumnID]bool{}
		for _, o := range d.outer {
			need[o.ID] = true
		}
		src := *c.cur
		for {
			j, ok := src.(*Join)
			if !ok || j.Type != JoinSingle && j.Type != JoinSemi && j.Type != JoinAnti || !subset(need, planIDs(j.Left)) {
				break
			}
			src = j.Left
		}
		if !subset(need, planIDs(src)) {
			return errs.New(errs.Unsupported, "subquery correlated to a query more than one level out, or to columns the outer query has aggregated away, is not supported")
		}
		d.agg.Input = src
	}
	r.domains = nil
	return nil
}

func subset(a, b map[ColumnID]bool) bool {
	for id := range a {
		if !b[id] {
			return false
		}
	}
	return true
}

// withMarker returns p with one more column, a non-NULL Boolean: after a
// left join it tells matched rows from padded ones (count(*) of a
// decorrelated subquery counts it).
func withMarker(p Plan) (Plan, *ColRef) {
	pr := &Project{Input: p}
	for _, col := range p.Columns() {
		pr.Exprs, pr.Cols = append(pr.Exprs, ref(col)), append(pr.Cols, col)
	}
	m := Column{ID: NewColumnID(), Name: "matched", Type: expr.Boolean}
	pr.Exprs, pr.Cols = append(pr.Exprs, &Const{Value: true, T: expr.Boolean}), append(pr.Cols, m)
	return pr, ref(m)
}

// nullable reports whether e may be NULL: false only for a column the
// scopes know to be NOT NULL.
func (c *ectx) nullable(e Expr) bool {
	r, ok := e.(*ColRef)
	return !ok || c.s.nullableCol(r.ID)
}
