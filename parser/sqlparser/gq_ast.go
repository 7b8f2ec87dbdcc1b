package sqlparser

// gq: this file is gq's, not upstream's (see UPSTREAM.md). It holds the AST
// additions behind gq's grammar changes, kept apart from upstream's files so
// a rebase touches them only where a switch needs a new case.

import (
	"fmt"
	"strconv"
	"strings"
)

// SetOpType is the set operation of a Union node. UNION is the zero value,
// so every Union upstream code builds stays a UNION.
type SetOpType int8

const (
	UnionSetOp SetOpType = iota
	ExceptSetOp
	IntersectSetOp
)

// ToString returns the operator's keyword.
func (t SetOpType) ToString() string {
	switch t {
	case ExceptSetOp:
		return "except"
	case IntersectSetOp:
		return "intersect"
	default:
		return UnionStr
	}
}

// NullsOrder is an ORDER BY item's NULLS FIRST or NULLS LAST. DefaultNulls
// (neither written) leaves the placement to the dialect: MySQL sorts NULL
// below every value, so first ascending and last descending.
type NullsOrder int8

const (
	DefaultNulls NullsOrder = iota
	NullsFirst
	NullsLast
)

// ToString returns the clause as it is formatted after the direction.
func (n NullsOrder) ToString() string {
	switch n {
	case NullsFirst:
		return " nulls first"
	case NullsLast:
		return " nulls last"
	default:
		return ""
	}
}

// filterArg is an aggregate's argument under FILTER (WHERE cond):
// CASE WHEN cond THEN arg END. Every aggregate the grammar allows FILTER on
// ignores NULL arguments, and CASE yields NULL where cond is false or NULL,
// so agg(arg) FILTER (WHERE cond) and agg(CASE WHEN cond THEN arg END) are
// the same aggregate, DISTINCT included. With no FILTER, arg is returned.
func filterArg(cond, arg Expr) Expr {
	if cond == nil {
		return arg
	}
	return &CaseExpr{Whens: []*When{{Cond: cond, Val: arg}}}
}

// filterArgs is filterArg over each of count(…)'s arguments: COUNT(a, b)
// counts rows where every argument is non-NULL, so one CASE per argument
// keeps that.
func filterArgs(cond Expr, args []Expr) []Expr {
	if cond == nil {
		return args
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		out[i] = filterArg(cond, a)
	}
	return out
}

// countStarFilter is COUNT(*) FILTER (WHERE cond): COUNT(CASE WHEN cond
// THEN 1 END) counts the rows where cond is true.
func countStarFilter(cond Expr, over *OverClause) Expr {
	if cond == nil {
		return &CountStar{OverClause: over}
	}
	return &Count{Args: []Expr{filterArg(cond, NewIntLiteral("1"))}, OverClause: over}
}

// setOpOperandNeedsParen reports whether operand, the left or right input of
// the set operation parent, must be parenthesized for the text to parse back
// to the same tree: INTERSECT binds tighter than UNION and EXCEPT, and all
// three are left-associative, so a set operation on the right needs
// parentheses unless it is an INTERSECT under a UNION or EXCEPT, and a UNION
// or EXCEPT on the left of an INTERSECT needs them. Upstream printed a right
// operand bare, which turned "a UNION ALL (b UNION c)" into a different
// query.
func setOpOperandNeedsParen(parent *Union, operand TableStatement, right bool) bool {
	child, ok := operand.(*Union)
	if !ok {
		return false
	}
	tighter := func(u *Union) int {
		if u.Type == IntersectSetOp {
			return 1
		}
		return 0
	}
	if right {
		return tighter(child) <= tighter(parent)
	}
	return tighter(child) < tighter(parent)
}

// TableFuncExpr is a table function in FROM, DuckDB's way of reading
// files: read_csv('data/*.csv', delim = ';', columns = {'a': 'BIGINT'}).
// It sits in an AliasedTableExpr, which holds its alias and column names.
type TableFuncExpr struct {
	Name IdentifierCI
	Args []*TableFuncArg
}

// TableFuncArg is one argument of a table function: positional (Name
// empty) or named (name => value; the grammar also takes name = value,
// which DuckDB accepts, and turns it into the same node).
type TableFuncArg struct {
	Name  IdentifierCI
	Value Expr
}

// StructExpr is a struct literal, {'a': 'BIGINT', 'b': 'VARCHAR'}, which
// the grammar allows only as a table function's argument (DuckDB's
// read_csv takes its column types so).
type StructExpr struct {
	Fields []*StructField
}

