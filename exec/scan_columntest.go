package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/catalog"
	"gq/expr"
	gqmem "gq/memory"
)

// Column tests: the conjuncts of a scan's filter that read one string
// column and cannot fail go to the table as catalog.ColumnTests, which a
// Parquet table decides once per dictionary value instead of once per row
// (see catalog/parquet_columntest.go for why).

// testFns are the functions a column test may use: none of them can fail,
// so deciding a value the rows never reach (a dictionary entry that other
// conjuncts would have filtered out first) cannot raise an error.
var testFns = map[string]bool{
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"and": true, "or": true, "not": true, "is_null": true, "is_not_null": true,
	"like": true, "not_like": true, "in": true, "not_in": true, "starts_with": true,
	"upper": true, "lower": true, "trim": true, "ltrim": true, "rtrim": true, "length": true,
}

// splitColumnTests splits filter's conjuncts into column tests (with the
// column each reads) and the rest (nil when nothing is left).
func splitColumnTests(filter expr.Expr) (tests []expr.Expr, cols []*expr.Column, rest expr.Expr) {
	conj := []expr.Expr{filter}
	if c, ok := filter.(*expr.Call); ok && c.Fn == "and" {
		conj = c.Args
	}
	var others []expr.Expr
	for _, e := range conj {
		if col := onlyColumn(e); col != nil && col.Type.ID() == arrow.STRING && testSafe(e) {
			tests, cols = append(tests, e), append(cols, col)
			continue
		}
		others = append(others, e)
	}
	switch len(others) {
	case 0:
	case 1:
		rest = others[0]
	default:
		rest = &expr.Call{Fn: "and", Args: others, Type: expr.Boolean}
	}
	return tests, cols, rest
}

// onlyColumn returns the one column e reads, nil if it reads none or
// several.
func onlyColumn(e expr.Expr) *expr.Column {
	switch e := e.(type) {
	case *expr.Column:
		return e
	case *expr.Call:
		var found *expr.Column
		for _, a := range e.Args {
			c := onlyColumn(a)
			if c == nil {
				if _, lit := a.(*expr.Literal); lit {
					continue
				}
				return nil
			}
			if found != nil && found.Index != c.Index {
				return nil
			}
			found = c
		}
		return found
	}
	return nil
}

func testSafe(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.Column, *expr.Literal:
		return true
	case *expr.Call:
		if !testFns[e.Fn] {
			return false
		}
		for _, a := range e.Args {
			if !testSafe(a) {
				return false
			}
		}
		return true
	}
	return false
}

// columnTest makes the catalog test of e, which reads col, one of the
// width columns a scan reads: Keep evaluates e over a batch whose column
// col holds the values (the other columns are never read: untyped NULL
// placeholders).
func columnTest(c *Context, e expr.Expr, col *expr.Column, width int) (catalog.ColumnTest, error) {
	ce, err := compileExpr(e)
	if err != nil {
		return catalog.ColumnTest{}, err
	}
	fields := make([]arrow.Field, width)
	for i := range fields {
		fields[i] = arrow.Field{Name: "_", Type: arrow.Null, Nullable: true}
	}
	fields[col.Index] = arrow.Field{Name: col.Name, Type: col.Type, Nullable: true}
	testSchema := arrow.NewSchema(fields, nil)
	keep := func(vals arrow.Array) ([]bool, error) {
		n := vals.Len()
		cols := make([]arrow.Array, len(fields))
		for i := range cols {
			if i == col.Index {
				cols[i] = vals
				vals.Retain()
			} else {
				cols[i] = array.NewNull(n)
			}
		}
		b := array.NewRecordBatch(testSchema, cols, int64(n))
		releaseArrays(cols)
		defer b.Release()
		// The selection is scratch, recycled here: grown by appending
		// from nil, it was a batch's garbage several times over where the
		// column's values are tested row by row (long strings, PLAIN).
		buf := gqmem.Scratch[int32](n)[:0]
		defer gqmem.Recycle(buf)
		sel, err := ce.filter(c.Alloc, b, buf)
		if err != nil {
			return nil, err
		}
		out := make([]bool, n)
		for _, r := range sel {
			out[r] = true
		}
		return out, nil
	}
	return catalog.ColumnTest{Col: col.Index, Keep: keep}, nil
}
