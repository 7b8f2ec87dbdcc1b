package exec

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

var (
	tDec  = expr.Decimal(10, 2)
	tDate = expr.Date
)

// randRows makes n rows of (int64, string, decimal, date, float64, seq)
// with NULLs and many duplicates; seq is the row number (to see stability).
func randRows(rng *rand.Rand, n int) [][]any {
	strs := []string{"", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\x00", "zz", "b"}
	rows := make([][]any, n)
	for i := range rows {
		r := make([]any, 6)
		if rng.IntN(8) > 0 {
			r[0] = int64(rng.IntN(20) - 10)
		}
		if rng.IntN(8) > 0 {
			r[1] = strs[rng.IntN(len(strs))]
		}
		if rng.IntN(8) > 0 {
			r[2] = int64(rng.IntN(7) - 3)
		}
		if rng.IntN(8) > 0 {
			r[3] = int32(rng.IntN(5) + 19000)
		}
		if rng.IntN(8) > 0 {
			r[4] = []float64{-1.5, 0, 2.25, 1e300, -1e300}[rng.IntN(5)]
		}
		r[5] = int64(i)
		rows[i] = r
	}
	return rows
}

var randTypes = []arrow.DataType{expr.Int64, expr.String, tDec, tDate, expr.Float64, expr.Int64}
var randNames = []string{"i", "s", "d", "dt", "f", "seq"}

func rowsBatch(mem memory.Allocator, rows [][]any) arrow.RecordBatch {
	cols := make([][]any, len(randTypes))
	for _, r := range rows {
		for i := range cols {
			cols[i] = append(cols[i], r[i])
		}
	}
	return mkBatch(mem, randNames, randTypes, cols...)
}

func randSchema() *arrow.Schema {
	fs := make([]arrow.Field, len(randTypes))
	for i := range fs {
		fs[i] = arrow.Field{Name: randNames[i], Type: randTypes[i], Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

func cmpAny(a, b any) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case int32:
		return cmp.Compare(x, b.(int32))
	case float64:
		return cmp.Compare(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	}
	panic(fmt.Sprintf("%T", a))
}

// refSort is the naive reference: a stable sort on Go values.
func refSort(rows [][]any, keys []SortKey) [][]any {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b []any) int {
		for _, k := range keys {
			ci := k.Expr.(*expr.Column).Index
			x, y := a[ci], b[ci]
			switch {
			case x == nil && y == nil:
				continue
			case x == nil || y == nil:
				if (x == nil) == k.NullsFirst {
					return -1
				}
				return 1
			}
			r := cmpAny(x, y)
			if k.Desc {
				r = -r
			}
			if r != 0 {
				return r
			}
		}
		return 0
	})
	return out
}

func renderRows(mem memory.Allocator, rows [][]any) []string {
	if len(rows) == 0 {
		return nil
	}
	b := rowsBatch(mem, rows)
	defer b.Release()
	return batchRows(b)
}

// splitBatches cuts rows into batches of at most size rows.
func splitBatches(mem memory.Allocator, rows [][]any, size int) []arrow.RecordBatch {
	var bs []arrow.RecordBatch
	for i := 0; i < len(rows); i += size {
		bs = append(bs, rowsBatch(mem, rows[i:min(i+size, len(rows))]))
	}
	return bs
}

func randKeys(rng *rand.Rand) []SortKey {
	nk := 1 + rng.IntN(3)
	keys := make([]SortKey, nk)
	for i := range keys {
		ci := rng.IntN(5)
		keys[i] = SortKey{Expr: col(ci, randTypes[ci]), Desc: rng.IntN(2) == 0, NullsFirst: rng.IntN(2) == 0}
	}
	return keys
}

func TestSortRandomVsReference(t *testing.T) {
	// Exercise the parallel chunk sort and merge on small inputs too.
	defer func(m int) { parallelSortMin = m }(parallelSortMin)
	parallelSortMin = 100
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 60 {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		n := []int{0, 1, 5, 300, 2000}[iter%5]
		rows := randRows(rng, n)
		keys := randKeys(rng)
		bs := splitBatches(mem, rows, 1+rng.IntN(700))
		src := &testSource{schema: randSchema(), batches: bs}
		want := renderRows(mem, refSort(rows, keys))
		for _, threads := range []int{1, 4} {
			got, err := runRows(t, mem, threads, 128, &Sort{Input: src, Keys: keys, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			eqRows(t, fmt.Sprintf("iter %d keys %v", iter, keys), got, want)
			// top-N equals the full sort, sliced.
			limit, offset := int64(rng.IntN(40)), int64(rng.IntN(10))
			got, err = runRows(t, mem, threads, 7, &Sort{Input: src, Keys: keys, Limit: limit, Offset: offset})
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := min(int(offset), len(want)), min(int(offset+limit), len(want))
			eqRows(t, fmt.Sprintf("iter %d top %d offset %d", iter, limit, offset), got, want[lo:hi])
		}
		releaseBatches(bs)
		mem.AssertSize(t, 0)
	}
}

func TestSortCases(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mkBatch(mem, []string{"k", "s", "v"}, []arrow.DataType{expr.Int64, expr.String, tDec},
		[]any{3, nil, 1, 3, nil, 2},
		[]any{"b", "a", nil, "a", "c", "b"},
		[]any{int64(100), int64(-5), int64(7), nil, int64(0), int64(250)})
	defer b.Release()
	src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
	k, s, v := col(0, expr.Int64), col(1, expr.String), col(2, tDec)
	cases := []struct {
		name string
		keys []SortKey
		want []string
	}{
		{"asc nulls last, stable", []SortKey{{Expr: k}},
			[]string{"1|NULL|0.07", "2|b|2.50", "3|b|1.00", "3|a|NULL", "NULL|a|-0.05", "NULL|c|0.00"}},
		{"desc nulls first", []SortKey{{Expr: k, Desc: true, NullsFirst: true}},
			[]string{"NULL|a|-0.05", "NULL|c|0.00", "3|b|1.00", "3|a|NULL", "2|b|2.50", "1|NULL|0.07"}},
		{"multi key", []SortKey{{Expr: k}, {Expr: s}},
			[]string{"1|NULL|0.07", "2|b|2.50", "3|a|NULL", "3|b|1.00", "NULL|a|-0.05", "NULL|c|0.00"}},
		{"decimal desc", []SortKey{{Expr: v, Desc: true}},
			[]string{"2|b|2.50", "3|b|1.00", "1|NULL|0.07", "NULL|c|0.00", "NULL|a|-0.05", "3|a|NULL"}},
		{"string nulls first", []SortKey{{Expr: s, NullsFirst: true}},
			[]string{"1|NULL|0.07", "NULL|a|-0.05", "3|a|NULL", "3|b|1.00", "2|b|2.50", "NULL|c|0.00"}},
	}
	for _, tc := range cases {
		for _, threads := range []int{1, 4} {
			got, err := runRows(t, mem, threads, 4, &Sort{Input: src, Keys: tc.keys, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			eqRows(t, tc.name, got, tc.want)
		}
	}
}

func TestSortStringsAndFloats(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mkBatch(mem, []string{"s", "f"}, []arrow.DataType{expr.String, expr.Float64},
		[]any{"abcdefghZ", "abcdefgh", "abcdefghA", "", "abcdefgh\x00", "abc"},
		[]any{2.5, -0.0, 0.0, -1e308, 1e308, -3.0})
	defer b.Release()
	src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
	got, _ := runRows(t, mem, 1, 100, &Sort{Input: src, Keys: []SortKey{{Expr: col(0, expr.String)}}, Limit: -1})
	var firsts []string
	for _, r := range got {
		firsts = append(firsts, strings.Split(r, "|")[0])
	}
	eqRows(t, "strings", firsts, []string{"", "abc", "abcdefgh", "abcdefgh\x00", "abcdefghA", "abcdefghZ"})
	got, _ = runRows(t, mem, 1, 100, &Sort{Input: src, Keys: []SortKey{{Expr: col(1, expr.Float64)}}, Limit: -1})
	var fs []string
	for _, r := range got {
		fs = append(fs, strings.Split(r, "|")[1])
	}
	// -0 and 0 are equal, so they keep input order.
	eqRows(t, "floats", fs, []string{"-1e+308", "-3", "0", "0", "2.5", "1e+308"})
}

func TestSortDatesAndLargeRadix(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	n := 5000
	dates, ints := make([]any, n), make([]any, n)
	for i := range n {
		dates[i] = int32(rng.IntN(40000) - 20000)
		ints[i] = int64(rng.Uint64())
	}
	b := mkBatch(mem, []string{"d", "i"}, []arrow.DataType{tDate, expr.Int64}, dates, ints)
	defer b.Release()
	src := &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}}
	for ci, desc := range []bool{false, true} {
		_ = ci
		for k := range 2 {
			c := NewContext(t.Context(), Options{Threads: 2, BatchSize: 1000, Alloc: mem})
			var prev any
			err := Run(c, &Sort{Input: src, Keys: []SortKey{{Expr: col(k, b.Schema().Field(k).Type), Desc: desc}}, Limit: -1},
				func(out arrow.RecordBatch) error {
					for r := 0; r < int(out.NumRows()); r++ {
						var v any
						if k == 0 {
							v = int64(out.Column(0).(interface{ Value(int) arrow.Date32 }).Value(r))
						} else {
							v = out.Column(1).(interface{ Value(int) int64 }).Value(r)
						}
						if prev != nil {
							c := cmp.Compare(prev.(int64), v.(int64))
							if (c > 0 && !desc) || (c < 0 && desc) {
								return fmt.Errorf("out of order: %v then %v", prev, v)
							}
						}
						prev = v
					}
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