// StructField is one key: value pair of a StructExpr.
type StructField struct {
	Key   string
	Value Expr
}

// CopyTo is DuckDB's COPY (query) TO 'file' [(options)] or COPY table TO
// 'file' [(options)]: the query's rows (or the table's) written to a file.
// Exactly one of Query and Table is set.
type CopyTo struct {
	Query   TableStatement
	Table   TableName
	File    string
	Options []*CopyOption
}

// CopyOption is one COPY option: FORMAT parquet, HEADER false,
// DELIMITER ','. Value is nil for a bare flag (HEADER); an identifier
// value (parquet) is a ColName.
type CopyOption struct {
	Name  IdentifierCI
	Value Expr
}

// DescribeTableFunc is DESCRIBE of a table function: the columns
// read_csv(…) would give.
type DescribeTableFunc struct {
	Func *TableFuncExpr
}

// AggFuncExpr is a call of an aggregate that has no grammar rule of its
// own (median, string_agg, mode, …) where a plain FuncExpr cannot hold
// it: over a window, with DISTINCT, or with an ORDER BY after its
// arguments (DuckDB's string_agg(x, ',' ORDER BY y)). The binder decides
// whether Name is an aggregate.
type AggFuncExpr struct {
	Name       IdentifierCI
	Distinct   bool
	Exprs      []Expr
	OrderBy    OrderBy
	Filter     Expr // FILTER (WHERE Filter), nil for none
	OverClause *OverClause
}

func (*TableFuncExpr) iSimpleTableExpr() {}
func (*StructExpr) IsExpr()              {}
func (*AggFuncExpr) IsExpr()             {}
func (*CopyTo) iStatement()              {}
func (*DescribeTableFunc) iStatement()   {}

// tableFuncArg is a table function's argument written as an expression:
// name = value is a named argument, as in DuckDB (a positional argument
// is never a comparison of a bare column, which no table function could
// evaluate).
func tableFuncArg(e Expr) *TableFuncArg {
	if c, ok := e.(*ComparisonExpr); ok && c.Operator == EqualOp && c.Modifier == Missing {
		if n, ok := c.Left.(*ColName); ok && n.Qualifier.IsEmpty() {
			return &TableFuncArg{Name: n.Name, Value: c.Right}
		}
	}
	return &TableFuncArg{Value: e}
}

// FrameExclude is a window frame's EXCLUDE clause. The zero value, NO
// OTHERS, excludes nothing and prints nothing.
type FrameExclude int8

