package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// SQLType is the gq type of a MySQL type name as CAST … AS and CREATE
// TABLE write it, with its length (precision) and scale where given.
// column says which statement asks: a column may be of any integer width
// and BOOLEAN, where CAST knows SIGNED and UNSIGNED.
func SQLType(name string, length, scale *int, column bool) (arrow.DataType, error) {
	what := "CAST to"
	if column {
		what = "a column of type"
	}
	if t, ok := timeSQLType(name); ok {
		return t, nil
	}
	switch n := strings.ToLower(strings.Fields(name + " x")[0]); n {
	case "signed", "unsigned", "integer", "int", "bigint":
		return expr.Int64, nil
	case "tinyint", "smallint", "mediumint":
		if column {
			return expr.Int64, nil
		}
	case "bool", "boolean":
		return expr.Boolean, nil
	case "decimal", "numeric", "dec", "fixed":
		p, s := 10, 0
		if length != nil {
			p = *length
		}
		if scale != nil {
			s = *scale
		}
		// A CAST wider than gq's decimals narrows to them (a value that
		// does not fit is an overflow error); a column that cannot hold
		// what its type says is refused.
		if column && p > expr.MaxWidePrecision {
			return nil, errs.New(errs.Unsupported, "DECIMAL(%d,%d): gq's decimals have at most %d digits", p, s, expr.MaxWidePrecision)
		}
		if s > p || s > expr.MaxWidePrecision || (column && p < 1) {
			return nil, errs.New(errs.Binding, "bad DECIMAL(%d,%d)", p, s)
		}
		return expr.Decimal(int32(p), int32(s)), nil
	case "double", "float", "real":
		return expr.Float64, nil
	case "char", "varchar", "binary", "nchar", "text", "varbinary", "tinytext", "mediumtext", "longtext", "string":
		return expr.String, nil
	case "date":
		return expr.Date, nil
	}
	return nil, errs.New(errs.Unsupported, "%s %s is not supported", what, strings.ToUpper(name))
}
