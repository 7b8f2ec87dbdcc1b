package format

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// bigDecimal is v at scale as text, by math/big (the reference).
func bigDecimal(v *big.Int, scale int32) string {
	neg := v.Sign() < 0
	d := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(d) <= int(scale) {
			d = strings.Repeat("0", int(scale)-len(d)+1) + d
		}
		d = d[:len(d)-int(scale)] + "." + d[len(d)-int(scale):]
	}
	if neg {
		return "-" + d
	}
	return d
}

// DECIMAL(38) values print all their digits with their scale: around
// ±2^63 and ±2^64 (where the 64-bit shortcut ends), 10^19 (where the
// quotient starts), 38 nines, -2^127, at scales 0 to 38.
func TestAppendDecimal128(t *testing.T) {
	one := big.NewInt(1)
	pow := func(b, e int64) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
	var vals []*big.Int
	for _, base := range []*big.Int{big.NewInt(0), pow(2, 63), pow(2, 64), pow(10, 19), pow(10, 37), new(big.Int).Sub(pow(10, 38), one)} {
		for _, d := range []int64{-2, -1, 0, 1, 2} {
			v := new(big.Int).Add(base, big.NewInt(d))
			vals = append(vals, v, new(big.Int).Neg(v))
		}
	}
	vals = append(vals, new(big.Int).Neg(pow(2, 127)), new(big.Int).Sub(pow(2, 127), one))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		// Up to 38 random digits.
		v := new(big.Int)
		for range rng.IntN(38) + 1 {
			v.Mul(v, big.NewInt(10)).Add(v, big.NewInt(rng.Int64N(10)))
		}
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		var n decimal128.Num
		if v.BitLen() > 127 { // -2^127, which FromBigInt refuses
			n = decimal128.New(math.MinInt64, 0)
		} else {
			n = decimal128.FromBigInt(v)
		}
		for _, scale := range []int32{0, 1, 2, 18, 19, 37, 38} {
			got := string(expr.AppendDecimal128([]byte("x"), n, scale))
			if want := "x" + bigDecimal(v, scale); got != want {
				t.Fatalf("expr.AppendDecimal128(%s, %d) = %q, want %q", v, scale, got, want)
			}
		}
	}
}

// A DECIMAL(38,3) column through the writers: exact, unquoted, NULL as
// each writer shows it.
func TestWritersDecimal128(t *testing.T) {
	typ := &arrow.Decimal128Type{Precision: 38, Scale: 3}
	schema := arrow.NewSchema([]arrow.Field{{Name: "w", Type: typ, Nullable: true}}, nil)
	b := array.NewDecimal128Builder(memory.NewGoAllocator(), typ)
	big38, _ := new(big.Int).SetString("-12345678901234567890123456789012345678", 10)
	b.Append(decimal128.FromBigInt(big38))
	b.AppendNull()
	b.Append(decimal128.FromI64(5))
	arr := b.NewArray()
	b.Release()
	batch := array.NewRecordBatch(schema, []arrow.Array{arr}, 3)
	arr.Release()
	defer batch.Release()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, schema, []arrow.RecordBatch{batch}); err != nil {
		t.Fatal(err)
	}
	if want := "w\n-12345678901234567890123456789012345.678\n\n0.005\n"; buf.String() != want {
		t.Errorf("CSV %q, want %q", buf.String(), want)
	}
	buf.Reset()
	if err := WriteJSON(&buf, schema, []arrow.RecordBatch{batch}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"w": -12345678901234567890123456789012345.678`) || !strings.Contains(buf.String(), `"w": 0.005`) {
		t.Errorf("JSON %s", buf.String())
	}
}
