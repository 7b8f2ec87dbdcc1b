package expr

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestDecimalTypeWidth(t *testing.T) {
	if _, ok := Decimal(18, 2).(*arrow.Decimal64Type); !ok {
		t.Errorf("DECIMAL(18,2) is %s", Decimal(18, 2))
	}
	if d, ok := Decimal(19, 2).(*arrow.Decimal128Type); !ok || d.Precision != 19 {
		t.Errorf("DECIMAL(19,2) is %s", Decimal(19, 2))
	}
	if p, s := DecimalPS(Decimal(60, 40)); p != 38 || s != 38 {
		t.Errorf("DECIMAL(60,40) is (%d,%d)", p, s)
	}
	if TypeName(Decimal(38, 3)) != "DECIMAL(38,3)" || !IsDecimal(Decimal(38, 3)) || !isNumberType(Decimal(38, 3)) {
		t.Errorf("TypeName %s", TypeName(Decimal(38, 3)))
	}
}

// The 128-bit kernels against math/big on random values of every size,
// overflow reported exactly past 38 digits.
func TestWideKernelsAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	fits := func(b *big.Int) bool { return new(big.Int).Abs(b).Cmp(lim) < 0 }
	randBig := func() *big.Int {
		x := new(big.Int)
		for range 1 + r.IntN(38) {
			x.Mul(x, big.NewInt(10))
			x.Add(x, big.NewInt(int64(r.IntN(10))))
		}
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	}
	check := func(what string, a, b *big.Int, got num, ok bool, want *big.Int) {
		t.Helper()
		if ok != fits(want) || ok && got.BigInt().Cmp(want) != 0 {
			t.Fatalf("%s(%s, %s) = %s %v, want %s", what, a, b, got.BigInt(), ok, want)
		}
	}
	for range 20000 {
		a, b := randBig(), randBig()
		x, y := decimal128.FromBigInt(a), decimal128.FromBigInt(b)
		v, ok := addW(x, y)
		check("add", a, b, v, ok, new(big.Int).Add(a, b))
		v, ok = subW(x, y)
		check("sub", a, b, v, ok, new(big.Int).Sub(a, b))
		v, ok = mulW(x, y)
		check("mul", a, b, v, ok, new(big.Int).Mul(a, b))
		if b.Sign() != 0 {
			e := int32(r.IntN(10))
			v, ok = divScaledW(x, e, y)
			num := new(big.Int).Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
			q, m := new(big.Int).QuoRem(new(big.Int).Abs(num), new(big.Int).Abs(b), new(big.Int))
			if m.Lsh(m, 1).Cmp(new(big.Int).Abs(b)) >= 0 {
				q.Add(q, big.NewInt(1))
			}
			if (a.Sign() < 0) != (b.Sign() < 0) {
				q.Neg(q)
			}
			check("div", a, b, v, ok, q)
		}
		k := int32(r.IntN(20))
		v = divRoundW(x, pow10W[k])
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		q, m := new(big.Int).QuoRem(new(big.Int).Abs(a), d, new(big.Int))
		if m.Lsh(m, 1).Cmp(d) >= 0 {
			q.Add(q, big.NewInt(1))
		}
		if a.Sign() < 0 {
			q.Neg(q)
		}
		check("divRound", a, d, v, true, q)
		if got, want := cmpScaledW(x, 0, y, k), a.Cmp(new(big.Int).Quo(b, big.NewInt(1))); k == 0 && got != want {
			t.Fatalf("cmp(%s, %s) = %d", a, b, got)
		}
		if got := FormatDecimal128(x, 0); got != a.String() {
			t.Fatalf("format %s = %s", a, got)
		}
	}
	// Products of two int64s, edges included.
	edges := []int64{0, 1, -1, 2, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 32, -1 << 32}
	for i := range 20000 + len(edges)*len(edges) {
		var a, b int64
		if i < len(edges)*len(edges) {
			a, b = edges[i/len(edges)], edges[i%len(edges)]
		} else {
			a, b = int64(r.Uint64()), int64(r.Uint64())>>r.IntN(64)
		}
		if got, want := mul64W(a, b).BigInt(), new(big.Int).Mul(big.NewInt(a), big.NewInt(b)); got.Cmp(want) != 0 {
			t.Fatalf("mul64W(%d, %d) = %s, want %s", a, b, got, want)
		}
	}
	// Overflow at the edges of int128, not only of 38 digits.
	maxI := decimal128.New(math.MaxInt64, math.MaxUint64)
	if _, ok := addW(maxI, maxI); ok {
		t.Error("add of 2^127-1 twice")
	}
	if _, ok := mulW(decimal128.New(1, 0), decimal128.New(1, 0)); ok {
		t.Error("2^64 · 2^64")
	}
}