const (
	ExcludeNoOthers FrameExclude = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// ToString is the clause as SQL, empty for NO OTHERS.
func (e FrameExclude) ToString() string {
	switch e {
	case ExcludeCurrentRow:
		return "exclude current row"
	case ExcludeGroup:
		return "exclude group"
	case ExcludeTies:
		return "exclude ties"
	}
	return ""
}

// frameExcludeWord checks that a name in a frame's EXCLUDE clause is the
// word the clause needs there (the error's caret is at the name).
func frameExcludeWord(yylex yyLexer, got IdentifierCI, want string) bool {
	if got.Lowered() != want {
		yylex.Error("a window frame ends with EXCLUDE CURRENT ROW, EXCLUDE GROUP, EXCLUDE TIES or EXCLUDE NO OTHERS")
		return false
	}
	return true
}

// lagLeadNamed is lag(…)/lead(…) of DuckDB's named arguments (col :=
// x, offset := n, default := d, in any order; col required), nil after a
// syntax error naming what is wrong.
func lagLeadNamed(yylex yyLexer, args []*TableFuncArg) *LagLeadExpr {
	l := &LagLeadExpr{}
	for _, a := range args {
		var slot *Expr
		switch a.Name.Lowered() {
		case "col":
			slot = &l.Expr
		case "offset":
			slot = &l.N
		case "default":
			slot = &l.Default
		default:
			yylex.Error(fmt.Sprintf("lag and lead take the named arguments col, offset and default, not %s", a.Name.String()))
			return nil
		}
		if *slot != nil {
			yylex.Error(fmt.Sprintf("the named argument %s is given twice", a.Name.String()))
			return nil
		}
		*slot = a.Value
	}
	if l.Expr == nil {
		yylex.Error("lag and lead need the named argument col (the value)")
		return nil
	}
	if l.Default != nil && l.N == nil {
		// lead(x, 1, d) is the tree, as lead(x) has N nil.
		l.N = NewIntLiteral("1")
	}
	return l
}

// pluralUnit is the unit DuckDB's plural unit name stands for (INTERVAL 3
// DAYS is INTERVAL 3 DAY), false after a syntax error naming the units.
func pluralUnit(yylex yyLexer, name string) (IntervalType, bool) {
	switch strings.ToLower(name) {
	case "microseconds":
		return IntervalMicrosecond, true
	case "seconds":
		return IntervalSecond, true
	case "minutes":
		return IntervalMinute, true
	case "hours":
		return IntervalHour, true
	case "days":
		return IntervalDay, true
	case "weeks":
		return IntervalWeek, true
	case "months":
		return IntervalMonth, true
	case "quarters":
		return IntervalQuarter, true
	case "years":
		return IntervalYear, true
	}
	yylex.Error(fmt.Sprintf("%s is no interval unit (MICROSECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, or their plurals)", name))
	return IntervalNone, false
}

// parenJoinAlias is DuckDB's (a JOIN b) AS p (cols): the derived table
// (SELECT * FROM a JOIN b) AS p (cols), which MySQL's grammar has no
// shorter form for.
func parenJoinAlias(from TableExprs, as IdentifierCS, cols Columns) *AliasedTableExpr {
	sel := NewSelect(nil, &SelectExprs{Exprs: []SelectExpr{&StarExpr{}}}, nil, nil, from, nil, nil, nil, nil)
	return &AliasedTableExpr{Expr: &DerivedTable{Select: sel}, As: as, Columns: cols}
}

// IntervalDateExprStandalone is an INTERVAL n unit value on its own
// (select interval 3 day), not added to or subtracted from a date:
// Interval is n, Date is nil.
const IntervalDateExprStandalone = IntervalDateExprTimestampadd + 1

// intervalArith is l op r for + and -: where r (or, for +, l) is a
// standalone INTERVAL n unit, the IntervalDateExpr upstream's
// `x + INTERVAL n unit` rules built (those rules made reduce/reduce
// conflicts with the standalone value); otherwise, INTERVAL 'text'
// (DuckDB's, no unit) included, a BinaryExpr.
func intervalArith(op BinaryExprOperator, l, r Expr) Expr {
	if iv, ok := r.(*IntervalDateExpr); ok && iv.Syntax == IntervalDateExprStandalone && iv.Unit != IntervalNone {
		syntax := IntervalDateExprBinaryAdd
		if op == MinusOp {
			syntax = IntervalDateExprBinarySub
		}
		return &IntervalDateExpr{Syntax: syntax, Date: l, Interval: iv.Interval, Unit: iv.Unit}
	}
	if iv, ok := l.(*IntervalDateExpr); ok && iv.Syntax == IntervalDateExprStandalone && iv.Unit != IntervalNone && op == PlusOp {
		return &IntervalDateExpr{Syntax: IntervalDateExprBinaryAddLeft, Date: r, Interval: iv.Interval, Unit: iv.Unit}
	}
	return &BinaryExpr{Left: l, Operator: op, Right: r}
}

// castNames are the type names x::type takes (DuckDB's, PostgreSQL's)
// that CAST's grammar spells otherwise, so a cast prints as SQL that
// parses back.
var castNames = map[string]string{
	"int": "signed", "integer": "signed", "bigint": "signed", "smallint": "signed", "tinyint": "signed",
	"int2": "signed", "int4": "signed", "int8": "signed", "long": "signed",
	"varchar": "char", "text": "char", "string": "char", "bpchar": "char",
	"numeric": "decimal", "dec": "decimal",
	"float8": "double", "float4": "double",
}

// doubleColonCast is x::type (the tokenizer's ::type LIST_ARG) with the
// type's length and scale, if written: CAST(x AS type), whose binder
// names a type it does not know.
func doubleColonCast(yylex yyLexer, x Expr, listArg string, args []string) Expr {
	name := strings.ToLower(strings.TrimPrefix(listArg, "::"))
	if n, ok := castNames[name]; ok {
		name = n
	}
	ct := &ConvertType{Type: name}
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			yylex.Error(fmt.Sprintf("bad type argument %s", a))
			return x
		}
		if i == 0 {
			ct.Length = &n
		} else {
			ct.Scale = &n
		}
	}
	return &CastExpr{Expr: x, Type: ct}
}

// extractPart is EXTRACT(part FROM x) for a part that is no MySQL
// interval unit (epoch, dow, …): date_part('part', x).
func extractPart(part string, x Expr) Expr {
	return &FuncExpr{Name: NewIdentifierCI("date_part"), Exprs: []Expr{NewStrLiteral(strings.ToLower(part)), x}}
}

