package exec

import (
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/catalog"
	"gq/expr"
)

// statsTable is a table that stores per-split column statistics (Parquet
// row groups: catalog.ParquetTable).
type statsTable interface {
	RowGroupStats(split, column int) (catalog.ColumnStats, bool)
}

// prunedSplits reports, per split of s.Table, whether the split's min/max
// statistics prove that no row satisfies s.Filter, so the scan can skip it
// without reading it. Only top-level conjuncts of the form column op
// literal (op one of = < <= > >=, either side) are used; anything else is
// assumed satisfiable. nil when nothing can be pruned.
func (s *Scan) prunedSplits() []bool {
	st, ok := s.Table.(statsTable)
	if !ok || s.Filter == nil {
		return nil
	}
	var preds []rangePred
	for _, c := range conjuncts(s.Filter, nil) {
		if p, ok := asRangePred(c); ok && p.col < len(s.Columns) {
			p.col = s.Columns[p.col] // output column → table column
			preds = append(preds, p)
		}
	}
	if len(preds) == 0 {
		return nil
	}
	n := s.Table.NumSplits()
	skip := make([]bool, n)
	pruned := false
	for split := range n {
		for _, p := range preds {
			cs, ok := st.RowGroupStats(split, p.col)
			if ok && cs.HasMinMax && p.excludes(cs.Min, cs.Max) {
				skip[split], pruned = true, true
				break
			}
		}
	}
	if !pruned {
		return nil
	}
	return skip
}

// conjuncts flattens nested ANDs.
func conjuncts(e expr.Expr, dst []expr.Expr) []expr.Expr {
	if c, ok := e.(*expr.Call); ok && c.Fn == "and" {
		for _, a := range c.Args {
			dst = conjuncts(a, dst)
		}
		return dst
	}
	return append(dst, e)
}

// rangePred is column op value, the column on the left.
type rangePred struct {
	col int
	op  string
	val any
}

var flipped = map[string]string{"eq": "eq", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}

func asRangePred(e expr.Expr) (rangePred, bool) {
	c, ok := e.(*expr.Call)
	if !ok || len(c.Args) != 2 {
		return rangePred{}, false
	}
	op, ok := flipped[c.Fn]
	if !ok {
		return rangePred{}, false
	}
	col, lok := c.Args[0].(*expr.Column)
	lit, rok := c.Args[1].(*expr.Literal)
	if lok && rok {
		op = c.Fn
	} else {
		col, lok = c.Args[1].(*expr.Column)
		lit, rok = c.Args[0].(*expr.Literal)
		if !lok || !rok {
			return rangePred{}, false
		}
	}
	// Statistics are in the column's representation: the literal must be
	// of the same type (same decimal scale) to compare raw values.
	if lit.Value == nil || col.Type == nil || lit.Type == nil || !arrow.TypeEqual(col.Type, lit.Type) {
		if !sameDecimalScale(col.Type, lit.Type) || lit.Value == nil {
			return rangePred{}, false
		}
	}
	return rangePred{col: col.Index, op: op, val: lit.Value}, true
}

func sameDecimalScale(a, b arrow.DataType) bool {
	da, ok1 := a.(arrow.DecimalType)
	db, ok2 := b.(arrow.DecimalType)
	return ok1 && ok2 && da.GetScale() == db.GetScale()
}

// excludes reports whether no value in [min, max] satisfies the predicate.
func (p rangePred) excludes(min, max any) bool {
	lo, ok1 := compareValues(min, p.val)
	hi, ok2 := compareValues(max, p.val)
	if !ok1 || !ok2 {
		return false
	}
	switch p.op {
	case "eq":
		return lo > 0 || hi < 0
	case "lt":
		return lo >= 0
	case "le":
		return lo > 0
	case "gt":
		return hi <= 0
	case "ge":
		return hi < 0
	}
	return false
}

// compareValues compares a statistic with a literal value of the same
// gq type (integers, decimals, dates); ok is false otherwise.
func compareValues(a, b any) (int, bool) {
	if x, ok := wideValue(a); ok {
		if y, ok := wideValue(b); ok {
			return x.Cmp(y), true
		}
	}
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp.Compare(x, y), true
		case int:
			return cmp.Compare(x, int64(y)), true
		}
	case int32:
		switch y := b.(type) {
		case int32:
			return cmp.Compare(x, y), true
		case arrow.Date32:
			return cmp.Compare(x, int32(y)), true
		}
	}
	// Floats (NaN, -0) and strings (writers may truncate string
	// statistics) are not trusted for pruning.
	return 0, false
}

// wideValue is an integer or decimal statistic or literal (int64 or
// decimal128.Num, both sides of one scale) as 128 bits, so that a
// DECIMAL(38) column's statistics compare with a narrower literal.
func wideValue(v any) (decimal128.Num, bool) {
	switch x := v.(type) {
	case decimal128.Num:
		return x, true
	case int64:
		return decimal128.FromI64(x), true
	}
	return decimal128.Num{}, false
}
