package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestCompareLogic(t *testing.T) {
	// c0 Int64, c1 Decimal(15,2), c2 Date, c3 String, c4 Boolean, c5 Float64
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, Int64, 1, 2, nil, 4, 5),
			mkArr(mem, dec152, 5, 6, 7, nil, 8), // 0.05 .. 0.08
			mkArr(mem, Date, 10000, 10592, 10593, nil, 0),
			mkArr(mem, String, "apple", "banana", nil, "cherry", ""),
			mkArr(mem, Boolean, true, false, nil, true, nil),
			mkArr(mem, Float64, 1.0, 2.5, nil, -1.0, 0.0),
		}
	}
	B, i := Boolean, Int64
	c0, c1, c2, c3, c4, c5 := col(0, i), col(1, dec152), col(2, Date), col(3, String), col(4, B), col(5, Float64)
	cases := []evalCase{
		{"lt lit", call("lt", B, c0, lit(int64(3), i)), "[true true NULL false false]"},
		{"lit lt col", call("lt", B, lit(int64(3), i), c0), "[false false NULL true true]"},
		{"eq", call("eq", B, c0, lit(int64(2), i)), "[false true NULL false false]"},
		{"ne", call("ne", B, c0, lit(int64(2), i)), "[true false NULL true true]"},
		{"ge col col", call("ge", B, c0, call("add", i, c0, lit(int64(0), i))), "[true true NULL true true]"},
		{"dec between", call("and", B, call("ge", B, c1, lit(int64(5), dec152)), call("le", B, c1, lit(int64(7), dec152))),
			"[true true true NULL false]"},
		{"dec vs scale 3", call("lt", B, c1, lit(int64(65), Decimal(4, 3))), "[true true false NULL false]"},
		{"dec vs int", call("gt", B, c1, c0), "[false false NULL NULL false]"},
		{"date le", call("le", B, c2, lit(int32(10592), Date)), "[true true false NULL true]"},
		{"str eq", call("eq", B, c3, lit("banana", String)), "[false true NULL false false]"},
		{"str lt", call("lt", B, c3, lit("b", String)), "[true false NULL false true]"},
		{"str col col", call("eq", B, c3, c3), "[true true NULL true true]"},
		{"float gt", call("gt", B, c5, lit(0.5, Float64)), "[true true NULL false false]"},
		{"float vs int", call("gt", B, c5, c0), "[false true NULL false false]"},
		{"bool eq", call("eq", B, c4, lit(true, B)), "[true false NULL true NULL]"},
		{"and 3vl", call("and", B, c4, call("lt", B, c0, lit(int64(3), i))), "[true false NULL false false]"},
		{"or 3vl", call("or", B, c4, call("lt", B, c0, lit(int64(3), i))), "[true true NULL true NULL]"},
		{"or 3 args", call("or", B, call("eq", B, c0, lit(int64(1), i)), call("eq", B, c0, lit(int64(5), i)), call("eq", B, c3, lit("cherry", String))),
			"[true false NULL true true]"},
		{"and false null", call("and", B, c4, lit(false, B)), "[false false false false false]"},
		{"or true null", call("or", B, c4, lit(true, B)), "[true true true true true]"},
		{"not", call("not", B, c4), "[false true NULL false NULL]"},
		{"not cmp", call("not", B, call("lt", B, c0, lit(int64(3), i))), "[false false NULL true true]"},
		{"is_null", call("is_null", B, c0), "[false false true false false]"},
		{"is_not_null", call("is_not_null", B, c4), "[true true false true false]"},
		{"is_null lit", call("is_null", B, lit(nil, i)), "[true true true true true]"},
		{"cmp null lit", call("eq", B, c0, lit(nil, i)), "[NULL NULL NULL NULL NULL]"},
		{"and of ors", call("and", B, call("or", B, call("eq", B, c0, lit(int64(1), i)), call("eq", B, c0, lit(int64(4), i))),
			call("is_not_null", B, c3)), "[true false false true false]"},
	}
	runEvalCases(t, cols, cases)
}

func TestLikeIn(t *testing.T) {
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, String, "forest green", "PROMO BRUSHED", nil, "a_b%c", "", "Customer x Complaints", "héllo"),
			mkArr(mem, Int64, 1, 2, 3, nil, 5, 6, 7),
		}
	}
	B, S := Boolean, String
	c0, c1 := col(0, S), col(1, Int64)
	like := func(p string) Expr { return call("like", B, c0, lit(p, S)) }
	cases := []evalCase{
		{"contains", like("%green%"), "[true false NULL false false false false]"},
		{"prefix", like("PROMO%"), "[false true NULL false false false false]"},
		{"suffix", like("%ED"), "[false true NULL false false false false]"},
		{"exact", like("forest green"), "[true false NULL false false false false]"},
		{"two words", like("%Customer%Complaints%"), "[false false NULL false false true false]"},
		{"underscore", like("f_rest%"), "[true false NULL false false false false]"},
		{"underscore utf8", like("h_llo"), "[false false NULL false false false true]"},
		{"underscore mid", like("%e_n"), "[true false NULL false false false false]"},
		{"escape", like(`a\_b\%c`), "[false false NULL true false false false]"},
		{"escape no match", like(`a\_bx%`), "[false false NULL false false false false]"},
		{"only percent", like("%"), "[true true NULL true true true true]"},
		{"empty", like(""), "[false false NULL false true false false]"},
		{"a%b anchored", like("f%n"), "[true false NULL false false false false]"},
		{"not like", call("not_like", B, c0, lit("%green%", S)), "[false true NULL true true true true]"},
		{"like null pattern", call("like", B, c0, lit(nil, S)), "[NULL NULL NULL NULL NULL NULL NULL]"},
		{"like column pattern", call("like", B, c0, c0), "[true true NULL true true true true]"},
		{"in ints", call("in", B, c1, lit(int64(2), Int64), lit(int64(5), Int64)), "[false true false NULL true false false]"},
		{"in with null", call("in", B, c1, lit(int64(2), Int64), lit(nil, Int64)), "[NULL true NULL NULL NULL NULL NULL]"},
		{"not in", call("not_in", B, c1, lit(int64(2), Int64), lit(int64(5), Int64)), "[true false true NULL false true true]"},
		{"not in null", call("not_in", B, c1, lit(int64(2), Int64), lit(nil, Int64)), "[NULL false NULL NULL NULL NULL NULL]"},
		{"in strs", call("in", B, c0, lit("", S), lit("héllo", S)), "[false false NULL false true false true]"},
		{"in long", call("in", B, c1, lit(int64(1), Int64), lit(int64(11), Int64), lit(int64(12), Int64), lit(int64(13), Int64), lit(int64(14), Int64),
			lit(int64(15), Int64), lit(int64(16), Int64), lit(int64(17), Int64), lit(int64(7), Int64)), "[true false false NULL false false true]"},
		{"in long strs", call("in", B, c0, lit("a", S), lit("b", S), lit("c", S), lit("d", S), lit("e", S), lit("f", S), lit("g", S),
			lit("h", S), lit("forest green", S)), "[true false NULL false false false false]"},
	}
	runEvalCases(t, cols, cases)
}
