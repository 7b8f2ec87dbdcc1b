package expr

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// nanEdges are the doubles whose order the comparisons must get right:
// both NaNs (sign bit clear and set), the infinities, both zeros, the
// extremes of the finite range.
var nanEdges = []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	1, -1, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 2.5}

// nanOracle orders two doubles as DuckDB does, spelled out independently
// of CompareFloat: NaN = NaN, NaN above everything else, -0 = 0.
func nanOracle(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestCompareFloat(t *testing.T) {
	for _, a := range nanEdges {
		for _, b := range nanEdges {
			if got, want := CompareFloat(a, b), nanOracle(a, b); got != want {
				t.Errorf("CompareFloat(%v, %v) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestCompareNaNOrder checks every comparison operator over doubles, and
// IN lists, in the order NaN = NaN > +Inf: column with column, column with
// a literal, literal with column, through Eval and through EvalFilter
// with and without a candidate list, NULLs included.
func TestCompareNaNOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var xs, ys []any
	for _, a := range append(nanEdges, math.NaN()) {
		for _, b := range nanEdges {
			xs, ys = append(xs, a), append(ys, b)
		}
		xs, ys = append(xs, a, nil), append(ys, nil, a)
	}
	xa, ya := mkArr(mem, Float64, xs...), mkArr(mem, Float64, ys...)
	b := mkBatch(mem, xa, ya)
	xa.Release()
	ya.Release()
	defer b.Release()
	n := len(xs)
	cand := make([]int32, 0, n)
	for i := 0; i < n; i += 3 {
		cand = append(cand, int32(i))
	}
	x, y := col(0, Float64), col(1, Float64)
	holds := map[string]func(int) bool{
		"eq": func(c int) bool { return c == 0 }, "ne": func(c int) bool { return c != 0 },
		"lt": func(c int) bool { return c < 0 }, "le": func(c int) bool { return c <= 0 },
		"gt": func(c int) bool { return c > 0 }, "ge": func(c int) bool { return c >= 0 },
	}
	// check evaluates e and wants, per row, NULL where want says so, else
	// its truth value; then the same rows from the filters.
	check := func(name string, e Expr, want func(i int) (v, null bool)) {
		t.Helper()
		ev, err := Compile(e)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := ev.Eval(mem, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bs := got.(*array.Boolean)
		var all, some []int32
		for i := range n {
			v, null := want(i)
			switch {
			case null != bs.IsNull(i):
				t.Errorf("%s row %d (%v, %v): NULL %v, want %v", name, i, xs[i], ys[i], bs.IsNull(i), null)
			case !null && bs.Value(i) != v:
				t.Errorf("%s row %d (%v, %v): %v, want %v", name, i, xs[i], ys[i], bs.Value(i), v)
			}
			if v && !null {
				all = append(all, int32(i))
				if i%3 == 0 {
					some = append(some, int32(i))
				}
			}
		}
		got.Release()
		sel, err := ev.EvalFilter(mem, b, make([]int32, 0, n))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(sel) != fmt.Sprint(all) {
			t.Errorf("%s filter: %v, want %v", name, sel, all)
		}
		sel, err = ev.EvalFilterFrom(mem, b, append([]int32(nil), cand...))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(sel) != fmt.Sprint(some) {
			t.Errorf("%s filter from candidates: %v, want %v", name, sel, some)
		}
	}
	val := func(v []any, i int) (float64, bool) {
		if v[i] == nil {
			return 0, false
		}
		return v[i].(float64), true
	}
	for _, op := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		h := holds[op]
		check(op+"(x, y)", call(op, Boolean, x, y), func(i int) (bool, bool) {
			a, ok1 := val(xs, i)
			c, ok2 := val(ys, i)
			return ok1 && ok2 && h(nanOracle(a, c)), !ok1 || !ok2
		})
		for _, l := range nanEdges {
			check(fmt.Sprintf("%s(x, %v)", op, l), call(op, Boolean, x, lit(l, Float64)), func(i int) (bool, bool) {
				a, ok := val(xs, i)
				return ok && h(nanOracle(a, l)), !ok
			})
			check(fmt.Sprintf("%s(%v, x)", op, l), call(op, Boolean, lit(l, Float64), x), func(i int) (bool, bool) {
				a, ok := val(xs, i)
				return ok && h(nanOracle(l, a)), !ok
			})
		}
	}
	// IN: a short list (scanned) and a long one (a hash set), with and
	// without NaN, -0 finding 0.
	long := []float64{0, 2.5, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, list := range [][]float64{{1, math.NaN()}, {0, 1}, append(long, math.NaN()), long} {
		for _, fn := range []string{"in", "not_in"} {
			args := []Expr{x}
			for _, v := range list {
				args = append(args, lit(v, Float64))
			}
			check(fmt.Sprintf("%s(x, %v)", fn, list), call(fn, Boolean, args...), func(i int) (bool, bool) {
				a, ok := val(xs, i)
				found := false
				for _, v := range list {
					found = found || nanOracle(a, v) == 0
				}
				return ok && found == (fn == "in"), !ok
			})
		}
	}
}
