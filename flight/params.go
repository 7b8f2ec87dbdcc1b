package flight

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"vitess.io/vitess/go/vt/sqlparser"

	"gq/errs"
	"gq/parser"
)

// Parameters. A prepared statement's `?` placeholders (vitess parses them
// as arguments :v1, :v2, … in text order) are replaced in the parsed
// statement by typed literals built from the bound Arrow values, and the
// statement is printed back to SQL for the engine. Values never pass
// through string splicing: a string parameter becomes one string literal
// node, which the printer quotes and escapes, so a parameter cannot
// change the statement's shape (no SQL injection). gq's view definitions
// take the same parse → print round trip.

// placeholders parses sql (one statement) and counts its placeholders.
func placeholders(sql string) (int, error) {
	st, err := parseOne(sql)
	if err != nil {
		return 0, err
	}
	return countPlaceholders(st), nil
}

func countPlaceholders(st sqlparser.Statement) int {
	n := 0
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if _, ok := node.(*sqlparser.Argument); ok {
			n++
		}
		return true, nil
	}, st)
	return n
}

func parseOne(sql string) (sqlparser.Statement, error) {
	stmts, err := parser.Split(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, errs.New(errs.Syntax, "expected exactly one statement, got %d", len(stmts))
	}
	return stmts[0].AST, nil
}

// bindParams returns sql with its placeholders replaced by vals (one
// literal per placeholder, in order).
func bindParams(sql string, vals []sqlparser.Expr) (string, error) {
	st, err := parseOne(sql)
	if err != nil {
		return "", err
	}
	var bindErr error
	out := sqlparser.Rewrite(st, func(c *sqlparser.Cursor) bool {
		a, ok := c.Node().(*sqlparser.Argument)
		if !ok {
			return true
		}
		i, err := strconv.Atoi(strings.TrimPrefix(a.Name, "v"))
		if err != nil || !strings.HasPrefix(a.Name, "v") {
			bindErr = errs.NewNear(errs.Unsupported, ":"+a.Name, "named parameter :%s is not supported (use ?)", a.Name)
			return false
		}
		if i < 1 || i > len(vals) {
			bindErr = errs.New(errs.Binding, "parameter %d is not bound (%d values given)", i, len(vals))
			return false
		}
		c.Replace(vals[i-1])
		return true
	}, nil)
	if bindErr != nil {
		return "", bindErr
	}
	return sqlparser.String(out), nil
}

// paramRows turns each row of a parameter batch into one literal per
// column.
func paramRows(rec arrow.RecordBatch) ([][]sqlparser.Expr, error) {
	rows := make([][]sqlparser.Expr, rec.NumRows())
	for r := range rows {
		rows[r] = make([]sqlparser.Expr, rec.NumCols())
		for c, col := range rec.Columns() {
			v, err := literal(col, r)
			if err != nil {
				return nil, errs.Wrap(errs.Binding, err, "parameter %d", c+1)
			}
			rows[r][c] = v
		}
	}
	return rows, nil
}

// literal is the SQL literal of value i of arr, typed as gq's binder
// types literals: integers as BIGINT, decimals as DECIMAL, floats as
// DOUBLE, strings, dates, booleans and NULL.
func literal(arr arrow.Array, i int) (sqlparser.Expr, error) {
	if arr.IsNull(i) {
		return &sqlparser.NullVal{}, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return sqlparser.BoolVal(a.Value(i)), nil
	case *array.Int8:
		return intLit(int64(a.Value(i))), nil
	case *array.Int16:
		return intLit(int64(a.Value(i))), nil
	case *array.Int32:
		return intLit(int64(a.Value(i))), nil
	case *array.Int64:
		return intLit(a.Value(i)), nil
	case *array.Uint8:
		return intLit(int64(a.Value(i))), nil
	case *array.Uint16:
		return intLit(int64(a.Value(i))), nil
	case *array.Uint32:
		return intLit(int64(a.Value(i))), nil
	case *array.Uint64:
		return &sqlparser.Literal{Type: sqlparser.IntVal, Val: strconv.FormatUint(a.Value(i), 10)}, nil
	case *array.Float32:
		return floatLit(float64(a.Value(i)))
	case *array.Float64:
		return floatLit(a.Value(i))
	case *array.Decimal128:
		return decLit(a.ValueStr(i)), nil
	case *array.Decimal64:
		return decLit(a.ValueStr(i)), nil
	case *array.Decimal32:
		return decLit(a.ValueStr(i)), nil
	case *array.String:
		return sqlparser.NewStrLiteral(a.Value(i)), nil
	case *array.LargeString:
		return sqlparser.NewStrLiteral(a.Value(i)), nil
	case *array.StringView:
		return sqlparser.NewStrLiteral(a.Value(i)), nil
	case *array.Date32:
		return &sqlparser.Literal{Type: sqlparser.DateVal, Val: a.Value(i).FormattedString()}, nil
	case *array.Date64:
		return &sqlparser.Literal{Type: sqlparser.DateVal, Val: a.Value(i).FormattedString()}, nil
	case *array.DenseUnion:
		// JDBC sends parameters as a dense union when the schema does
		// not fix their types.
		child := a.Field(a.ChildID(i))
		return literal(child, int(a.ValueOffset(i)))
	}
	return nil, errs.New(errs.Unsupported, "parameters of type %s are not supported", arr.DataType())
}

func intLit(v int64) sqlparser.Expr {
	return &sqlparser.Literal{Type: sqlparser.IntVal, Val: strconv.FormatInt(v, 10)}
}

func floatLit(v float64) (sqlparser.Expr, error) {
	s := strconv.FormatFloat(v, 'e', -1, 64)
	if strings.ContainsAny(s, "IN") { // Inf, NaN
		return nil, errs.New(errs.Unsupported, "parameter value %v is not supported", v)
	}
	return &sqlparser.Literal{Type: sqlparser.FloatVal, Val: s}, nil
}

// decLit is a decimal's literal; an integral one stays an integer.
func decLit(s string) sqlparser.Expr {
	if strings.Contains(s, ".") {
		return &sqlparser.Literal{Type: sqlparser.DecimalVal, Val: s}
	}
	return &sqlparser.Literal{Type: sqlparser.IntVal, Val: s}
}
