package expr

import (
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestArithmetic(t *testing.T) {
	// c0 Int64, c1 Int64, c2 Decimal(15,2), c3 Decimal(15,2), c4 Float64
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, Int64, 1, -7, nil, math.MaxInt64),
			mkArr(mem, Int64, 2, 2, 5, 0),
			mkArr(mem, dec152, 1050, -1050, nil, 1),  // 10.50 -10.50 NULL 0.01
			mkArr(mem, dec152, 300, 0, 100, nil),     // 3.00 0.00 1.00 NULL
			mkArr(mem, Float64, 1.5, 0.0, nil, -2.0), //
		}
	}
	i, d2, f := Int64, dec152, Float64
	c0, c1, c2, c3, c4 := col(0, i), col(1, i), col(2, d2), col(3, d2), col(4, f)
	cases := []evalCase{
		{"add int", call("add", i, c0, c1), "[3 -5 NULL 9223372036854775807]"},
		{"add overflow", call("add", i, c0, lit(int64(1), i)), "error: integer overflow"},
		{"add overflow under null is fine", call("add", i, call("case", i, call("is_null", Boolean, c4), c0, lit(int64(0), i)), lit(int64(1), i)), "[1 1 NULL 1]"},
		{"add int lit", call("sub", i, c0, lit(int64(1), i)), "[0 -8 NULL 9223372036854775806]"},
		{"lit sub int", call("sub", i, lit(int64(10), i), c1), "[8 8 5 10]"},
		{"mul int", call("mul", i, c1, lit(int64(3), i)), "[6 6 15 0]"},
		{"mul overflow", call("mul", i, c0, lit(int64(2), i)), "error: integer overflow"},
		{"mod", call("mod", i, c0, c1), "[1 -1 NULL NULL]"},
		{"neg", call("neg", i, c1), "[-2 -2 -5 0]"},
		{"abs min", call("abs", i, lit(int64(math.MinInt64), i)), "error: integer overflow"},
		{"dec add", call("add", d2, c2, c3), "[13.50 -10.50 NULL NULL]"},
		{"dec mul", call("mul", Decimal(18, 4), c2, c3), "[31.5000 0.0000 NULL NULL]"},
		{"dec 1-x", call("mul", Decimal(18, 4), c2, call("sub", d2, lit(int64(1), Decimal(1, 0)), c3)),
			"[-21.0000 -10.5000 NULL NULL]"},
		{"dec add mixed scale", call("add", dec154, c2, lit(int64(5), dec154)), "[10.5005 -10.4995 NULL 0.0105]"},
		{"dec div", call("div", Decimal(18, 6), c2, c3), "[3.500000 NULL NULL NULL]"},
		{"dec div round", call("div", Decimal(18, 2), lit(int64(200), dec152), lit(int64(300), dec152)), "[0.67 0.67 0.67 0.67]"},
		{"dec div neg round", call("div", Decimal(18, 2), lit(int64(-200), dec152), c3), "[-0.67 NULL -2.00 NULL]"},
		{"int div", call("div", Decimal(18, 4), lit(int64(7), Decimal(18, 0)), lit(int64(2), Decimal(18, 0))), "[3.5000 3.5000 3.5000 3.5000]"},
		{"float", call("mul", f, c4, lit(2.0, f)), "[3 0 NULL -4]"},
		{"float div0", call("div", f, lit(1.0, f), c4), "[0.6666666666666666 NULL NULL -0.5]"},
		{"float from int", call("add", f, c1, c4), "[3.5 2 NULL -2]"},
		{"null lit", call("add", i, c0, lit(nil, i)), "[NULL NULL NULL NULL]"},
		{"round dec", call("round", Decimal(15, 1), c2, lit(int64(1), i)), "[10.5 -10.5 NULL 0.0]"},
		{"round neg half", call("round", Decimal(15, 0), lit(int64(-250), dec152), lit(int64(0), i)), "[-3 -3 -3 -3]"},
		{"round -1", call("round", Decimal(15, 0), lit(int64(1550), dec152), lit(int64(-1), i)), "[20 20 20 20]"},
		{"floor", call("floor", Decimal(15, 0), c2), "[10 -11 NULL 0]"},
		{"ceil", call("ceil", Decimal(15, 0), c2), "[11 -10 NULL 1]"},
		{"sqrt", call("sqrt", f, c4), "[1.224744871391589 0 NULL NULL]"},
		{"round float", call("round", f, lit(2.345, f), lit(int64(2), i)), "[2.35 2.35 2.35 2.35]"},
	}
	runEvalCases(t, cols, cases)
}

func TestDecimalKernels(t *testing.T) {
	for _, tc := range []struct {
		a    int64
		e    int32
		b    int64
		want int64
		ok   bool
	}{
		{1, 2, 3, 33, true},
		{2, 2, 3, 67, true},
		{-2, 2, 3, -67, true},
		{5, 0, 10, 1, true}, // 0.5 rounds away
		{-5, 0, 10, -1, true},
		{math.MaxInt64, 1, 1, 0, false},
		{math.MaxInt64, 20, 3, 0, false},
	} {
		got, ok := divScaled(tc.a, tc.e, tc.b)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("divScaled(%d,%d,%d) = %d,%v want %d,%v", tc.a, tc.e, tc.b, got, ok, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct{ a, b int64 }{{3, 4}, {-3, 4}, {math.MaxInt64, 2}, {math.MinInt64, -1}, {1 << 32, 1 << 31}, {-(1 << 32), 1 << 31}} {
		p, ok := mulOvf(tc.a, tc.b)
		f := new(big.Int).Mul(big.NewInt(tc.a), big.NewInt(tc.b))
		wantOK := f.IsInt64()
		if ok != wantOK || (ok && p != tc.a*tc.b) {
			t.Errorf("mulOvf(%d,%d) = %d,%v", tc.a, tc.b, p, ok)
		}
	}
}
