package planner

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
)

// BindInsert plans the rows an INSERT adds to a table of schema: its VALUES
// or its query, each value cast to its column's type as CAST would, the
// columns it does not name NULL. The plan's columns are schema's, in order.
func BindInsert(ctx context.Context, cat *catalog.Catalog, ins *sqlparser.Insert, schema *arrow.Schema) (Plan, error) {
	table := sqlparser.String(ins.Table)
	switch {
	case ins.Action == sqlparser.ReplaceAct:
		return nil, errs.NewNear(errs.Unsupported, "replace", "REPLACE is not supported (gq has no keys to replace by)")
	case bool(ins.Ignore):
		return nil, errs.New(errs.Unsupported, "INSERT IGNORE is not supported")
	case len(ins.OnDup) > 0:
		return nil, errs.New(errs.Unsupported, "INSERT … ON DUPLICATE KEY UPDATE is not supported (gq has no keys)")
	case len(ins.Partitions) > 0:
		return nil, errs.New(errs.Unsupported, "INSERT into partitions is not supported")
	}
	// target[i] is the schema column the i-th value goes to.
	var target []int
	if len(ins.Columns) == 0 {
		for i := range schema.NumFields() {
			target = append(target, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range ins.Columns {
			i := fieldIndex(schema, c.String())
			if i < 0 {
				return nil, errs.NewNear(errs.Binding, c.String(), "table %s has no column %s", table, c.String())
			}
			if seen[i] {
				return nil, errs.NewNear(errs.Binding, c.String(), "column %s is named twice", c.String())
			}
			seen[i] = true
			target = append(target, i)
		}
	}
	cols := make([]Column, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i] = Column{ID: NewColumnID(), Name: f.Name, Type: f.Type, Nullable: true}
	}
	b := &binder{ctx: ctx, cat: cat}
	// row places one row's values (given, in target order) in the table's
	// columns, cast to their types.
	row := func(given []Expr) ([]Expr, error) {
		out := make([]Expr, len(cols))
		for i, c := range cols {
			out[i] = &Const{T: c.Type}
		}
		for k, e := range given {
			c := cols[target[k]]
			v, err := castTo(e, c.Type)
			if err != nil {
				return nil, errs.Within(err, c.Name, "column "+c.Name+" of "+table)
			}
			out[target[k]] = foldTree(v)
		}
		return out, nil
	}
	switch src := ins.Rows.(type) {
	case sqlparser.Values:
		rows := make([][]Expr, len(src))
		allConst := true
		for r, tuple := range src {
			if len(tuple) != len(target) {
				return nil, errs.New(errs.Binding, "INSERT into %s: row %d has %d values for %d columns", table, r+1, len(tuple), len(target))
			}
			if err := b.ctx.Err(); err != nil {
				return nil, errs.Wrap(errs.Cancelled, err, "query cancelled while planning")
			}
			c := &ectx{b: b, s: &scope{}}
			given := make([]Expr, len(tuple))
			for k, v := range tuple {
				var err error
				if given[k], err = c.bind(v); err != nil {
					return nil, err
				}
			}
			var err error
			if rows[r], err = row(given); err != nil {
				return nil, err
			}
			for _, v := range rows[r] {
				if _, ok := v.(*Const); !ok {
					allConst = false
				}
			}
		}
		if allConst {
			return &Values{Cols: cols, Rows: rows}, nil
		}
		// Values that only execution computes: each row a projection of
		// the one empty row.
		un := &Union{Cols: cols}
		for _, r := range rows {
			un.Children = append(un.Children, &Project{Input: &Values{Rows: [][]Expr{{}}}, Exprs: r, Cols: freshCols(cols)})
		}
		return un, nil
	case sqlparser.TableStatement:
		r, err := b.bindTableStmt(src, nil, nil)
		if err != nil {
			return nil, err
		}
		in := r.plan.Columns()
		if len(in) != len(target) {
			return nil, errs.New(errs.Binding, "INSERT into %s: the query has %d columns for %d", table, len(in), len(target))
		}
		given := make([]Expr, len(in))
		for i, c := range in {
			given[i] = ref(c)
		}
		exprs, err := row(given)
		if err != nil {
			return nil, err
		}
		return &Project{Input: r.plan, Exprs: exprs, Cols: cols}, nil
	}
	return nil, errs.New(errs.Unsupported, "this form of INSERT is not supported")
}

func fieldIndex(s *arrow.Schema, name string) int {
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// freshCols is cols under new IDs (each branch of a Union has its own).
func freshCols(cols []Column) []Column {
	out := make([]Column, len(cols))
	for i, c := range cols {
		c.ID = NewColumnID()
		out[i] = c
	}
	return out
}

// foldTree folds e's constant subexpressions, innermost first.
func foldTree(e Expr) Expr {
	f, ok := e.(*Func)
	if !ok {
		return e
	}
	g := *f
	g.Args = make([]Expr, len(f.Args))
	for i, a := range f.Args {
		g.Args[i] = foldTree(a)
	}
	return foldExpr(&g)
}