func TestFormatParseDecimal128(t *testing.T) {
	for _, c := range []struct {
		text  string
		scale int32
		want  string
	}{
		{"0", 0, "0"},
		{"-0.5", 2, "-0.50"},
		{"12345678901234567890.125", 2, "12345678901234567890.13"},
		{"-12345678901234567890.125", 2, "-12345678901234567890.13"},
		{"99999999999999999999999999999999999999", 0, "99999999999999999999999999999999999999"},
		{"-99999999999999999999999999999999999999", 0, "-99999999999999999999999999999999999999"},
		{"1e20", 0, "100000000000000000000"},
		{"0.000000000000000000000000000000000001", 36, "0.000000000000000000000000000000000001"},
		{"9223372036854775808", 0, "9223372036854775808"},
		{"-9223372036854775809", 0, "-9223372036854775809"},
		{"18446744073709551616", 1, "18446744073709551616.0"},
	} {
		v, ok := ParseDecimal128(c.text, c.scale)
		if !ok {
			t.Errorf("ParseDecimal128(%q) failed", c.text)
			continue
		}
		if got := FormatDecimal128(v, c.scale); got != c.want {
			t.Errorf("%q at scale %d = %s, want %s", c.text, c.scale, got, c.want)
		}
	}
	for _, bad := range []string{"100000000000000000000000000000000000000", "abc", ""} {
		if _, ok := ParseDecimal128(bad, 0); ok {
			t.Errorf("ParseDecimal128(%q) ok", bad)
		}
	}
	if isDecimalText("1/3") || isDecimalText("0x10") || !isDecimalText("-1.5e3") || isDecimalText("1e99999") {
		t.Error("isDecimalText")
	}
}

var (
	w382 = Decimal(38, 2)
	w380 = Decimal(38, 0)
	w384 = Decimal(38, 4)
)

