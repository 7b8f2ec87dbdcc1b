package flight

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
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
// types literals: integers of any width as BIGINT (an unsigned one past
// BIGINT's range is refused), decimals of any width as DECIMAL (at most
// 38 digits), floats as DOUBLE, strings, dates, booleans and NULL. A
// value's own Arrow type decides, whatever the parameter schema said.
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
		// gq's integers are BIGINT: a larger value would silently become
		// a DOUBLE literal and lose digits.
		v := a.Value(i)
		if v > math.MaxInt64 {
			return nil, errs.New(errs.Binding, "value %d is out of BIGINT's range (at most %d)", v, int64(math.MaxInt64))
		}
		return intLit(int64(v)), nil
	case *array.Float32:
		return floatLit(float64(a.Value(i)), 32)
	case *array.Float64:
		return floatLit(a.Value(i), 64)
	case *array.Decimal256:
		return decLit(a.ValueStr(i))
	case *array.Decimal128:
		return decLit(a.ValueStr(i))
	case *array.Decimal64:
		return decLit(a.ValueStr(i))
	case *array.Decimal32:
		return decLit(a.ValueStr(i))
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
	if e, ok := timeLiteral(arr, i); ok {
		return e, nil
	}
	return nil, errs.New(errs.Unsupported, "parameters of type %s are not supported", arr.DataType())
}

func intLit(v int64) sqlparser.Expr {
	return &sqlparser.Literal{Type: sqlparser.IntVal, Val: strconv.FormatInt(v, 10)}
}

// floatLit is a float's literal, in the shortest digits that read back
// as the same value of its width: a float32 0.1 binds as 0.1, not as the
// float64 nearest that float32.
func floatLit(v float64, bits int) (sqlparser.Expr, error) {
	s := strconv.FormatFloat(v, 'e', -1, bits)
	if strings.ContainsAny(s, "IN") { // Inf, NaN
		return nil, errs.New(errs.Unsupported, "parameter value %v is not supported", v)
	}
	return &sqlparser.Literal{Type: sqlparser.FloatVal, Val: s}, nil
}

// maxDecimalDigits is the most significant digits gq's DECIMAL holds
// (DECIMAL(38), on Arrow's decimal128).
const maxDecimalDigits = expr.MaxWidePrecision

// decLit is a decimal's literal; an integral one stays an integer. gq
// reads a literal of up to 38 digits exactly (an integer past BIGINT or a
// decimal past 18 digits as DECIMAL(38)). The fraction's trailing zeros go
// (a decimal128(38, 20) 0.05 is 0.05), and a value with more than 38
// digits left (a decimal256) is refused: as a literal it would silently
// become a DOUBLE and lose digits.
func decLit(s string) (sqlparser.Expr, error) {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	if len(digits) > maxDecimalDigits {
		return nil, errs.New(errs.Binding, "decimal value %s has more than %d digits, the most a DECIMAL holds", s, maxDecimalDigits)
	}
	if strings.Contains(s, ".") {
		return &sqlparser.Literal{Type: sqlparser.DecimalVal, Val: s}, nil
	}
	return &sqlparser.Literal{Type: sqlparser.IntVal, Val: s}, nil
}
