package exec

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// goValues reads an array as Go values: int64 (Int64, unscaled decimals),
// float64, string, nil for NULL.
func goValues(a arrow.Array) []any {
	out := make([]any, a.Len())
	for i := range out {
		if a.IsNull(i) {
			continue
		}
		switch x := a.(type) {
		case *array.Int64:
			out[i] = x.Value(i)
		case *array.Decimal64:
			out[i] = int64(x.Value(i))
		case *array.Float64:
			out[i] = x.Value(i)
		case *array.String:
			out[i] = x.Value(i)
		default:
			panic(a.DataType().String())
		}
	}
	return out
}

// roundDiv is num/den rounded half away from zero, the reference for avg.
func roundDiv(num *big.Int, den int64) int64 {
	r := new(big.Rat).SetFrac(num, big.NewInt(den))
	f, _ := r.Float64()
	q, m := new(big.Int).QuoRem(num, big.NewInt(den), new(big.Int))
	m.Abs(m).Mul(m, big.NewInt(2))
	if m.Cmp(big.NewInt(den)) >= 0 {
		if f < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q.Int64()
}

func TestWindowVsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	types := []arrow.DataType{expr.Int64, expr.Int64, tDec, expr.Int64, expr.String, expr.Float64}
	names := []string{"p", "o", "v", "w", "s", "f"}
	dec18 := func(s int32) arrow.DataType { return expr.Decimal(18, s) }
	funcs := []WindowFunc{
		{Fn: "row_number", Type: expr.Int64},
		{Fn: "rank", Type: expr.Int64},
		{Fn: "dense_rank", Type: expr.Int64},
		{Fn: "count_star", Type: expr.Int64},
		{Fn: "count", Args: []expr.Expr{col(2, tDec)}, Type: expr.Int64},
		{Fn: "sum", Args: []expr.Expr{col(2, tDec)}, Type: dec18(2)},
		{Fn: "avg", Args: []expr.Expr{col(2, tDec)}, Type: dec18(6)},
		{Fn: "sum", Args: []expr.Expr{col(3, expr.Int64)}, Type: expr.Int64},
		{Fn: "avg", Args: []expr.Expr{col(3, expr.Int64)}, Type: dec18(4)},
		{Fn: "min", Args: []expr.Expr{col(4, expr.String)}, Type: expr.String},
		{Fn: "max", Args: []expr.Expr{col(4, expr.String)}, Type: expr.String},
		{Fn: "max", Args: []expr.Expr{col(2, tDec)}, Type: tDec},
		{Fn: "avg", Args: []expr.Expr{col(5, expr.Float64)}, Type: expr.Float64},
	}
	var outFields []arrow.Field
	for i, tp := range types {
		outFields = append(outFields, arrow.Field{Name: names[i], Type: tp, Nullable: true})
	}
	for i, f := range funcs {
		outFields = append(outFields, arrow.Field{Name: fmt.Sprintf("w%d", i), Type: f.Type, Nullable: true})
	}
	outSchema := arrow.NewSchema(outFields, nil)
	strs := []string{"x", "y", "abcdefghij", "abcdefghik", ""}
	for iter := range 24 {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		n := []int{0, 1, 7, 50, 150, 400}[iter%6]
		cols := make([][]any, len(types))
		for range n {
			for ci := range cols {
				var v any
				if rng.IntN(6) > 0 {
					switch ci {
					case 0, 1:
						v = int64(rng.IntN(4))
					case 2:
						v = int64(rng.IntN(2001) - 1000)
					case 3:
						v = int64(rng.IntN(100) - 30)
					case 4:
						v = strs[rng.IntN(len(strs))]
					case 5:
						v = float64(rng.IntN(16)) / 4
					}
				}
				cols[ci] = append(cols[ci], v)
			}
		}
		b := mkBatch(mem, names, types, cols...)
		src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
		var part []expr.Expr
		if iter%3 != 0 {
			part = []expr.Expr{col(0, expr.Int64)}
		}
		var order []SortKey
		desc := iter%4 == 1
		if iter%2 == 0 {
			order = []SortKey{{Expr: col(1, expr.Int64), Desc: desc, NullsFirst: iter%5 == 0}}
		}
		w := &Window{Input: src, PartitionBy: part, OrderBy: order, Funcs: funcs, Out: outSchema}
		for _, threads := range []int{1, 4} {
			c := NewContext(t.Context(), Options{Threads: threads, BatchSize: 64, Alloc: mem})
			var outCols [][]any
			err := Run(c, w, func(ob arrow.RecordBatch) error {
				if outCols == nil {
					outCols = make([][]any, ob.NumCols())
				}
				for i := range outCols {
					outCols[i] = append(outCols[i], goValues(ob.Column(i))...)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(outCols) == 0 {
				if n != 0 {
					t.Fatalf("no output for %d rows", n)
				}
				continue
			}
			checkWindow(t, fmt.Sprintf("iter %d threads %d", iter, threads), outCols, part != nil, order, funcs, n)
		}
		b.Release()
		mem.AssertSize(t, 0)
	}
}

func checkWindow(t *testing.T, what string, cols [][]any, partitioned bool, order []SortKey, funcs []WindowFunc, n int) {
	t.Helper()
	if len(cols[0]) != n {
		t.Fatalf("%s: %d rows out, want %d", what, len(cols[0]), n)
	}
	samePart := func(a, b int) bool { return !partitioned || cols[0][a] == cols[0][b] }
	// orderCmp compares rows a and b on the window's ORDER BY.
	orderCmp := func(a, b int) int {
		if len(order) == 0 {
			return 0
		}
		x, y := cols[1][a], cols[1][b]
		switch {
		case x == nil && y == nil:
			return 0
		case x == nil || y == nil:
			if (x == nil) == order[0].NullsFirst {
				return -1
			}
			return 1
		}
		r := cmpAny(x, y)
		if order[0].Desc {
			r = -r
		}
		return r
	}
	seenPart := map[any]bool{}
	for r := range n {
		if r == 0 || !samePart(r-1, r) {
			if seenPart[cols[0][r]] && partitioned {
				t.Fatalf("%s: partition %v not contiguous", what, cols[0][r])
			}
			seenPart[cols[0][r]] = true
		} else if orderCmp(r-1, r) > 0 {
			t.Fatalf("%s: row %d out of order", what, r)
		}
		var frame []int
		rowNum, rank, dense := int64(0), int64(1), int64(1)
		distinctBefore := map[any]bool{}
		for x := range n {
			if !samePart(x, r) {
				continue
			}
			if x <= r {
				rowNum++
			}
			if c := orderCmp(x, r); c < 0 {
				rank++
				distinctBefore[fmt.Sprint(cols[1][x])] = true
			}
			if orderCmp(x, r) <= 0 {
				frame = append(frame, x)
			}
		}
		dense += int64(len(distinctBefore))
		for fi, f := range funcs {
			got := cols[6+fi][r]
			var want any
			switch f.Fn {
			case "row_number":
				want = rowNum
			case "rank":
				want = rank
			case "dense_rank":
				want = dense
			case "count_star":
				want = int64(len(frame))
			default:
				ci := f.Args[0].(*expr.Column).Index
				want = refAgg(f, ci, cols, frame)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: row %d %s(%v): got %v want %v", what, r, f.Fn, f.Args, got, want)
			}
		}
	}
}

func refAgg(f WindowFunc, ci int, cols [][]any, frame []int) any {
	var vals []any
	for _, x := range frame {
		if cols[ci][x] != nil {
			vals = append(vals, cols[ci][x])
		}
	}
	if f.Fn == "count" {
		return int64(len(vals))
	}
	if len(vals) == 0 {
		return nil
	}
	switch f.Fn {
	case "min", "max":
		best := vals[0]
		for _, v := range vals[1:] {
			if c := cmpAny(v, best); (c < 0) == (f.Fn == "min") && c != 0 {
				best = v
			}
		}
		return best
	}
	if fv, ok := vals[0].(float64); ok {
		sum := fv
		for _, v := range vals[1:] {
			sum += v.(float64)
		}
		if f.Fn == "avg" {
			return sum / float64(len(vals))
		}
		return sum
	}
	sum := big.NewInt(0)
	for _, v := range vals {
		sum.Add(sum, big.NewInt(v.(int64)))
	}
	if f.Fn == "sum" {
		return sum.Int64()
	}
	inScale := int32(0)
	if d, ok := cols2type(f).(*arrow.Decimal64Type); ok {
		inScale = d.Scale
	}
	outScale := f.Type.(*arrow.Decimal64Type).Scale
	sum.Mul(sum, big.NewInt(pow10(outScale-inScale)))
	return roundDiv(sum, int64(len(vals)))
}

func cols2type(f WindowFunc) arrow.DataType { return f.Args[0].DataType() }
