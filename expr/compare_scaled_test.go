package expr

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestScaledCompareExact checks Int64/Decimal comparisons across scales
// against exact big-integer arithmetic, for column–column, column–literal
// and literal–column forms, through eval and through filter with a
// candidate list: values near the int64 limits have no common decimal
// type, and must still compare exactly.
func TestScaledCompareExact(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewSource(1))
	edge := []int64{math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 0, 1, -1, 15, -15, 25, -25, 100, -100, 922337203685477580, -922337203685477580}
	val := func() int64 {
		if rng.Intn(2) == 0 {
			return edge[rng.Intn(len(edge))]
		}
		return rng.Int63n(2001) - 1000
	}
	typ := func(s int32) arrow.DataType {
		if s == 0 && rng.Intn(2) == 0 {
			return Int64
		}
		return Decimal(MaxDecimalPrecision, s)
	}
	// exact compares x·10^-xs with y·10^-ys.
	exact := func(x int64, xs int32, y int64, ys int32) int {
		bx, by := big.NewInt(x), big.NewInt(y)
		if xs < ys {
			bx.Mul(bx, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ys-xs)), nil))
		} else {
			by.Mul(by, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(xs-ys)), nil))
		}
		return bx.Cmp(by)
	}
	const n = 64
	for iter := 0; iter < 300; iter++ {
		ls, rs := int32(rng.Intn(4)), int32(rng.Intn(4))
		if iter%5 == 0 {
			rs = ls + int32(rng.Intn(16))
		}
		lt, rt := typ(ls), typ(rs)
		lv, rv := make([]any, n), make([]any, n)
		for i := range lv {
			lv[i], rv[i] = int(val()), int(val())
		}
		lv[3], rv[5] = nil, nil
		la, ra := mkArr(mem, lt, lv...), mkArr(mem, rt, rv...)
		b := mkBatch(mem, la, ra)
		la.Release()
		ra.Release()
		op := cmpOp(rng.Intn(6))
		lcol, rcol := &colNode{idx: 0, t: lt}, &colNode{idx: 1, t: rt}
		for form := 0; form < 3; form++ {
			for row := 0; row < n; row++ {
				if form == 0 && row > 0 {
					break
				}
				var l, r node = lcol, rcol
				if form == 1 && rv[row] != nil {
					r = &litNode{t: rt, v: scalar{i: int64(rv[row].(int))}}
				}
				if form == 2 && lv[row] != nil {
					l = &litNode{t: lt, v: scalar{i: int64(lv[row].(int))}}
				}
				nd := newScaledCompare(op, l, r, ls, rs)
				c := &ctx{mem: mem, n: n}
				got, err := nd.eval(c, b)
				if err != nil {
					t.Fatal(err)
				}
				cand := []int32{0, 3, 5, 7, 11, 40, 63}
				sel, err := nd.(interface {
					filter(*ctx, arrow.RecordBatch, []int32, []int32) ([]int32, error)
				}).filter(c, b, cand, nil)
				if err != nil {
					t.Fatal(err)
				}
				inSel := map[int32]bool{}
				for _, s := range sel {
					inSel[s] = true
				}
				for i := 0; i < n; i++ {
					x, y := lv[i], rv[i]
					if _, ok := r.(*litNode); ok {
						y = rv[row]
					}
					if _, ok := l.(*litNode); ok {
						x = lv[row]
					}
					if x == nil || y == nil {
						if !got.IsNull(i) {
							t.Fatalf("op %d form %d: row %d with a NULL operand is not NULL", op, form, i)
						}
						continue
					}
					want := cmpResult(op, exact(int64(x.(int)), ls, int64(y.(int)), rs))
					if got.IsNull(i) || got.(interface{ Value(int) bool }).Value(i) != want {
						t.Fatalf("op %d form %d: %v (scale %d) vs %v (scale %d): got %v, want %v", op, form, x, ls, y, rs, got.GetOneForMarshal(i), want)
					}
				}
				for _, ci := range cand {
					x, y := lv[ci], rv[ci]
					if _, ok := r.(*litNode); ok {
						y = rv[row]
					}
					if _, ok := l.(*litNode); ok {
						x = lv[row]
					}
					want := x != nil && y != nil && cmpResult(op, exact(int64(x.(int)), ls, int64(y.(int)), rs))
					if inSel[ci] != want {
						t.Fatalf("filter op %d form %d: row %d: %v vs %v selected %v, want %v", op, form, ci, x, y, inSel[ci], want)
					}
				}
				got.Release()
				if mem.CurrentAlloc() != 2*(512+64) {
					t.Fatalf("leak: op %d form %d ls %d rs %d lt %v rt %v nd %#v", op, form, ls, rs, lt, rt, nd)
				}
			}
		}
		b.Release()
	}
}