func TestWideEval(t *testing.T) {
	// c0 DECIMAL(38,2) wide values, c1 DECIMAL(15,2), c2 Int64, c3 DECIMAL(38,0)
	cols := func(mem memory.Allocator) []arrow.Array {
		return []arrow.Array{
			mkArr(mem, w382, "1234567890123456789012345", -150, nil, 0),
			mkArr(mem, dec152, 1050, -1050, nil, 1),
			mkArr(mem, Int64, math.MaxInt64, 2, 5, nil),
			mkArr(mem, w380, "99999999999999999999999999999999999999", 7, nil, -1),
		}
	}
	c0, c1, c2, c3 := col(0, w382), col(1, dec152), col(2, Int64), col(3, w380)
	maxw := lit(decimal128.FromBigInt(new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))), w380)
	runEvalCases(t, cols, []evalCase{
		{"add", call("add", w382, c0, c1), "[12345678901234567890133.95 -12.00 NULL 0.01]"},
		{"sub", call("sub", w382, c0, c1), "[12345678901234567890112.95 9.00 NULL -0.01]"},
		{"mul", call("mul", w384, c0, c1), "[129629628462962962846296.2250 15.7500 NULL 0.0000]"},
		{"div", call("div", Decimal(38, 6), c0, c1), "[1175778942974720751440.328571 0.142857 NULL 0.000000]"},
		{"div by zero is NULL", call("div", Decimal(38, 6), c1, call("cast", w382, lit(int64(0), Int64))), "[NULL NULL NULL NULL]"},
		{"mod", call("mod", w382, c0, c1), "[3.45 -1.50 NULL 0.00]"},
		{"neg", call("neg", w382, c0), "[-12345678901234567890123.45 1.50 NULL 0.00]"},
		{"abs", call("abs", w382, call("neg", w382, c0)), "[12345678901234567890123.45 1.50 NULL 0.00]"},
		{"overflow past 38 digits", call("add", w380, c3, lit(decimal128.FromI64(1), w380)), "error: more than 38 digits"},
		{"38 digits is no overflow", call("sub", w380, c3, lit(decimal128.FromI64(0), w380)), "[99999999999999999999999999999999999999 7 NULL -1]"},
		{"max literal", call("add", w380, maxw, call("neg", w380, c3)), "error: more than 38 digits"},
		// Narrow operands of a wide result: int64 until a value overflows.
		{"narrow mul fits", call("mul", Decimal(30, 4), c1, c1), "[110.2500 110.2500 NULL 0.0001]"},
		{"narrow add widens on overflow", call("add", Decimal(20, 0), c2, c2), "[18446744073709551614 4 10 NULL]"},
		{"narrow mul widens on overflow", call("mul", Decimal(38, 2), c2, c1), "[96845406386975145973.50 -21.00 NULL NULL]"},
		{"narrow mul of int64 extremes", call("mul", Decimal(38, 0), c2, call("neg", Int64, c2)), "[-85070591730234615847396907784232501249 -4 -25 NULL]"},
		{"narrow mul by a scalar", call("mul", Decimal(38, 2), c2, lit(int64(-150), dec152)), "[-13835058055282163710.50 -3.00 -7.50 NULL]"},
		{"narrow operand of wide", call("mul", Decimal(31, 4), c1, call("add", Decimal(16, 2), c1, lit(int64(0), Decimal(1, 0)))), "[110.2500 110.2500 NULL 0.0001]"},
		{"nested narrow", call("mul", Decimal(38, 6), call("mul", Decimal(31, 4), c1, c1), c1), "[1157.625000 -1157.625000 NULL 0.000001]"},
		{"cast int to wide", call("cast", Decimal(21, 2), c2), "[9223372036854775807.00 2.00 5.00 NULL]"},
		{"cast int to wide precision", call("cast", Decimal(20, 2), c2), "error: out of range for DECIMAL(20,2)"},
		{"cast wide to narrow", call("cast", dec152, call("cast", w382, c1)), "[10.50 -10.50 NULL 0.01]"},
		{"cast wide to narrow overflow", call("cast", dec152, c0), "error: out of range"},
		{"cast wide to bigint rounds", call("cast", Int64, call("cast", w382, c1)), "[11 -11 NULL 0]"},
		{"cast wide to double", call("cast", Float64, c0), "[1.2345678901234568e+22 -1.5 NULL 0]"},
		{"cast wide to string", call("cast", String, c0), "[12345678901234567890123.45 -1.50 NULL 0.00]"},
		{"cast string to wide", call("cast", w382, lit("-12345678901234567890.125", String)), "[-12345678901234567890.13 -12345678901234567890.13 -12345678901234567890.13 -12345678901234567890.13]"},
		{"cast bad string", call("cast", w382, lit("1/3", String)), "error: cannot cast"},
		{"cast precision", call("cast", Decimal(20, 2), c0), "error: out of range for DECIMAL(20,2)"},
		{"cast rescale down", call("cast", Decimal(38, 0), c0), "[12345678901234567890123 -2 NULL 0]"},
		{"cmp wide narrow", call("lt", Boolean, c1, c0), "[true true NULL false]"},
		{"cmp wide int scales", call("eq", Boolean, call("cast", w382, c2), c2), "[true true true NULL]"},
		{"cmp huge vs scaled", call("gt", Boolean, c3, c0), "[true true NULL false]"},
		{"cmp lit", call("ge", Boolean, c0, lit(decimal128.FromI64(0), w382)), "[true false NULL true]"},
		{"case", call("case", w382, call("gt", Boolean, c1, lit(int64(0), dec152)), c0, lit(nil, w382)), "[12345678901234567890123.45 NULL NULL 0.00]"},
		{"coalesce", call("coalesce", w382, c0, lit(decimal128.FromI64(7), w382)), "[12345678901234567890123.45 -1.50 0.07 0.00]"},
		{"in", call("in", Boolean, c0, lit(decimal128.FromI64(-150), w382), lit(decimal128.FromI64(0), w382)), "[false true NULL true]"},
		{"round", call("round", Decimal(38, 0), c0, lit(int64(0), Int64)), "[12345678901234567890123 -2 NULL 0]"},
		{"floor", call("floor", Decimal(37, 0), c0), "[12345678901234567890123 -2 NULL 0]"},
		{"ceil", call("ceil", Decimal(37, 0), c0), "[12345678901234567890124 -1 NULL 0]"},
		{"sign", call("sign", Int64, c0), "[1 -1 NULL 0]"},
		{"round narrow to wide", call("round", Decimal(20, 4), c1, lit(int64(4), Int64)), "[10.5000 -10.5000 NULL 0.0100]"},
	})
}

