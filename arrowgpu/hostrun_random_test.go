package arrowgpu

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gq/expr"
)

// Random predicates — comparisons of every column type with constants of
// other scales and at the extremes, IN lists, LIKE patterns, IS NULL, under
// AND/OR/NOT — run on the host through the generated kernel and through
// the CPU evaluator must keep the same rows and give the same Booleans.
// This is how GPU scans filter, and it needs no GPU.
func TestFusedRandomPredicatesMatchCPU(t *testing.T) {
	for seed := range uint64(*fusedSeeds) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { randomPredicates(t, seed) })
	}
}

// -fused.seeds runs more random predicate sets (a longer search).
var fusedSeeds = flag.Int("fused.seeds", 2, "random predicate sets TestFusedRandomPredicatesMatchCPU runs")

func randomPredicates(t *testing.T, seed uint64) {
	rec := testBatch(3001, 21+seed)
	defer rec.Release()
	r := rand.New(rand.NewPCG(21, seed))
	var exprs []expr.Expr
	for range 24 {
		exprs = append(exprs, randPred(r, 3))
	}
	checkOnHost(t, exprs, randPred(r, 3), rec)
}

// randPred is a random Boolean expression over testBatch's columns.
func randPred(r *rand.Rand, depth int) expr.Expr {
	if depth > 0 && r.IntN(3) == 0 {
		switch r.IntN(3) {
		case 0:
			return call("not", expr.Boolean, randPred(r, depth-1))
		default:
			fn := []string{"and", "or"}[r.IntN(2)]
			n := 2 + r.IntN(2)
			args := make([]expr.Expr, n)
			for i := range args {
				args[i] = randPred(r, depth-1)
			}
			return call(fn, expr.Boolean, args...)
		}
	}
	cmp := []string{"eq", "ne", "lt", "le", "gt", "ge"}[r.IntN(6)]
	switch r.IntN(7) {
	case 0: // decimals against a constant of another scale, sometimes huge
		col := []*expr.Column{colQty, colPrc, colDis, colTax}[r.IntN(4)]
		s := int32(r.IntN(5))
		v := r.Int64N(200000) - 1000
		if r.IntN(5) == 0 {
			v = math.MaxInt64 - r.Int64N(3)
		}
		return call(cmp, expr.Boolean, col, &expr.Literal{Value: v, Type: expr.Decimal(18, s)})
	case 1:
		return call(cmp, expr.Boolean, colDay, dateLit(int32(8000+r.IntN(2600))))
	case 2:
		if r.IntN(3) == 0 {
			return call([]string{"in", "not_in"}[r.IntN(2)], expr.Boolean, colID, intLit(r.Int64N(1000)), intLit(r.Int64N(1000)), &expr.Literal{Type: expr.Int64})
		}
		return call(cmp, expr.Boolean, colID, intLit(r.Int64N(1200)-150))
	case 3:
		return call(cmp, expr.Boolean, colRat, &expr.Literal{Value: r.NormFloat64(), Type: expr.Float64})
	case 4:
		return call([]string{"is_null", "is_not_null"}[r.IntN(2)], expr.Boolean, []expr.Expr{colID, colRat, colFlg}[r.IntN(3)])
	case 5:
		return colFlg
	}
	name := &expr.Column{Index: 8, Type: expr.String, Name: "name"}
	letters := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(4))
		}
		return string(b)
	}
	if r.IntN(3) == 0 {
		return call([]string{"eq", "ne"}[r.IntN(2)], expr.Boolean, name, &expr.Literal{Value: letters(r.IntN(3)), Type: expr.String})
	}
	var p string
	for range 1 + r.IntN(3) {
		if r.IntN(2) == 0 {
			p += "%"
		}
		p += letters(r.IntN(3))
	}
	if r.IntN(2) == 0 {
		p += "%"
	}
	return call([]string{"like", "not_like"}[r.IntN(2)], expr.Boolean, name, &expr.Literal{Value: p, Type: expr.String})
}
