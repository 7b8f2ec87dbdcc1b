package planner

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/expr"
)

// ColumnID names one column produced somewhere in a plan. IDs are unique
// in the process.
type ColumnID int64

var lastColumnID atomic.Int64

// NewColumnID returns a fresh ColumnID.
func NewColumnID() ColumnID { return ColumnID(lastColumnID.Add(1)) }

// Column is an output column of a plan node.
type Column struct {
	ID       ColumnID
	Name     string // the name a query sees (output header for the root)
	Table    string // qualifier used to resolve "t.name"; "" when none
	Type     arrow.DataType
	Nullable bool
}

// Plan is a logical plan node.
type Plan interface {
	// Columns are the node's output columns, in order.
	Columns() []Column
	// Inputs are the node's children.
	Inputs() []Plan
}

// Scan reads Table. Cols[i] is table column Ordinals[i]. Filter (may be
// nil) is a predicate over Cols pushed into the scan.
type Scan struct {
	Table    catalog.Table
	Alias    string
	Cols     []Column
	Ordinals []int
	Filter   Expr
}

// Values is a constant relation. Rows[i][j] are Consts of Cols[j].Type. A
// SELECT without FROM reads one row of zero columns.
type Values struct {
	Cols []Column
	Rows [][]Expr
}

// Filter keeps the rows where Cond is true.
type Filter struct {
	Input Plan
	Cond  Expr
}

// Project computes Exprs[i] as column Cols[i].
type Project struct {
	Input Plan
	Exprs []Expr
	Cols  []Column
}

// AggCall is one aggregate: Fn is count_star, count, sum, avg, min, max
// or one of bind_aggfn.go's (stddev_pop, median, string_agg, …, whose
// types moreAggType gives). Arg is nil for count_star. Type is the result type: count → Int64; sum
// of Int64 or Decimal(p,s) → Decimal(38,s), exact in 128 bits (DuckDB's
// rule); avg of them → Decimal(38,s+4) (MySQL's scale); Float64 → Float64;
// min/max → the argument type.
type AggCall struct {
	Fn       string
	Distinct bool
	Arg      Expr
	Type     arrow.DataType
	// Param is the constant second argument of a quantile (its fraction,
	// a float64) or of string_agg (its separator, a string); else nil.
	Param any
}

// Aggregate groups Input by GroupBy (GroupCols[i] holds GroupBy[i]) and
// computes Aggs (AggCols[i] holds Aggs[i]). Output: GroupCols then AggCols.
// Without GroupBy it yields exactly one row, even for empty input.
type Aggregate struct {
	Input     Plan
	GroupBy   []Expr
	GroupCols []Column
	Aggs      []AggCall
	AggCols   []Column
}

// JoinType selects a join's semantics: expr.JoinType, shared with the executor.
type JoinType = expr.JoinType

const (
	JoinInner  = expr.JoinInner
	JoinLeft   = expr.JoinLeft
	JoinSemi   = expr.JoinSemi
	JoinAnti   = expr.JoinAnti
	JoinSingle = expr.JoinSingle
)

// Join joins Left and Right on Cond (over both sides' columns; nil: always
// true). Output: left columns then right columns, or only left columns for
// semi and anti. NullAware (anti only) gives NOT IN's semantics: a left row
// whose key is NULL, or any right key NULL, means no output for that row
// unless the right side is empty. BuildLeft (semi, anti and left joins,
// not NullAware; set by the optimiser) asks for the hash table on the
// left side when it is the smaller.
type Join struct {
	Type      JoinType
	Left      Plan
	Right     Plan
	Cond      Expr
	NullAware bool
	BuildLeft bool
}

// SortKey orders by Expr. MySQL puts NULLs first ascending and last
// descending; the binder sets NullsFirst = !Desc.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input.
type Sort struct {
	Input Plan
	Keys  []SortKey
}

// Limit skips Offset rows then passes at most Count (-1: all).
type Limit struct {
	Input  Plan
	Offset int64
	Count  int64
}

