package expr

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

func TestCompileErrors(t *testing.T) {
	B, I, S := Boolean, Int64, String
	for _, tc := range []struct {
		name string
		e    Expr
		kind *errs.Kind
	}{
		{"unknown fn", call("frobnicate", I, col(0, I)), errs.Internal},
		{"arg count", call("add", I, col(0, I)), errs.Internal},
		{"like on int", call("like", B, col(0, I), lit("x", S)), errs.Internal},
		{"and of int", call("and", B, col(0, I), col(1, I)), errs.Internal},
		{"compare str int", call("eq", B, col(0, S), col(1, I)), errs.Internal},
		{"bad literal", lit("x", I), errs.Internal},
		{"cast date to int", call("cast", I, col(0, Date)), errs.Unsupported},
		{"in non literal", call("in", B, col(0, I), col(1, I)), errs.Internal},
		{"case even args", call("case", I, col(0, B), col(1, I)), errs.Internal},
		{"nil type", &Column{Index: 0}, errs.Internal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.e)
			if err == nil || !errors.Is(err, tc.kind) {
				t.Fatalf("got %v, want kind %v", err, tc.kind)
			}
		})
	}
}

// int64Raw builds an Int64 array whose NULL slots hold the given values.
func int64Raw(mem memory.Allocator, vals []int64, valid []bool) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

func TestGarbageUnderNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := int64Raw(mem, []int64{math.MaxInt64, 1, 0}, []bool{false, true, false})
	dz := mkArr(mem, dec152, 100, 200, 300)
	bt := mkBatch(mem, a, dz)
	a.Release()
	dz.Release()
	defer bt.Release()
	for _, tc := range []struct {
		e    Expr
		want string
	}{
		{call("add", Int64, col(0, Int64), lit(int64(1), Int64)), "[NULL 2 NULL]"},
		{call("mul", Int64, col(0, Int64), lit(int64(3), Int64)), "[NULL 3 NULL]"},
		{call("div", Decimal(18, 4), call("cast", Decimal(18, 0), col(0, Int64)), call("cast", Decimal(18, 0), col(0, Int64))), "[NULL 1.0000 NULL]"},
		{call("mod", Int64, lit(int64(7), Int64), col(0, Int64)), "[NULL 0 NULL]"},
		{call("mul", dec152, col(1, dec152), col(1, dec152)), "[1.00 4.00 9.00]"}, // scale 4 rounded to 2
		{call("mul", Decimal(18, 3), col(1, dec152), lit(int64(-15), Decimal(2, 1))), "[-1.500 -3.000 -4.500]"},
	} {
		ev, err := Compile(tc.e)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ev.Eval(mem, bt)
		if err != nil {
			t.Fatalf("%s: %v", tc.e, err)
		}
		if got := render(r); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.e, got, tc.want)
		}
		r.Release()
	}
}

func TestLikeMatcher(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		want bool
	}{
		{"%special%requests%", "xx special yy requests zz", true},
		{"%special%requests%", "requests special", false},
		{"a%a", "a", false},
		{"a%a", "aa", true},
		{"a%a", "aba", true},
		{"_%_", "a", false},
		{"_%_", "ab", true},
		{"%_b", "ab", true},
		{"%_b", "b", false},
		{"a__c", "abbc", true},
		{"a__c", "abc", false},
		{"%%", "", true},
		{"x%y%z", "xyz", true},
		{"x%y%z", "xzy", false},
		{`100\%`, "100%", true},
		{`100\%`, "1000", false},
		{"%ab_", "aabab", false},
		{"%ab_", "aabx", true},
		{"a%%", "abc", true},
		{"%%c", "abc", true},
		{"%%c", "abd", false},
		{"", "", true},
		{"", "a", false},
	} {
		if got := compileLike(tc.p).match([]byte(tc.s)); got != tc.want {
			t.Errorf("%q LIKE %q = %v, want %v", tc.s, tc.p, got, tc.want)
		}
	}
	// containsRows must agree with per-row search, including hits that
	// straddle row boundaries.
	offs := []int32{0, 2, 5, 5, 9}
	data := []byte("grgreegre")
	got := containsRows(offs, data[:9], []byte("gre"), nil)
	if len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("containsRows = %v", got)
	}
}
