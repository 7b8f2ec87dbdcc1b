package arrowgpu

import (
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

// wideBatch is n rows of a DECIMAL(38,2) w (values near ±10^17 and
// ±10^35, small ones, ties with v, NULLs), a DECIMAL(15,4) v and a
// DECIMAL(38,6) u of at most 20 digits (products with v stay within 38).
func wideBatch(n int, seed uint64) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(seed, seed^0x9e37))
	mem := memory.NewGoAllocator()
	wt, vt, ut := expr.Decimal(38, 2), expr.Decimal(15, 4), expr.Decimal(38, 6)
	wb := array.NewDecimal128Builder(mem, wt.(*arrow.Decimal128Type))
	vb := array.NewDecimal64Builder(mem, vt.(*arrow.Decimal64Type))
	ub := array.NewDecimal128Builder(mem, ut.(*arrow.Decimal128Type))
	big10 := func(e int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil) }
	for i := 0; i < n; i++ {
		v := r.Int64N(2e14) - 1e14
		vb.Append(decimal.Decimal64(v))
		var w *big.Int
		switch i % 5 {
		case 0: // near ±10^35
			w = new(big.Int).Mul(big10(32), big.NewInt(r.Int64N(2000)-1000))
			w.Add(w, big.NewInt(r.Int64N(1e18)))
		case 1: // near ±10^17
			w = big.NewInt(r.Int64N(2e17) - 1e17)
		case 2: // v's value at scale 2 (equal after rescaling, or a rounding apart)
			w = big.NewInt(v / 100)
		case 3:
			w = big.NewInt(r.Int64N(2000) - 1000)
		default: // past 64 bits
			w = new(big.Int).Mul(big.NewInt(r.Int64N(1e9)-5e8), big10(12))
		}
		if i%7 == 6 {
			wb.AppendNull()
		} else {
			wb.Append(decimal128.FromBigInt(w))
		}
		u := new(big.Int).Mul(big.NewInt(r.Int64N(2e9)-1e9), big10(r.Int64N(12)))
		ub.Append(decimal128.FromBigInt(u))
	}
	cols := []arrow.Array{wb.NewArray(), vb.NewArray(), ub.NewArray()}
	schema := arrow.NewSchema([]arrow.Field{{Name: "w", Type: wt, Nullable: true}, {Name: "v", Type: vt}, {Name: "u", Type: ut}}, nil)
	rec := array.NewRecordBatch(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// DECIMAL(38) values in fused kernels — comparisons at any scale with
// DECIMAL(15,4) columns and 38-digit constants, widening and narrowing
// casts, casts to DOUBLE, + − × into DECIMAL(38) — agree with the CPU
// evaluator, NULLs included, and so do the rows a predicate keeps.
func TestFusedOnHostWide(t *testing.T) {
	rec := wideBatch(3001, 5)
	defer rec.Release()
	w := &expr.Column{Index: 0, Type: expr.Decimal(38, 2), Name: "w"}
	v := &expr.Column{Index: 1, Type: expr.Decimal(15, 4), Name: "v"}
	u := &expr.Column{Index: 2, Type: expr.Decimal(38, 6), Name: "u"}
	big := &expr.Literal{Value: decimal128.FromBigInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(36), nil)), Type: expr.Decimal(38, 1)}
	small := &expr.Literal{Value: decimal128.FromI64(-123), Type: expr.Decimal(38, 3)}
	var exprs []expr.Expr
	for _, fn := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		exprs = append(exprs, call(fn, expr.Boolean, w, v), call(fn, expr.Boolean, v, w),
			call(fn, expr.Boolean, w, u), call(fn, expr.Boolean, w, big), call(fn, expr.Boolean, small, w),
			call(fn, expr.Boolean, w, w))
	}
	exprs = append(exprs,
		call("cast", expr.Float64, w),
		call("cast", expr.Float64, u),
		call("cast", expr.Decimal(38, 6), v),
		call("cast", expr.Decimal(38, 0), u),
		call("cast", expr.Decimal(15, 2), call("cast", expr.Decimal(38, 4), v)),
		call("add", expr.Decimal(38, 4), w, v),
		call("sub", expr.Decimal(38, 6), u, small),
		call("mul", expr.Decimal(38, 10), u, v),
		call("mul", expr.Decimal(38, 4), w, small),
		call("add", expr.Decimal(38, 3), w, small),
		call("div", expr.Decimal(38, 6), w, v),
		call("div", expr.Decimal(38, 10), u, small),
		call("div", expr.Decimal(38, 8), v, u),
		call("div", expr.Decimal(38, 6), w, u),
		call("mod", expr.Decimal(38, 6), u, v),
		call("mod", expr.Decimal(38, 4), w, v),
	)
	pred := call("and", expr.Boolean, call("gt", expr.Boolean, w, v), call("lt", expr.Boolean, u, big))
	if kept := checkOnHost(t, exprs, pred, rec); kept == 0 || kept == int(rec.NumRows()) {
		t.Errorf("predicate kept %d of %d rows: not a test", kept, rec.NumRows())
	}
}

// A DECIMAL(38) result past 38 digits, and a narrowing cast that does not
// fit, are errors at their site, as on the CPU; in a NULL row they are not.
func TestFusedOnHostWideOverflow(t *testing.T) {
	mem := memory.NewGoAllocator()
	wt := expr.Decimal(38, 0)
	nines := decimal128.FromBigInt(new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1)))
	schema := arrow.NewSchema([]arrow.Field{{Name: "w", Type: wt, Nullable: true}}, nil)
	w := &expr.Column{Index: 0, Type: wt, Name: "w"}
	one := &expr.Literal{Value: decimal128.FromI64(1), Type: wt}
	exprs := []expr.Expr{call("add", wt, w, one), call("mul", wt, w, w), call("cast", expr.Decimal(18, 0), w)}
	for _, c := range []struct {
		vals  []decimal128.Num
		valid []bool
		code  uint32 // 0: no error; 1: the site's
	}{
		{[]decimal128.Num{decimal128.FromI64(5), nines}, []bool{true, false}, 0},
		{[]decimal128.Num{nines, decimal128.FromI64(2)}, nil, 1},
	} {
		b := array.NewDecimal128Builder(mem, wt.(*arrow.Decimal128Type))
		b.AppendValues(c.vals, c.valid)
		arr := b.NewArray()
		b.Release()
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
		arr.Release()
		for _, e := range exprs {
			f, err := GenerateFused([]expr.Expr{e}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, code := runOnHost(t, f, rec); code != c.code {
				t.Errorf("%s over %v: code %d, want %d", e, c.vals, code, c.code)
			}
			ev, _ := expr.Compile(e)
			out, err := ev.Eval(mem, rec)
			if (err != nil) != (c.code != 0) {
				t.Errorf("%s over %v: CPU error %v, device code %d", e, c.vals, err, c.code)
			}
			if out != nil {
				out.Release()
			}
		}
		rec.Release()
	}
}