// WindowCall is a window function: Fn is row_number, rank, dense_rank,
// percent_rank, cume_dist, ntile, lag, lead, first_value, last_value,
// nth_value, fill (its partition; Args: the value, then its key, also
// its one Order key), or an aggregate (sum, count, count_star,
// count_distinct, avg, min, max) over
// Frame. Args: the value (lag, lead and the value functions: then lag's
// and lead's default, cast to Type) or the aggregate's argument; last, a
// count that is no constant (lag's and lead's offset, nth_value's n, an
// Int64 read at each row: PerRowN). N: lag's and lead's offset,
// nth_value's n, ntile's bucket count. IgnoreNulls (lag,
// lead and the value functions): count and pick only non-NULL values.
type WindowCall struct {
	Fn          string
	Args        []Expr
	Type        arrow.DataType
	N           int64
	Frame       Frame
	IgnoreNulls bool
	Param       any // a quantile's fraction, string_agg's separator (AggCall.Param)
	// Distinct: an aggregate of each frame's distinct values (count's is
	// count_distinct).
	Distinct bool
	// Order is the ORDER BY inside an aggregate's call: the order its
	// frame's values are fed in (string_agg's order, mode's ties).
	Order []SortKey
}

// FrameBound is one end of a frame. For ROWS, Offset is a row count
// (Int64), for GROUPS a count of peer groups (Int64); for RANGE, a constant of the ORDER BY key's kind: a number for
// a number key, an Int64 count of days (or of months when Months) for a
// DATE key.
type FrameBound struct {
	Kind   expr.FrameKind
	Offset *Const
	Months bool
	// PerRow: a ROWS offset that is no constant (DuckDB's ROWS BETWEEN p
	// PRECEDING …, p a column), an Int64 expression read at each row;
	// Offset is then nil.
	PerRow Expr
}

// Frame is a window frame: the rows, relative to the current one, that
// an aggregate or value function reads. Without a frame clause it is
// RANGE UNBOUNDED PRECEDING to CURRENT ROW (peers included): with an
// ORDER BY the running total, without one the whole partition (every row
// is a peer).
type Frame struct {
	Rows bool
	// Groups (Rows false): a GROUPS frame, whose offsets count peer
	// groups; its CURRENT ROW is the row's peer group, as RANGE's.
	Groups     bool
	Start, End FrameBound
	// Exclude: rows around the current one that leave the frame.
	Exclude expr.FrameExclude
}

func (f Frame) String() string {
	unit := "range"
	if f.Rows {
		unit = "rows"
	} else if f.Groups {
		unit = "groups"
	}
	return unit + " " + f.Start.String() + " to " + f.End.String() + f.Exclude.Suffix()
}

// describe is what EXPLAIN adds to a call: its count argument and a frame
// other than the default one.
func (w WindowCall) describe(ordered bool) string {
	s := ""
	switch w.Fn {
	case "ntile", "nth_value", "lag", "lead":
		s = fmt.Sprintf(" n=%d", w.N)
		if k := w.PerRowN(); k != nil {
			s = " n=" + k.String()
		}
	}
	if w.IgnoreNulls {
		s += " ignore nulls"
	}
	if w.Distinct {
		s += " distinct"
	}
	if w.Param != nil {
		s += " param=" + strings.TrimPrefix(AggParamSuffix(w.Param), ", ")
	}
	if len(w.Order) > 0 {
		s += " order by " + keyList(w.Order)
	}
	if FrameAware(w.Fn) || len(w.Order) > 0 {
		def := Frame{Start: FrameBound{Kind: expr.UnboundedPreceding}, End: FrameBound{Kind: expr.CurrentRow}}
		if !ordered {
			def.End.Kind = expr.UnboundedFollowing
		}
		if w.Frame.Rows || w.Frame.Groups || w.Frame.Start.Kind != def.Start.Kind || w.Frame.End.Kind != def.End.Kind || w.Frame.Start.Offset != nil || w.Frame.End.Offset != nil || w.Frame.Start.PerRow != nil || w.Frame.End.PerRow != nil || w.Frame.Exclude != expr.ExcludeNoOthers {
			s += " " + w.Frame.String()
		}
	}
	return s
}

// PerRowN is lag's and lead's offset or nth_value's n where it is read at
// each row (the last of Args), else nil.
func (w WindowCall) PerRowN() Expr {
	switch {
	case (w.Fn == "lag" || w.Fn == "lead") && len(w.Args) == 3, w.Fn == "nth_value" && len(w.Args) == 2:
		return w.Args[len(w.Args)-1]
	}
	return nil
}

// FrameAware reports whether fn reads its frame (aggregates and the value
// functions); the others read the partition whatever the frame says.
func FrameAware(fn string) bool {
	switch fn {
	case "sum", "count", "count_star", "count_distinct", "avg", "min", "max", "first_value", "last_value", "nth_value":
		return true
	}
	return IsMoreAgg(fn)
}

