package arrowgpu

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// decFloatValue is a random value of at most p digits (p <= 38), its
// digit count uniform in 1..p, either sign; every eighth an exact tie
// between two doubles at scale s (an odd 54-bit M times 10^s, or times
// 5^s·2^(s-t)), which must round to even.
func decFloatValue(r *rand.Rand, p, s int) *big.Int {
	ten := func(e int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil) }
	limit := ten(p)
	var v *big.Int
	if r.IntN(8) == 0 {
		m := new(big.Int).SetUint64(r.Uint64N(1<<53) | 1<<53 | 1)
		if r.IntN(2) == 0 {
			v = m.Mul(m, ten(s))
		} else {
			v = new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(s)), nil)
			v.Mul(v, m).Lsh(v, uint(r.IntN(s+1)))
		}
	}
	if v == nil || v.Cmp(limit) >= 0 {
		nd := 1 + r.IntN(p)
		v = new(big.Int).SetUint64(r.Uint64())
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(r.Uint64()))
		v.Mod(v, ten(nd))
	}
	if r.IntN(2) == 0 {
		v.Neg(v)
	}
	return v
}

// CASTs of DECIMAL(38,s), DECIMAL(18,s) and BIGINT columns to DOUBLE in a
// fused kernel (gq_i128_to_double) equal the CPU's correctly rounded
// conversion (expr.Decimal128ToFloat64 / DecimalToFloat64) bit for bit,
// over every magnitude, the scales where the method changes (22/23: the
// last exact power of ten; 18/19: the words) and exact ties.
func TestFusedOnHostDecimalToDouble(t *testing.T) {
	const n = 40000
	r := rand.New(rand.NewPCG(30, 53))
	mem := memory.NewGoAllocator()
	var fields []arrow.Field
	var cols []arrow.Array
	var exprs []expr.Expr
	add := func(typ arrow.DataType, a arrow.Array) {
		name := fmt.Sprintf("c%d", len(cols))
		col := &expr.Column{Index: len(cols), Type: typ, Name: name}
		fields = append(fields, arrow.Field{Name: name, Type: typ, Nullable: true})
		cols = append(cols, a)
		exprs = append(exprs, call("cast", expr.Float64, col))
	}
	for _, s := range []int{0, 1, 2, 6, 10, 17, 18, 19, 22, 23, 30, 37, 38} {
		typ := expr.Decimal(38, int32(s))
		b := array.NewDecimal128Builder(mem, typ.(*arrow.Decimal128Type))
		for i := 0; i < n; i++ {
			if i%97 == 0 {
				b.AppendNull()
				continue
			}
			b.Append(decimal128.FromBigInt(decFloatValue(r, 38, s)))
		}
		add(typ, b.NewArray())
		b.Release()
	}
	for _, s := range []int{0, 2, 9, 15, 18} {
		typ := expr.Decimal(18, int32(s))
		b := array.NewDecimal64Builder(mem, typ.(*arrow.Decimal64Type))
		for i := 0; i < n; i++ {
			b.Append(decimal.Decimal64(decFloatValue(r, 18, s).Int64()))
		}
		add(typ, b.NewArray())
		b.Release()
	}
	b := array.NewInt64Builder(mem)
	for i := 0; i < n; i++ {
		b.Append(int64(r.Uint64()) >> r.IntN(64))
	}
	add(arrow.PrimitiveTypes.Int64, b.NewArray())
	b.Release()
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	checkOnHost(t, exprs, nil, rec)
}
