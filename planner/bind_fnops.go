package planner

import (
	"gq/parser/sqlparser"

	"gq/errs"
	"gq/expr"
)

// The syntaxes vitess parses into nodes of their own that are calls of
// registry functions: LOCATE / POSITION(sub IN s), REGEXP_LIKE,
// REGEXP_REPLACE, JSON_EXTRACT, the REGEXP / RLIKE operators and the bit
// operators (& | ^ << >> ~). Each binds through its registry entry, so the
// type rule and the kernels are the function's own.

func (c *ectx) fnSyntax(e sqlparser.Expr) (Expr, error) {
	switch x := e.(type) {
	case *sqlparser.LocateExpr:
		args := []sqlparser.Expr{x.SubStr, x.Str}
		if x.Pos != nil {
			args = append(args, x.Pos)
		}
		return c.callFunc("locate", args)
	case *sqlparser.RegexpLikeExpr:
		args := []sqlparser.Expr{x.Expr, x.Pattern}
		if x.MatchType != nil {
			args = append(args, x.MatchType)
		}
		return c.callFunc("regexp_like", args)
	case *sqlparser.RegexpReplaceExpr:
		// DuckDB's regexp_replace(s, p, r, 'flags'): the fourth argument
		// is a string of flags, not MySQL's position.
		if l, ok := x.Position.(*sqlparser.Literal); ok && l.Type == sqlparser.StrVal && x.Occurrence == nil && x.MatchType == nil {
			return c.callFunc("regexp_replace", []sqlparser.Expr{x.Expr, x.Pattern, x.Repl, x.Position})
		}
		// MySQL's position and occurrence arguments: only their defaults
		// (from the first character, every occurrence).
		if !isIntLit(x.Position, "1") || !isIntLit(x.Occurrence, "0") {
			return nil, errs.NewNear(errs.Unsupported, "regexp_replace", "regexp_replace with a position or an occurrence is not supported (every match from the start is replaced)")
		}
		args := []sqlparser.Expr{x.Expr, x.Pattern, x.Repl}
		if x.MatchType != nil {
			args = append(args, x.MatchType)
		}
		return c.callFunc("regexp_replace", args)
	case *sqlparser.JSONExtractExpr:
		return c.callFunc("json_extract", append([]sqlparser.Expr{x.JSONDoc}, x.PathList...))
	}
	return nil, errs.NewNear(errs.Unsupported, sqlparser.String(e), "expression %s is not supported", sqlparser.String(e))
}

// isIntLit: e is absent or the integer literal v.
func isIntLit(e sqlparser.Expr, v string) bool {
	if e == nil {
		return true
	}
	l, ok := e.(*sqlparser.Literal)
	return ok && l.Type == sqlparser.IntVal && l.Val == v
}

// regexpOp is s REGEXP pattern (RLIKE) and NOT REGEXP.
func (c *ectx) regexpOp(x *sqlparser.ComparisonExpr, l Expr) (Expr, error) {
	r, err := c.bind(x.Right)
	if err != nil {
		return nil, err
	}
	m, err := bindEntry("regexp_like", "REGEXP", l, r)
	if err != nil || x.Operator == sqlparser.RegexpOp {
		return m, err
	}
	return &Func{Name: "not", Args: []Expr{m}, T: expr.Boolean}, nil
}

// bitOps are the binary bit operators' registry entries.
var bitOps = map[sqlparser.BinaryExprOperator]string{
	sqlparser.BitAndOp: "bitand", sqlparser.BitOrOp: "bitor", sqlparser.BitXorOp: "bitxor",
	sqlparser.ShiftLeftOp: "shl", sqlparser.ShiftRightOp: "shr",
}

// bindEntry binds the registry function fn (its IR name) over bound
// arguments by its type rule; shown names the construct in errors.
func bindEntry(fn, shown string, args ...Expr) (Expr, error) {
	f := expr.Lookup(fn)
	if f == nil || f.Bind == nil {
		return nil, errs.New(errs.Internal, "no registry entry for %s", fn)
	}
	ops := make([]expr.Operand, len(args))
	for i, a := range args {
		ops[i] = a
	}
	r, err := f.Bind(fnBinder{}, shown, ops)
	if err != nil {
		return nil, err
	}
	return r.(Expr), nil
}