func (b FrameBound) String() string {
	switch b.Kind {
	case expr.UnboundedPreceding:
		return "unbounded preceding"
	case expr.UnboundedFollowing:
		return "unbounded following"
	case expr.CurrentRow:
		return "current row"
	}
	var off string
	if b.PerRow != nil {
		off = b.PerRow.String()
	} else {
		off = b.Offset.String()
	}
	if b.Months {
		off += " months"
	}
	if b.Kind == expr.OffsetPreceding {
		return off + " preceding"
	}
	return off + " following"
}

// Window evaluates Funcs over partitions of Input (all with the same
// PartitionBy and OrderBy); output: input columns then Cols.
type Window struct {
	Input       Plan
	PartitionBy []Expr
	OrderBy     []SortKey
	Funcs       []WindowCall
	Cols        []Column
}

// Union concatenates Children (UNION ALL); Cols[i] holds each input's column i.
// UNION without ALL is an Aggregate over a Union.
type Union struct {
	Children []Plan
	Cols     []Column
	// InOrder: the children's rows come out one child after another
	// (VALUES rows computed at execution: a window without ORDER BY over
	// them reads them as written, as DuckDB does).
	InOrder bool
}

func (s *Scan) Columns() []Column   { return s.Cols }
func (v *Values) Columns() []Column { return v.Cols }
func (f *Filter) Columns() []Column { return f.Input.Columns() }
func (p *Project) Columns() []Column {
	return p.Cols
}
func (a *Aggregate) Columns() []Column {
	return append(append([]Column{}, a.GroupCols...), a.AggCols...)
}
func (j *Join) Columns() []Column {
	if j.Type == JoinSemi || j.Type == JoinAnti {
		return j.Left.Columns()
	}
	right := j.Right.Columns()
	if j.Type == JoinLeft || j.Type == JoinSingle {
		right = nullable(right)
	}
	return append(append([]Column{}, j.Left.Columns()...), right...)
}
func (s *Sort) Columns() []Column  { return s.Input.Columns() }
func (l *Limit) Columns() []Column { return l.Input.Columns() }
func (w *Window) Columns() []Column {
	return append(append([]Column{}, w.Input.Columns()...), w.Cols...)
}
func (u *Union) Columns() []Column { return u.Cols }

func nullable(cols []Column) []Column {
	out := make([]Column, len(cols))
	for i, c := range cols {
		c.Nullable = true
		out[i] = c
	}
	return out
}

func (s *Scan) Inputs() []Plan      { return nil }
func (v *Values) Inputs() []Plan    { return nil }
func (f *Filter) Inputs() []Plan    { return []Plan{f.Input} }
func (p *Project) Inputs() []Plan   { return []Plan{p.Input} }
func (a *Aggregate) Inputs() []Plan { return []Plan{a.Input} }
func (j *Join) Inputs() []Plan      { return []Plan{j.Left, j.Right} }
func (s *Sort) Inputs() []Plan      { return []Plan{s.Input} }
func (l *Limit) Inputs() []Plan     { return []Plan{l.Input} }
func (w *Window) Inputs() []Plan    { return []Plan{w.Input} }
func (u *Union) Inputs() []Plan     { return u.Children }

// Expr is a bound, typed logical expression.
type Expr interface {
	Type() arrow.DataType
	String() string
}

// ColRef refers to a column by ID.
type ColRef struct {
	ID   ColumnID
	Name string
	T    arrow.DataType
}

// Const is a constant; Value follows expr.Literal's rules.
type Const struct {
	Value any
	T     arrow.DataType
}

// Func applies an operator or registered function of expr (expr.Functions).
type Func struct {
	Name string
	Args []Expr
	T    arrow.DataType
}

func (c *ColRef) Type() arrow.DataType { return c.T }
func (c *Const) Type() arrow.DataType  { return c.T }
func (f *Func) Type() arrow.DataType   { return f.T }

func (c *ColRef) String() string { return fmt.Sprintf("%s#%d", c.Name, c.ID) }
func (c *Const) String() string  { return (&expr.Literal{Value: c.Value, Type: c.T}).String() }
func (f *Func) String() string {
	args := make([]string, len(f.Args))
	for i, a := range f.Args {
		args[i] = a.String()
	}
	if f.Name == "cast" {
		return fmt.Sprintf("cast(%s as %s)", args[0], f.T)
	}
	return f.Name + "(" + strings.Join(args, ", ") + ")"
}
