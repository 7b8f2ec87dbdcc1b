package expr

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// gq's value types, all of them Arrow types. Every column the engine moves is
// one of these (scans normalise other Arrow types to them):
//
//	Boolean                       arrow.FixedWidthTypes.Boolean
//	Int64                         arrow.PrimitiveTypes.Int64 (all SQL integers)
//	Float64                       arrow.PrimitiveTypes.Float64 (FLOAT, DOUBLE)
//	Decimal(p,s), p <= 18         *arrow.Decimal64Type: int64 scaled by 10^s
//	Decimal(p,s), 18 < p <= 38    *arrow.Decimal128Type: decimal128.Num scaled by 10^s
//	Date                          arrow.FixedWidthTypes.Date32: days since 1970-01-01
//	String                        arrow.BinaryTypes.String (UTF-8)
//	Null                          arrow.Null, only for an untyped NULL literal
var (
	Boolean = arrow.FixedWidthTypes.Boolean
	Int64   = arrow.PrimitiveTypes.Int64
	Float64 = arrow.PrimitiveTypes.Float64
	Date    = arrow.FixedWidthTypes.Date32
	String  = arrow.BinaryTypes.String
	Null    = arrow.Null
)

// MaxDecimalPrecision is the largest precision of the int64-scaled
// decimals (Decimal64), the fast path; MaxWidePrecision that of all
// decimals (Decimal128).
const (
	MaxDecimalPrecision = 18
	MaxWidePrecision    = 38
)

// Decimal returns the DECIMAL(p,s) type: a Decimal64 up to 18 digits, a
// Decimal128 beyond; p and s are capped at MaxWidePrecision.
func Decimal(p, s int32) arrow.DataType {
	p, s = min(p, MaxWidePrecision), min(s, MaxWidePrecision)
	if p < s {
		p = s
	}
	if p > MaxDecimalPrecision {
		return &arrow.Decimal128Type{Precision: p, Scale: s}
	}
	return &arrow.Decimal64Type{Precision: p, Scale: s}
}

// IsDecimal: a decimal type of either width.
func IsDecimal(t arrow.DataType) bool {
	return t.ID() == arrow.DECIMAL64 || t.ID() == arrow.DECIMAL128
}

// Expr is a resolved scalar expression.
type Expr interface {
	// DataType is the type of the expression's result.
	DataType() arrow.DataType
	String() string
}

// Column is the Index-th column of the input batch.
type Column struct {
	Index int
	Type  arrow.DataType
	Name  string // for EXPLAIN only
}

// Literal is a constant. Value by type:
//
//	nil (NULL, any type) | bool | int64 (Int64) | float64 | string |
//	int32 (Date: days since epoch) | int64 (Decimal64: unscaled value) |
//	decimal128.Num (Decimal128: unscaled value)
type Literal struct {
	Value any
	Type  arrow.DataType
}

// Call applies Fn (an operator listed below, or a registered Function) to
// Args; Type is the result type chosen by the planner.
type Call struct {
	Fn   string
	Args []Expr
	Type arrow.DataType
}

func (c *Column) DataType() arrow.DataType  { return c.Type }
func (l *Literal) DataType() arrow.DataType { return l.Type }
func (c *Call) DataType() arrow.DataType    { return c.Type }

func (c *Column) String() string {
	if c.Name != "" {
		return fmt.Sprintf("%s#%d", c.Name, c.Index)
	}
	return fmt.Sprintf("#%d", c.Index)
}

func (l *Literal) String() string {
	switch v := l.Value.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case int32:
		if l.Type.ID() == arrow.DATE32 {
			return "DATE '" + arrow.Date32(v).FormattedString() + "'"
		}
	case int64:
		if d, ok := l.Type.(*arrow.Decimal64Type); ok {
			return FormatDecimal(v, d.Scale)
		}
		if s, ok := temporalLiteral(l.Type, v); ok {
			return s
		}
	case arrow.MonthDayNanoInterval:
		return "INTERVAL '" + FormatInterval(v) + "'"
	case decimal128.Num:
		return FormatDecimal128(v, ScaleOf(l.Type))
	}
	return fmt.Sprint(l.Value)
}

func (c *Call) String() string {
	w := exprWriter{limit: -1}
	c.writeTo(&w)
	return w.b.String()
}

// Abbreviate is e's String cut to about n bytes, "…" marking the cut: an
// error message names the expression that failed without writing a huge
// one whole (a device kernel names each of its operations that can fail).
func Abbreviate(e Expr, n int) string {
	c, ok := e.(*Call)
	if !ok {
		return e.String()
	}
	w := exprWriter{limit: n}
	c.writeTo(&w)
	if w.full() {
		w.b.WriteString("…")
	}
	return w.b.String()
}

// exprWriter collects an expression's text in one buffer, so that a deep
// expression is written in time linear in its size (each level joining
// its arguments' strings copied the whole text once per level: a sum of
// 1,000 terms took seconds to name), up to limit bytes (< 0: all).
type exprWriter struct {
	b     strings.Builder
	limit int
}

func (w *exprWriter) full() bool { return w.limit >= 0 && w.b.Len() >= w.limit }

