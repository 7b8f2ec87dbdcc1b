package flight

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"gq/parser/sqlparser"

	"gq/catalog"
)

// paramTypes guesses each placeholder's type from where it stands, for
// the parameter schema of a prepared statement: a JDBC driver binds a
// value only to a parameter of a type it can convert to, so "unknown"
// would refuse every value. A placeholder compared with a column (=, <,
// LIKE, IN, BETWEEN) takes the column's type; one in LIMIT or OFFSET is a
// BIGINT; any other stays the null type (unknown). Columns are looked up
// by name in the statement's base tables; a name two of them share with
// different types stays unknown. The guess only labels the schema: the
// values bound are typed by their own Arrow type either way.
func paramTypes(cat *catalog.Catalog, st sqlparser.Statement, n int) []arrow.DataType {
	types := make([]arrow.DataType, n)
	cols := columnTypes(cat, st)
	set := func(e sqlparser.Expr, t arrow.DataType) {
		a, ok := e.(*sqlparser.Argument)
		if !ok || t == nil {
			return
		}
		i, err := strconv.Atoi(strings.TrimPrefix(a.Name, "v"))
		if err == nil && i >= 1 && i <= n && types[i-1] == nil {
			types[i-1] = t
		}
	}
	colType := func(e sqlparser.Expr) arrow.DataType {
		if c, ok := e.(*sqlparser.ColName); ok {
			return cols[strings.ToLower(c.Name.String())]
		}
		return nil
	}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch x := node.(type) {
		case *sqlparser.ComparisonExpr:
			set(x.Right, colType(x.Left))
			set(x.Left, colType(x.Right))
			if tuple, ok := x.Right.(sqlparser.ValTuple); ok {
				for _, e := range tuple {
					set(e, colType(x.Left))
				}
			}
		case *sqlparser.BetweenExpr:
			set(x.From, colType(x.Left))
			set(x.To, colType(x.Left))
		case *sqlparser.Limit:
			set(x.Rowcount, arrow.PrimitiveTypes.Int64)
			set(x.Offset, arrow.PrimitiveTypes.Int64)
		}
		return true, nil
	}, st)
	for i, t := range types {
		if t == nil {
			types[i] = arrow.Null
		}
	}
	return types
}

// columnTypes maps the column names of the statement's base tables to
// their types; names with conflicting types map to nil.
func columnTypes(cat *catalog.Catalog, st sqlparser.Statement) map[string]arrow.DataType {
	out := map[string]arrow.DataType{}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		tn, ok := node.(sqlparser.TableName)
		if !ok {
			return true, nil
		}
		t, ok := cat.Table(tn.Name.String())
		if !ok {
			return true, nil
		}
		for _, f := range t.Schema().Fields() {
			k := strings.ToLower(f.Name)
			if prev, seen := out[k]; seen && (prev == nil || !arrow.TypeEqual(prev, f.Type)) {
				out[k] = nil
				continue
			}
			out[k] = f.Type
		}
		return true, nil
	}, st)
	return out
}
