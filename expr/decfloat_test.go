package expr

import (
	"flag"
	"math"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

var (
	decFloatN = flag.Int("decfloat.n", 300, "random values per (precision, scale) in TestDecimalToFloat64Random")
	decFloatP = flag.Int("decfloat.p", 0, "TestDecimalToFloat64Random: only this precision (0: 1 to 38)")
)

// exactFloat is v·10^-s rounded to nearest even by math/big: the
// reference every conversion must equal bit for bit.
func exactFloat(v *big.Int, s int32) float64 {
	x := new(big.Float).SetInt(v)
	y := new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
	z := new(big.Float).SetPrec(53).SetMode(big.ToNearestEven).Quo(x, y)
	f, _ := z.Float64()
	return f
}

func checkDecFloat(t *testing.T, v *big.Int, s int32) bool {
	t.Helper()
	want := exactFloat(v, s)
	got := Decimal128ToFloat64(decimal128.FromBigInt(v), s)
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%s·10^-%d: got %v (%#x), want %v (%#x)", v, s, got, math.Float64bits(got), want, math.Float64bits(want))
		return false
	}
	if v.IsInt64() {
		if got := DecimalToFloat64(v.Int64(), s); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("int64 %s·10^-%d: got %v, want %v", v, s, got, want)
			return false
		}
	}
	return true
}

func pow10Big(e int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
}

func TestDecimalToFloat64Edges(t *testing.T) {
	// arrow-go's ToFloat64 gives 9999999999999466 here (issue 30's seed 51).
	if got := Decimal128ToFloat64(decimal128.FromI64(999999999999946467), 2); got != 9999999999999464 {
		t.Errorf("9999999999999464.67: got %v, want 9999999999999464", got)
	}
	if got := DecimalToFloat64(999999999999946467, 2); got != 9999999999999464 {
		t.Errorf("int64 9999999999999464.67: got %v, want 9999999999999464", got)
	}
	max38 := new(big.Int).Sub(pow10Big(38), big.NewInt(1))
	var vals []*big.Int
	for _, x := range []int64{0, 1, 5, 9, 10, 15, 25, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<54 + 2, 1<<54 + 6,
		math.MaxInt64, math.MinInt64 + 1, 999999999999999999, 9007199254740993, 123456789012345678} {
		vals = append(vals, big.NewInt(x), big.NewInt(-x))
	}
	vals = append(vals, max38, new(big.Int).Neg(max38), big.NewInt(math.MinInt64),
		new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1)),
		new(big.Int).Lsh(big.NewInt(1), 126), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1)))
	for e := 0; e <= 38; e++ {
		p := pow10Big(e)
		vals = append(vals, p, new(big.Int).Sub(p, big.NewInt(1)), new(big.Int).Add(p, big.NewInt(1)))
	}
	for _, v := range vals {
		for s := int32(0); s <= 38; s++ {
			checkDecFloat(t, v, s)
		}
	}
	// The most negative 128-bit value has no 38-digit meaning but must
	// not wrap into a wrong sign.
	if got := Decimal128ToFloat64(decimal128.New(math.MinInt64, 0), 0); got != -0x1p127 {
		t.Errorf("-2^127: got %v", got)
	}
	// Exact ties between two doubles round to even: M·2^j·10^s and
	// M·5^s·2^(s-t) (M odd, 54 bits) are exactly halfway at scale s.
	r := rand.New(rand.NewPCG(1, 2))
	ties := 0
	for range 20000 {
		m := new(big.Int).SetUint64(r.Uint64N(1<<53) | 1<<53 | 1)
		s := int32(r.IntN(39))
		var v *big.Int
		if r.IntN(2) == 0 {
			v = new(big.Int).Lsh(m, uint(r.IntN(60)))
			v.Mul(v, pow10Big(int(s)))
		} else {
			tt := r.IntN(int(s) + 1)
			v = new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(s)), nil)
			v.Mul(v, m)
			v.Lsh(v, uint(int(s)-tt))
		}
		if v.Cmp(max38) > 0 {
			continue
		}
		if r.IntN(2) == 0 {
			v.Neg(v)
		}
		ties++
		if !checkDecFloat(t, v, s) {
			break
		}
		// One unit either side is no longer a tie.
		checkDecFloat(t, new(big.Int).Add(v, big.NewInt(1)), s)
		checkDecFloat(t, new(big.Int).Sub(v, big.NewInt(1)), s)
	}
	if ties < 5000 {
		t.Errorf("only %d ties tried", ties)
	}
}

// randDecimal is a random value of at most p digits: its digit count
// uniform in 1..p (so every magnitude is drawn), then uniform, either sign.
func randDecimal(r *mrand.Rand, p int) *big.Int {
	nd := 1 + r.Intn(p)
	lo := pow10Big(nd - 1)
	v := new(big.Int).Rand(r, new(big.Int).Sub(pow10Big(nd), lo))
	v.Add(v, lo)
	if r.Intn(2) == 0 {
		v.Neg(v)
	}
	return v
}

// Every (precision, scale) of DECIMAL(1..38): -decfloat.n random values
// each against math/big's correctly rounded quotient.
func TestDecimalToFloat64Random(t *testing.T) {
	r := mrand.New(mrand.NewSource(3027))
	for p := 1; p <= MaxWidePrecision; p++ {
		if *decFloatP != 0 && p != *decFloatP {
			continue
		}
		for s := 0; s <= p; s++ {
			bad := 0
			for range *decFloatN {
				if !checkDecFloat(t, randDecimal(r, p), int32(s)) {
					bad++
					if bad > 3 {
						t.Fatalf("DECIMAL(%d,%d): giving up", p, s)
					}
				}
			}
		}
	}
}
