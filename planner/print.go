package planner

import (
	"fmt"
	"strings"
)

// Format renders a logical plan as an indented tree (for EXPLAIN LOGICAL
// and debugging), one node a line.
func Format(p Plan) string {
	var b strings.Builder
	formatNode(&b, p, "", "")
	return b.String()
}

func formatNode(b *strings.Builder, p Plan, first, rest string) {
	b.WriteString(first)
	b.WriteString(describe(p))
	b.WriteByte('\n')
	ins := p.Inputs()
	for i, c := range ins {
		if i == len(ins)-1 {
			formatNode(b, c, rest+"└─ ", rest+"   ")
		} else {
			formatNode(b, c, rest+"├─ ", rest+"│  ")
		}
	}
}

func colNames(cols []Column) string {
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = fmt.Sprintf("%s#%d", c.Name, c.ID)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func exprList(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func keyList(keys []SortKey) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		s[i] = k.Expr.String() + " " + dir
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// describe is one node's line.
func describe(p Plan) string {
	switch n := p.(type) {
	case *Scan:
		s := "Scan " + n.Table.Name()
		if n.Alias != "" && n.Alias != n.Table.Name() {
			s += " AS " + n.Alias
		}
		s += " cols=" + colNames(n.Cols)
		if n.Filter != nil {
			s += " filter=" + n.Filter.String()
		}
		return s
	case *Values:
		return fmt.Sprintf("Values cols=%s rows=%d", colNames(n.Cols), len(n.Rows))
	case *Filter:
		return "Filter " + n.Cond.String()
	case *Project:
		s := make([]string, len(n.Exprs))
		for i, e := range n.Exprs {
			s[i] = fmt.Sprintf("%s AS %s#%d", e, n.Cols[i].Name, n.Cols[i].ID)
		}
		return "Project [" + strings.Join(s, ", ") + "]"
	case *Aggregate:
		aggs := make([]string, len(n.Aggs))
		for i, a := range n.Aggs {
			arg := "*"
			if a.Arg != nil {
				arg = a.Arg.String()
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			arg += AggParamSuffix(a.Param)
			aggs[i] = fmt.Sprintf("%s(%s) AS %s#%d", a.Fn, arg, n.AggCols[i].Name, n.AggCols[i].ID)
		}
		return fmt.Sprintf("Aggregate keys=%s aggs=[%s]", exprList(n.GroupBy), strings.Join(aggs, ", "))
	case *Join:
		s := "Join " + n.Type.String()
		if n.NullAware {
			s += " null-aware"
		}
		if n.Cond != nil {
			s += " on " + n.Cond.String()
		}
		return s
	case *Sort:
		return "Sort " + keyList(n.Keys)
	case *Limit:
		return fmt.Sprintf("Limit %d offset %d", n.Count, n.Offset)
	case *Window:
		fs := make([]string, len(n.Funcs))
		for i, f := range n.Funcs {
			fs[i] = fmt.Sprintf("%s%s%s AS %s#%d", f.Fn, exprList(f.Args), f.describe(len(n.OrderBy) > 0), n.Cols[i].Name, n.Cols[i].ID)
		}
		return fmt.Sprintf("Window partition=%s order=%s funcs=[%s]", exprList(n.PartitionBy), keyList(n.OrderBy), strings.Join(fs, ", "))
	case *Union:
		return "Union all cols=" + colNames(n.Cols)
	case *RecursiveCTE:
		op := "union all"
		if n.Distinct {
			op = "union"
		}
		return "RecursiveCTE " + n.Work.Name + " " + op + " cols=" + colNames(n.Cols)
	case *WorkScan:
		return "WorkScan " + n.Work.Name + " cols=" + colNames(n.Cols)
	}
	return fmt.Sprintf("%T", p)
}
