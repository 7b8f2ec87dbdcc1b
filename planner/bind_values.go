package planner

import (
	"strconv"

	"gq/errs"
	"gq/parser/sqlparser"
)

// bindValues binds VALUES (…), (…) (or MySQL's VALUES ROW(…), …) used as a
// query: in FROM, in a CTE, or as a set operation's operand. Its columns are
// named column_0, column_1, … as MySQL names them (a derived table's or a
// CTE's column list renames them); each column has the type its values meet
// in, as a UNION's column does.
func (b *binder) bindValues(vs *sqlparser.ValuesStatement) (*selResult, error) {
	switch {
	case vs.ListArg != "":
		return nil, errs.New(errs.Unsupported, "VALUES over a list bind variable is not supported")
	case vs.With != nil:
		return nil, errs.New(errs.Unsupported, "WITH before VALUES is not supported: select from the VALUES in a derived table")
	case len(vs.Order) > 0 || vs.Limit != nil:
		return nil, errs.New(errs.Unsupported, "ORDER BY or LIMIT on VALUES is not supported: select from the VALUES in a derived table")
	case len(vs.Rows) == 0:
		return nil, errs.New(errs.Binding, "VALUES needs at least one row")
	}
	n := len(vs.Rows[0])
	if n == 0 {
		return nil, errs.New(errs.Binding, "a VALUES row needs at least one value")
	}
	rows := make([][]Expr, len(vs.Rows))
	for r, tuple := range vs.Rows {
		if len(tuple) != n {
			return nil, errs.New(errs.Binding, "VALUES row %d has %d values, row 1 has %d", r+1, len(tuple), n)
		}
		if err := b.ctx.Err(); err != nil {
			return nil, errs.Wrap(errs.Cancelled, err, "query cancelled while planning")
		}
		c := &ectx{b: b, s: &scope{}} // a row names no column, nor an outer one
		rows[r] = make([]Expr, n)
		for k, v := range tuple {
			e, err := c.bind(v)
			if err != nil {
				return nil, err
			}
			rows[r][k] = e
		}
	}
	names := make([]string, n)
	cols := make([]Column, n)
	for k := range n {
		names[k] = "column_" + strconv.Itoa(k)
		col := make([]Expr, len(rows))
		for r := range rows {
			col[r] = rows[r][k]
		}
		t, cast, err := unify("VALUES column "+strconv.Itoa(k+1), col)
		if err != nil {
			return nil, err
		}
		for r := range rows {
			rows[r][k] = foldTree(cast[r])
		}
		cols[k] = Column{ID: NewColumnID(), Name: names[k], Type: t, Nullable: true}
	}
	allConst := true
	for _, row := range rows {
		for _, v := range row {
			if _, ok := v.(*Const); !ok {
				allConst = false
			}
		}
	}
	if allConst {
		return &selResult{plan: &Values{Cols: cols, Rows: rows}, names: names}, nil
	}
	// Values that only execution computes: each row a projection of the
	// one empty row, as INSERT … VALUES does.
	un := &Union{Cols: cols, InOrder: true}
	for _, r := range rows {
		un.Children = append(un.Children, &Project{Input: &Values{Rows: [][]Expr{{}}}, Exprs: r, Cols: freshCols(cols)})
	}
	return &selResult{plan: un, names: names}, nil
}