// EvalNarrow hands back the int64 values of a wide-typed product (or a
// CASE over one) where they fit, and the declared decimal128 array where
// they do not.
func TestEvalNarrow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c0 := col(0, dec152)
	w314 := Decimal(31, 4)
	sq := call("mul", w314, c0, c0)
	cube := call("mul", Decimal(38, 6), sq, c0)
	pos := call("gt", Boolean, c0, lit(int64(0), dec152))
	caseSq := call("case", w314, pos, sq, lit(decimal128.FromI64(0), w314))
	caseLit := call("case", w314, pos, lit(decimal128.FromI64(7), w314), lit(nil, w314))
	for _, c := range []struct {
		name string
		e    Expr
		in   []any
		want arrow.Type
		vals string
	}{
		{"cube fits", cube, []any{1050, -1050, nil}, arrow.DECIMAL64, "[1157.625000 -1157.625000 NULL]"},
		{"cube wide", cube, []any{999999999999, 200, nil}, arrow.DECIMAL128, "[999999999997000000000002999999.999999 8.000000 NULL]"},
		{"case fits", caseSq, []any{1050, -1050, nil}, arrow.DECIMAL64, "[110.2500 0.0000 0.0000]"},
		{"case with a wide branch", caseSq, []any{999999999999, -200, nil}, arrow.DECIMAL128, "[99999999999800000000.0001 0.0000 0.0000]"},
		{"case of wide literals", caseLit, []any{1, -1, nil}, arrow.DECIMAL64, "[0.0007 NULL NULL]"},
	} {
		in := mkArr(mem, dec152, c.in...)
		ev, err := Compile(c.e)
		if err != nil {
			t.Fatal(err)
		}
		b := mkBatch(mem, in)
		a, err := ev.EvalNarrow(mem, b)
		if err != nil {
			t.Fatal(err)
		}
		if a.DataType().ID() != c.want || ScaleOf(a.DataType()) != ScaleOf(c.e.DataType()) || render(a) != c.vals {
			t.Errorf("%s: EvalNarrow = %s %s, want %s %s", c.name, a.DataType(), render(a), c.want, c.vals)
		}
		a.Release()
		b.Release()
		in.Release()
	}
}