// intervalUnitTokens are the tokens of the interval rule (a unit after
// INTERVAL n).
var intervalUnitTokens = map[int]bool{
	DAY_HOUR: true, DAY_MICROSECOND: true, DAY_MINUTE: true, DAY_SECOND: true, HOUR_MICROSECOND: true,
	HOUR_MINUTE: true, HOUR_SECOND: true, MINUTE_MICROSECOND: true, MINUTE_SECOND: true,
	SECOND_MICROSECOND: true, YEAR_MONTH: true, DAY: true, WEEK: true, HOUR: true, MINUTE: true,
	MONTH: true, QUARTER: true, SECOND: true, MICROSECOND: true, YEAR: true,
}

// intervalString scans, after the keyword INTERVAL, DuckDB's INTERVAL
// 'text' with the units inside the string: a string literal holding a
// letter that no unit keyword follows. The grammar cannot tell it from
// MySQL's INTERVAL expr unit (any rule for it conflicts with a string
// starting expr), so the tokenizer hands it over as one INTERVAL_STRING
// token. Anything else (INTERVAL '90' DAY, INTERVAL '1 day' DAY,
// INTERVAL x HOUR) leaves the position where it was.
func (tkn *Tokenizer) intervalString() (string, bool) {
	start := tkn.Pos
	tkn.skipBlank()
	if tkn.cur() != '\'' {
		tkn.Pos = start
		return "", false
	}
	tkn.skip(1)
	typ, s := tkn.scanString('\'', STRING)
	if typ != STRING || !strings.ContainsFunc(s, func(r rune) bool { return r < 128 && isLetter(uint16(r)) && r != '_' }) {
		tkn.Pos = start
		return "", false
	}
	end := tkn.Pos
	tkn.skipBlank()
	if isLetter(tkn.cur()) {
		if next, _ := tkn.scanIdentifier(false); intervalUnitTokens[next] {
			tkn.Pos = start
			return "", false
		}
	}
	tkn.Pos = end
	return s, true
}

// frameOffsetBare reports whether a frame offset reads back without
// parentheses (frame_offset in sql.y: a literal or a column).
func frameOffsetBare(e Expr) bool {
	switch x := e.(type) {
	case *Literal, BoolVal:
		return true
	case *ColName:
		return x.Qualifier.Qualifier.IsEmpty()
	}
	return false
}

// tryCast is TRY_CAST(x AS type), the rule name(x AS type) with the name
// checked: try_cast(CAST(x AS type)), which the binder reads as a cast
// that gives NULL where the value does not convert. As a call of a cast
// it prints as SQL that parses back to the same tree.
func tryCast(yylex yyLexer, name IdentifierCI, x Expr, ct *ConvertType) (Expr, bool) {
	if name.Lowered() != "try_cast" {
		yylex.Error(fmt.Sprintf("%s(x AS type) is no function; CAST and TRY_CAST take AS", name.String()))
		return nil, false
	}
	return &FuncExpr{Name: NewIdentifierCI("try_cast"), Exprs: []Expr{&CastExpr{Expr: x, Type: ct}}}, true
}

// GroupingSetsName is the name of the call GROUP BY GROUPING SETS (s, …)
// becomes: each argument one grouping set, a tuple for several
// expressions (ValTuple{} for the grand total).
const GroupingSetsName = "grouping_sets"

// groupingSets is GROUPING SETS (…) with the word SETS checked (matched
// as sql_id, so no new keyword).
func groupingSets(yylex yyLexer, sets IdentifierCI, list []Expr) (Expr, bool) {
	if sets.Lowered() != "sets" {
		yylex.Error("GROUP BY GROUPING is followed by SETS")
		return nil, false
	}
	return &FuncExpr{Name: NewIdentifierCI(GroupingSetsName), Exprs: list}, true
}

// withinGroup is f(args) WITHIN GROUP (ORDER BY x): the tree of f(args
// ORDER BY x). Without arguments (mode() WITHIN GROUP (ORDER BY x), the
// one such aggregate) that tree would print as f(ORDER BY x), which does
// not parse: the ordered value becomes the argument, f(x).
func withinGroup(yylex yyLexer, name IdentifierCI, args []Expr, order OrderBy) (*AggFuncExpr, bool) {
	if len(args) > 0 {
		return &AggFuncExpr{Name: name, Exprs: args, OrderBy: order}, true
	}
	if len(order) != 1 {
		yylex.Error(fmt.Sprintf("%s() WITHIN GROUP takes one ORDER BY expression", name.String()))
		return nil, false
	}
	return &AggFuncExpr{Name: name, Exprs: []Expr{order[0].Expr}, OrderBy: order}, true
}
