package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func d(s string) int {
	v, err := parseDate(s)
	if err != nil {
		panic(err)
	}
	return int(v)
}

func TestStringDateFuncs(t *testing.T) {
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, String, "13-555-1234", " hi ", nil, "héllo", ""),
			mkArr(mem, Date, d("2024-01-31"), d("2023-01-31"), nil, d("1998-12-01"), d("1969-12-31")),
			mkArr(mem, Int64, 1, -2, 3, nil, 0),
		}
	}
	S, I, D := String, Int64, Date
	c0, c1, c2 := col(0, S), col(1, D), col(2, I)
	sub := func(a ...Expr) Expr { return call("substring", S, append([]Expr{c0}, a...)...) }
	cases := []evalCase{
		{"substr 1,2", sub(lit(int64(1), I), lit(int64(2), I)), "[13  h NULL hé ]"},
		{"substr neg", sub(lit(int64(-3), I)), "[234 hi  NULL llo ]"},
		{"substr neg too far", sub(lit(int64(-20), I)), "[  NULL  ]"},
		{"substr 0", sub(lit(int64(0), I)), "[  NULL  ]"},
		{"substr past end", sub(lit(int64(50), I), lit(int64(2), I)), "[  NULL  ]"},
		{"substr utf8", sub(lit(int64(2), I), lit(int64(3), I)), "[3-5 hi  NULL éll ]"},
		{"substr col start", sub(c2), "[13-555-1234 i  NULL NULL ]"},
		{"substr neg len", sub(lit(int64(1), I), lit(int64(-1), I)), "[  NULL  ]"},
		{"upper", call("upper", S, c0), "[13-555-1234  HI  NULL HÉLLO ]"},
		{"lower", call("lower", S, lit("AbC", S)), "[abc abc abc abc abc]"},
		{"trim", call("trim", S, c0), "[13-555-1234 hi NULL héllo ]"},
		{"ltrim", call("ltrim", S, c0), "[13-555-1234 hi  NULL héllo ]"},
		{"rtrim", call("rtrim", S, c0), "[13-555-1234  hi NULL héllo ]"},
		{"length", call("length", I, c0), "[11 4 NULL 5 0]"},
		{"concat", call("concat", S, c0, lit("!", S), c0), "[13-555-1234!13-555-1234  hi ! hi  NULL héllo!héllo !]"},
		{"starts_with", call("starts_with", Boolean, c0, lit("13", S)), "[true false NULL false false]"},
		{"year", call("extract_year", I, c1), "[2024 2023 NULL 1998 1969]"},
		{"month", call("extract_month", I, c1), "[1 1 NULL 12 12]"},
		{"day", call("extract_day", I, c1), "[31 31 NULL 1 31]"},
		{"quarter", call("extract_quarter", I, c1), "[1 1 NULL 4 4]"},
		{"add days", call("date_add_days", D, c1, lit(int64(-90), I)), "[2023-11-02 2022-11-02 NULL 1998-09-02 1969-10-02]"},
		{"add months", call("date_add_months", D, c1, lit(int64(1), I)), "[2024-02-29 2023-02-28 NULL 1999-01-01 1970-01-31]"},
		{"add months neg", call("date_add_months", D, c1, lit(int64(-13), I)), "[2022-12-31 2021-12-31 NULL 1997-11-01 1968-11-30]"},
		{"add months col", call("date_add_months", D, c1, c2), "[2024-02-29 2022-11-30 NULL NULL 1969-12-31]"},
		{"diff", call("date_diff_days", I, c1, lit(int32(d("2023-01-31")), D)), "[365 0 NULL -8827 -19389]"},
		{"case", call("case", S, call("gt", Boolean, c2, lit(int64(0), I)), lit("pos", S), call("is_null", Boolean, c2), c0, lit("other", S)),
			"[pos other pos héllo other]"},
		{"case int null else", call("case", I, call("gt", Boolean, c2, lit(int64(0), I)), c2, lit(nil, I)), "[1 NULL 3 NULL NULL]"},
		{"case dec", call("case", dec152, call("eq", Boolean, c2, lit(int64(1), I)), lit(int64(150), dec152), lit(int64(0), dec152)),
			"[1.50 0.00 0.00 0.00 0.00]"},
		{"coalesce", call("coalesce", I, c2, lit(int64(9), I)), "[1 -2 3 9 0]"},
		{"coalesce str", call("coalesce", S, c0, lit("x", S)), "[13-555-1234  hi  x héllo ]"},
		{"coalesce nulls", call("coalesce", I, lit(nil, I), c2), "[1 -2 3 NULL 0]"},
	}
	runEvalCases(t, cols, cases)
}

func TestCast(t *testing.T) {
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, Int64, 1, -2, nil, 123456),
			mkArr(mem, dec152, 1255, -1255, nil, 5),
			mkArr(mem, Float64, 1.5, -2.5, nil, 0.125),
			mkArr(mem, String, "12", " -3.456 ", nil, "1998-09-02"),
			mkArr(mem, Date, 0, d("1998-09-02"), nil, -1),
			mkArr(mem, Boolean, true, false, nil, true),
		}
	}
	I, F, S := Int64, Float64, String
	c0, c1, c2, c3, c4, c5 := col(0, I), col(1, dec152), col(2, F), col(3, S), col(4, Date), col(5, Boolean)
	cast := func(e Expr, t arrow.DataType) Expr { return call("cast", t, e) }
	cases := []evalCase{
		{"int→dec", cast(c0, dec152), "[1.00 -2.00 NULL 123456.00]"},
		{"int→float", cast(c0, F), "[1 -2 NULL 123456]"},
		{"int→str", cast(c0, S), "[1 -2 NULL 123456]"},
		{"dec→int", cast(c1, I), "[13 -13 NULL 0]"},
		{"dec→dec1", cast(c1, Decimal(10, 1)), "[12.6 -12.6 NULL 0.1]"},
		{"dec→dec4", cast(c1, dec154), "[12.5500 -12.5500 NULL 0.0500]"},
		{"dec overflow", cast(lit(int64(1e17), dec152), Decimal(18, 4)), "error: overflow"},
		{"dec→float", cast(c1, F), "[12.55 -12.55 NULL 0.05]"},
		{"dec→str", cast(c1, S), "[12.55 -12.55 NULL 0.05]"},
		{"float→int", cast(c2, I), "[2 -3 NULL 0]"},
		{"float→dec", cast(c2, Decimal(10, 1)), "[1.5 -2.5 NULL 0.1]"},
		{"float→str", cast(c2, S), "[1.5 -2.5 NULL 0.125]"},
		{"str→int bad", cast(c3, I), "error: cannot cast '1998-09-02' to int64"},
		{"str→dec", cast(lit(" -3.456 ", S), dec152), "[-3.46 -3.46 -3.46 -3.46]"},
		{"str→float", cast(lit("2.5e1", S), F), "[25 25 25 25]"},
		{"str→date", cast(lit("1998-09-02", S), Date), "[1998-09-02 1998-09-02 1998-09-02 1998-09-02]"},
		{"str→date bad", cast(c3, Date), "error: cannot cast '12' to DATE"},
		{"date→str", cast(c4, S), "[1970-01-01 1998-09-02 NULL 1969-12-31]"},
		{"bool→int", cast(c5, I), "[1 0 NULL 1]"},
		{"bool→str", cast(c5, S), "[1 0 NULL 1]"},
		{"null→int", cast(lit(nil, Null), I), "[NULL NULL NULL NULL]"},
		{"int→bool", cast(c0, Boolean), "[true true NULL true]"},
	}
	runEvalCases(t, cols, cases)
}