func (w *exprWriter) write(s string) {
	if !w.full() {
		w.b.WriteString(s)
	}
}

func (c *Call) writeTo(w *exprWriter) {
	w.write(c.Fn)
	w.write("(")
	for i, a := range c.Args {
		if w.full() {
			return
		}
		if i > 0 {
			w.write(", ")
		}
		if x, ok := a.(*Call); ok {
			x.writeTo(w)
		} else {
			w.write(a.String())
		}
	}
	if c.Fn == "cast" || c.Fn == "key_cast" || c.Fn == "nn_key_cast" {
		w.write(" as " + c.Type.String())
	}
	w.write(")")
}

// WriteKey writes to b a key of e that equal expressions share and
// different ones do not: column positions and types, literals with their
// types, functions with their result types (names for EXPLAIN are left
// out). It reports false for an expression it does not know, which then
// has no key. Plans are compared by it (physical's shared subplans), and
// generated kernels remembered (arrowgpu).
func WriteKey(b *strings.Builder, e Expr) bool {
	switch x := e.(type) {
	case *Column:
		fmt.Fprintf(b, "c%d:%s", x.Index, TypeKey(x.Type))
	case *Literal:
		fmt.Fprintf(b, "l%s:%s", x.String(), TypeKey(x.Type))
	case *Call:
		fmt.Fprintf(b, "%s:%s(", x.Fn, TypeKey(x.Type))
		for _, a := range x.Args {
			if !WriteKey(b, a) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(')')
	default:
		return false
	}
	return true
}

// TypeKey is t's part of an expression's key ("nil" for none).
func TypeKey(t arrow.DataType) string {
	if t == nil {
		return "nil"
	}
	return t.Fingerprint()
}

// FormatDecimal renders an unscaled decimal as plain text ("-12.30").
func FormatDecimal(v int64, scale int32) string {
	var buf [24]byte
	return string(AppendDecimal(buf[:0], v, scale))
}

// AppendDecimal appends FormatDecimal(v, scale) to dst.
func AppendDecimal(dst []byte, v int64, scale int32) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	var digits [20]byte
	return appendScaled(dst, strconv.AppendUint(digits[:0], u, 10), scale)
}

// The operators. The planner guarantees argument types as stated; the
// evaluator implements exactly these. NULL in → NULL out unless stated.
// Functions (upper, round, year, coalesce, …) are not listed here: each is
// an entry of the registry (registry.go) that states its own types.
//
// Arithmetic (Int64, Float64 or Decimal; both args of the same family after
// planner casts, except that two decimals may differ in precision/scale):
//
//	add, sub     Int64 → Int64 (overflow is an Execution error);
//	             Decimal: result scale max(s1,s2), operands rescaled.
//	mul          Decimal: result scale s1+s2 (overflow → Execution error).
//	div          result is Decimal (scale given by Type, MySQL: s1+4) or
//	             Float64; Int64/Int64 arrives as Decimal(·,0) args with a
//	             Decimal result. Rounds half away from zero. x/0 → NULL (MySQL).
//	mod          Int64 or Decimal (same scale); x%0 → NULL.
//	neg          one arg.
//
// Comparison → Boolean: eq, ne, lt, le, gt, ge. Both args of the same type
// family (decimals may differ in scale; the evaluator aligns them); strings
// compare bytewise; booleans false < true.
//
// Logic (Boolean, SQL three-valued): and, or (two or more args), not.
// is_null, is_not_null: one arg of any type → Boolean, never NULL.
//
// like, not_like: (String, pattern String). % and _ wildcards, \ escapes;
// case-sensitive. The pattern is usually a Literal (compile it once).
// in, not_in: (x, v1, v2, ...) all of x's type, v's are Literals. SQL NULL
// semantics: x IN (…) is NULL when x is NULL, or when no v matches and some v is NULL.
//
// case: (cond1, val1, cond2, val2, ..., else): conds Boolean (NULL = false),
// vals and else of the result type; always an odd number of args (the
// planner adds a NULL else).
// cast: one arg, converted to Type. Any of the value types to any other
// where SQL allows: numeric ↔ numeric (decimal rescale rounds half away from
// zero; overflow is an Execution error), string → numeric/date (bad text is
// an Execution error naming the value), anything → string (dates
// YYYY-MM-DD, decimals plain), Null → anything.
// key_cast: an Int64 or Decimal equi-join key widened to a Decimal Type of
// no smaller scale; a value beyond int64 at that scale is NULL (it cannot
// equal any key of the other side) instead of an overflow error.
// nn_key_cast: key_cast for a null-aware (NOT IN) join, whose keys must
// stay values: see keycast.go.
var operators = []string{
	"add", "sub", "mul", "div", "mod", "neg",
	"eq", "ne", "lt", "le", "gt", "ge",
	"and", "or", "not", "is_null", "is_not_null",
	"like", "not_like", "in", "not_in",
	"case", "cast", "key_cast", "nn_key_cast",
}

// Functions lists every name a Call may have: the operators, then each
// registered function's.
var Functions = append([]string(nil), operators...)

func isOperator(name string) bool {
	for _, o := range operators {
		if o == name {
			return true
		}
	}
	return false
}
