package exec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// aggTypes: k1 int64, k2 string, vi int64, vd decimal(12,2), vf float64,
// vs string, vdt date.
var aggTypes = []arrow.DataType{expr.Int64, expr.String, expr.Int64, expr.Decimal(12, 2), expr.Float64, expr.String, expr.Date}
var aggNames = []string{"k1", "k2", "vi", "vd", "vf", "vs", "vdt"}

func aggRandRows(rng *rand.Rand, n, keys int) [][]any {
	strs := []string{"", "a", "ab", "b", "zz", "a\x00"}
	rows := make([][]any, n)
	maybe := func(v any) any {
		if rng.IntN(6) == 0 {
			return nil
		}
		return v
	}
	for i := range rows {
		rows[i] = []any{
			maybe(int64(rng.IntN(keys))),
			maybe(strs[rng.IntN(len(strs))]),
			maybe(int64(rng.IntN(200) - 100)),
			maybe(int64(rng.IntN(100000) - 50000)),
			maybe(float64(rng.IntN(64)-32) / 4), // exact sums in any order
			maybe(strs[rng.IntN(len(strs))] + strconv.Itoa(rng.IntN(10))),
			maybe(int32(9000 + rng.IntN(400))),
		}
	}
	return rows
}

// aggBatches splits rows into batches of size rows.
func aggBatches(mem memory.Allocator, rows [][]any, size int, types []arrow.DataType, names []string) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for start := 0; start < len(rows) || start == 0; start += size {
		end := min(start+size, len(rows))
		cols := make([][]any, len(types))
		for _, r := range rows[start:end] {
			for i := range cols {
				cols[i] = append(cols[i], r[i])
			}
		}
		out = append(out, mkBatch(mem, names, types, cols...))
		if end == len(rows) {
			break
		}
	}
	return out
}

func fmtVal(v any, t arrow.DataType) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		if d, ok := t.(*arrow.Decimal64Type); ok {
			return expr.FormatDecimal(x, d.Scale)
		}
		return strconv.FormatInt(x, 10)
	case int32:
		return arrow.Date32(x).FormattedString()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// aggRoundDiv is a/b rounded half away from zero.
func aggRoundDiv(a, b int64) int64 {
	q, r := a/b, a%b
	if 2*abs64(r) >= b {
		if a < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

func abs64(v int64) int64 { return max(v, -v) }

type aggRef struct {
	fn       string
	distinct bool
	arg      int // column, -1 for count_star
	typ      arrow.DataType
}

func cmpVals(a, b any) int {
	switch x := a.(type) {
	case int64:
		return int(x - b.(int64))
	case int32:
		return int(x - b.(int32))
	case float64:
		y := b.(float64)
		if x < y {
			return -1
		} else if x > y {
			return 1
		}
		return 0
	case string:
		return strings.Compare(x, b.(string))
	}
	panic("cmpVals")
}

// refAggregate is the naive oracle: groups by rendered key, computes each
// aggregate from the group's list of values.
func refAggregate(rows [][]any, keys []int, aggs []aggRef) []string {
	groups := map[string][][]any{}
	var order []string
	for _, r := range rows {
		var kp []string
		for _, k := range keys {
			kp = append(kp, fmtVal(r[k], aggTypes[k]))
		}
		ks := strings.Join(kp, "|")
		if _, ok := groups[ks]; !ok {
			order = append(order, ks)
		}
		groups[ks] = append(groups[ks], r)
	}
	if len(keys) == 0 && len(rows) == 0 {
		order = []string{""}
	}
	var out []string
	for _, ks := range order {
		g := groups[ks]
		vals := []string{}
		if len(keys) > 0 {
			vals = append(vals, ks)
		}
		for _, a := range aggs {
			var xs []any
			seen := map[any]bool{}
			for _, r := range g {
				if a.arg < 0 {
					xs = append(xs, true)
					continue
				}
				v := r[a.arg]
				if v == nil || (a.distinct && seen[v]) {
					continue
				}
				seen[v] = true
				xs = append(xs, v)
			}
			var res any
			switch a.fn {
			case "count", "count_star":
				res = int64(len(xs))
			case "sum", "avg":
				if len(xs) == 0 {
					break
				}
				if _, ok := xs[0].(float64); ok {
					s := 0.0
					for _, x := range xs {
						s += x.(float64)
					}
					if a.fn == "avg" {
						s /= float64(len(xs))
					}
					res = s
					break
				}
				s := int64(0)
				for _, x := range xs {
					s += x.(int64)
				}
				if a.fn == "avg" {
					mul := pow10i(expr.ScaleOf(a.typ) - expr.ScaleOf(aggTypes[a.arg]))
					s = aggRoundDiv(s*mul, int64(len(xs)))
				}
				res = s
			case "min", "max":
				for _, x := range xs {
					if res == nil || (a.fn == "min" && cmpVals(x, res) < 0) || (a.fn == "max" && cmpVals(x, res) > 0) {
						res = x
					}
				}
			}
			vals = append(vals, fmtVal(res, a.typ))
		}
		out = append(out, strings.Join(vals, "|"))
	}
	slices.Sort(out)
	return out
}

var testAggs = []aggRef{
	{fn: "count_star", arg: -1, typ: expr.Int64},
	{fn: "count", arg: 2, typ: expr.Int64},
	{fn: "sum", arg: 2, typ: expr.Int64},
	{fn: "sum", arg: 3, typ: expr.Decimal(18, 2)},
	{fn: "avg", arg: 3, typ: expr.Decimal(18, 6)},
	{fn: "avg", arg: 2, typ: expr.Decimal(18, 4)},
	{fn: "sum", arg: 4, typ: expr.Float64},
	{fn: "avg", arg: 4, typ: expr.Float64},
	{fn: "min", arg: 5, typ: expr.String},
	{fn: "max", arg: 5, typ: expr.String},
	{fn: "min", arg: 6, typ: expr.Date},
	{fn: "max", arg: 3, typ: expr.Decimal(12, 2)},
	{fn: "min", arg: 4, typ: expr.Float64},
	{fn: "count", distinct: true, arg: 2, typ: expr.Int64},
	{fn: "sum", distinct: true, arg: 3, typ: expr.Decimal(18, 2)},
	{fn: "count", distinct: true, arg: 5, typ: expr.Int64},
}

func aggNode(src Node, keys []int, aggs []aggRef) *HashAggregate {
	h := &HashAggregate{Input: src}
	var fields []arrow.Field
	for _, k := range keys {
		h.GroupBy = append(h.GroupBy, col(k, aggTypes[k]))
		fields = append(fields, arrow.Field{Name: aggNames[k], Type: aggTypes[k], Nullable: true})
	}
	for i, a := range aggs {
		f := AggFunc{Fn: a.fn, Distinct: a.distinct, Type: a.typ}
		if a.arg >= 0 {
			f.Arg = col(a.arg, aggTypes[a.arg])
		}
		h.Aggs = append(h.Aggs, f)
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("a%d", i), Type: a.typ, Nullable: true})
	}
	h.Out = arrow.NewSchema(fields, nil)
	return h
}

func TestHashAggregateRandom(t *testing.T) {
	cases := []struct {
		name       string
		rows, keys int
		groupBy    []int
		batch      int
		noNulls    bool // in the aggregates' arguments (columns 2-4)
	}{
		{"int key", 3000, 50, []int{0}, 256, false},
		{"string key", 3000, 50, []int{1}, 256, false},
		{"composite", 3000, 20, []int{0, 1}, 100, false},
		{"date key", 2000, 10, []int{6}, 333, false},
		{"no group by", 2000, 10, nil, 256, false},
		{"empty no group by", 0, 10, nil, 256, false},
		{"empty grouped", 0, 10, []int{0}, 256, false},
		{"many groups", 150_000, 120_000, []int{0}, 8192, false},
		{"many composite", 60_000, 30_000, []int{0, 1}, 8192, false},
		{"int pair", 3000, 20, []int{0, 2}, 100, false},
		{"int date pair", 3000, 20, []int{6, 0}, 256, false},
		{"many int pairs", 60_000, 30_000, []int{0, 2}, 8192, false},
		{"two strings", 3000, 20, []int{1, 5}, 100, false},
		{"few groups, arguments without NULLs", 3000, 7, []int{0}, 256, true},
		{"few string groups, arguments without NULLs", 3000, 4, []int{1}, 300, true},
	}
	for _, tc := range cases {
		// t4/parts: the merge split into many more partitions than
		// goroutines (mergeParts), as a table of millions of groups is.
		for _, run := range []struct {
			threads    int
			mergeGroup int
		}{{1, mergeGroups}, {4, mergeGroups}, {4, 1024}} {
			threads := run.threads
			name := fmt.Sprintf("%s/t%d", tc.name, threads)
			if run.mergeGroup != mergeGroups {
				name += "/parts"
			}
			t.Run(name, func(t *testing.T) {
				defer func(was int) { mergeGroups = was }(mergeGroups)
				mergeGroups = run.mergeGroup
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rng := rand.New(rand.NewPCG(uint64(tc.rows), uint64(threads)))
				rows := aggRandRows(rng, tc.rows, tc.keys)
				if tc.noNulls {
					for _, r := range rows {
						for c, v := range []any{int64(1), int64(2), 0.25} {
							if r[2+c] == nil {
								r[2+c] = v
							}
						}
					}
				}
				aggs := testAggs
				if tc.rows > 10000 {
					aggs = testAggs[:4]
					aggs = append(aggs[:4:4], testAggs[13])
				}
				src := &testSource{schema: aggSchema(), batches: aggBatches(mem, rows, tc.batch, aggTypes, aggNames)}
				defer releaseBatchList(src.batches)
				got, err := runRows(t, mem, threads, 1000, aggNode(src, tc.groupBy, aggs))
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				want := refAggregate(rows, tc.groupBy, aggs)
				if len(got) != len(want) {
					t.Fatalf("got %d groups, want %d", len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("row %d:\n got  %s\n want %s", i, got[i], want[i])
					}
				}
			})
		}
	}
}

func aggSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(aggTypes))
	for i, t := range aggTypes {
		fields[i] = arrow.Field{Name: aggNames[i], Type: t, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

func TestHashAggregateOverflow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	big := int64(1) << 62
	rows := [][]any{{int64(2), "b", int64(1), int64(1), 0.0, "x", int32(1)}, // a second group
		{int64(1), "a", big, big, 0.0, "x", int32(1)}, {int64(1), "a", big, big, 0.0, "x", int32(1)}}
	for _, arg := range []int{2, 3} {
		for _, keys := range [][]int{{0}, nil} {
			for _, batch := range []int{1, 3} { // across batches, within one
				src := &testSource{schema: aggSchema(), batches: aggBatches(mem, rows, batch, aggTypes, aggNames)}
				h := aggNode(src, keys, []aggRef{{fn: "sum", arg: arg, typ: aggTypes[arg]}})
				_, err := runRows(t, mem, 2, 100, h)
				if errs.KindOf(err) != errs.Execution {
					t.Errorf("sum of column %d by %v, batches of %d: err %v, want an execution error", arg, keys, batch, err)
				}
				releaseBatchList(src.batches)
			}
		}
	}
}

func TestHashAggregateBadAgg(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	src := &testSource{schema: aggSchema(), batches: aggBatches(mem, nil, 1, aggTypes, aggNames)}
	defer releaseBatchList(src.batches)
	h := aggNode(src, []int{0}, []aggRef{{fn: "no_such_aggregate", arg: 2, typ: expr.Int64}})
	if _, err := runRows(t, mem, 2, 100, h); errs.KindOf(err) != errs.Unsupported {
		t.Errorf("err %v, want unsupported", err)
	}
}

// Keys and arguments that are expressions go through the evaluator.
func TestHashAggregateExprs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b := mkBatch(mem, []string{"a", "b"}, []arrow.DataType{expr.Int64, expr.Int64},
		[]any{1, 2, 3, 4, 5, nil}, []any{10, 20, 30, 40, nil, 60})
	defer b.Release()
	lit := func(v int64) expr.Expr { return &expr.Literal{Value: v, Type: expr.Int64} }
	key := &expr.Call{Fn: "mod", Args: []expr.Expr{col(0, expr.Int64), lit(2)}, Type: expr.Int64}
	arg := &expr.Call{Fn: "add", Args: []expr.Expr{col(1, expr.Int64), lit(1)}, Type: expr.Int64}
	h := &HashAggregate{
		Input:   &testSource{schema: b.Schema(), batches: []arrow.RecordBatch{b}},
		GroupBy: []expr.Expr{key},
		Aggs: []AggFunc{{Fn: "sum", Arg: arg, Type: expr.Int64}, {Fn: "avg", Arg: col(1, expr.Int64), Type: expr.Decimal(18, 4)},
			{Fn: "max", Arg: col(0, expr.Int64), Type: expr.Int64}},
		Out: arrow.NewSchema([]arrow.Field{{Name: "k", Type: expr.Int64, Nullable: true}, {Name: "s", Type: expr.Int64, Nullable: true},
			{Name: "a", Type: expr.Decimal(18, 4), Nullable: true}, {Name: "m", Type: expr.Int64, Nullable: true}}, nil),
	}
	for _, threads := range []int{1, 3} {
		got, err := runRows(t, mem, threads, 2, h)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, "mod groups", got, []string{"0|62|30.0000|4", "1|42|20.0000|5", "NULL|61|60.0000|NULL"})
	}
}

// TestHashAggregatePackedLayouts changes the shape of a string key from
// batch to batch so that hash_packed.go's path switches layouts: one-letter
// keys (a direct array), then with NULLs and empty strings, then longer
// keys (a packed table), then keys too long to pack (the general path),
// then one-letter keys again.
func TestHashAggregatePackedLayouts(t *testing.T) {
	shapes := [][]any{
		{"A", "N", "R"},
		{"A", "N", nil, ""},
		{"AB", "ABC", "A", nil, "abcdef"},
		{"a rather long key", "A", "N"},
		{"A", "N", "R", "Z"},
		{"AB", "CD", "BA", "DC"},          // fixed width two
		{"ABCDEFG", "ABCDEFH", "BCDEFGH"}, // fixed width seven
	}
	for _, threads := range []int{1, 3} {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		rng := rand.New(rand.NewPCG(7, uint64(threads)))
		rows := aggRandRows(rng, 5000, 10)
		for i, r := range rows {
			shape := shapes[(i/100)%len(shapes)] // batches of 100 rows
			r[1] = shape[rng.IntN(len(shape))]
		}
		src := &testSource{schema: aggSchema(), batches: aggBatches(mem, rows, 100, aggTypes, aggNames)}
		aggs := testAggs[:4]
		got, err := runRows(t, mem, threads, 1000, aggNode(src, []int{1}, aggs))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		eqRows(t, fmt.Sprintf("threads=%d", threads), got, refAggregate(rows, []int{1}, aggs))
		releaseBatchList(src.batches)
		mem.AssertSize(t, 0)
	}
}

func TestSharedAvgs(t *testing.T) {
	d2 := expr.Decimal(18, 2)
	x, y := col(0, d2), col(1, d2)
	aggs := []AggFunc{
		{Fn: "sum", Arg: x, Type: d2},                                   // 0
		{Fn: "avg", Arg: x, Type: expr.Decimal(18, 6)},                  // 1: from 0
		{Fn: "avg", Arg: y, Type: expr.Decimal(18, 6)},                  // 2: no sum(y)
		{Fn: "avg", Arg: x, Type: expr.Decimal(18, 6), Distinct: true},  // 3: distinct
		{Fn: "sum", Arg: y, Type: d2, Distinct: true},                   // 4: distinct sum
		{Fn: "avg", Arg: y, Type: expr.Float64},                         // 5: sum(y) is distinct
		{Fn: "sum", Arg: col(2, expr.Int64), Type: expr.Decimal(18, 2)}, // 6: rescales
		{Fn: "avg", Arg: col(2, expr.Int64), Type: expr.Decimal(18, 6)}, // 7: 6 rescales
		{Fn: "count_star", Type: expr.Int64},                            // 8
	}
	got := sharedAvgs(aggs)
	want := []int{-1, 0, -1, -1, -1, -1, -1, -1, -1}
	if !slices.Equal(got, want) {
		t.Fatalf("sharedAvgs = %v, want %v", got, want)
	}
}

// TestHashAggregateClustered aggregates input sorted by its key, as
// lineitem is by l_orderkey: the workers set their tables aside as they
// fill (flushGroups), and plain sums keep no counts (countless) until the
// NULLs that start halfway through, after which some groups have only
// NULLs.
func TestHashAggregateClustered(t *testing.T) {
	plain := []aggRef{
		{fn: "count_star", arg: -1, typ: expr.Int64},
		{fn: "sum", arg: 2, typ: expr.Int64},
		{fn: "sum", arg: 3, typ: expr.Decimal(18, 2)},
		{fn: "count", arg: 3, typ: expr.Int64},
		{fn: "max", arg: 5, typ: expr.String},
	}
	for _, set := range []struct {
		name string
		aggs []aggRef
	}{{"plain", plain}, {"all", testAggs}} {
		for _, run := range []struct {
			threads    int
			mergeGroup int
		}{{1, mergeGroups}, {4, mergeGroups}, {4, 1024}} {
			t.Run(fmt.Sprintf("%s/t%d/m%d", set.name, run.threads, run.mergeGroup), func(t *testing.T) {
				defer func(m, f int) { mergeGroups, flushGroups = m, f }(mergeGroups, flushGroups)
				mergeGroups, flushGroups = run.mergeGroup, 1000
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rng := rand.New(rand.NewPCG(7, uint64(run.threads)))
				rows := aggRandRows(rng, 30000, 12000)
				slices.SortStableFunc(rows, func(a, b []any) int { // the NULL key last
					switch {
					case a[0] == nil && b[0] == nil:
						return 0
					case a[0] == nil:
						return 1
					case b[0] == nil:
						return -1
					}
					return cmpVals(a[0], b[0])
				})
				for _, r := range rows[:len(rows)/2] {
					for c, v := range []any{int64(1), int64(2), 0.25} {
						if r[2+c] == nil {
							r[2+c] = v
						}
					}
				}
				src := &testSource{schema: aggSchema(), batches: aggBatches(mem, rows, 500, aggTypes, aggNames)}
				defer releaseBatchList(src.batches)
				got, err := runRows(t, mem, run.threads, 1000, aggNode(src, []int{0}, set.aggs))
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				want := refAggregate(rows, []int{0}, set.aggs)
				if len(got) != len(want) {
					t.Fatalf("got %d groups, want %d", len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("row %d:\n got  %s\n want %s", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// TestIntSumCountless merges sums that keep no counts (countless) with
// sums that do, in both orders, and overflows a countless sum.
func TestIntSumCountless(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ints := func(vals ...any) arrow.Array {
		b := mkBatch(mem, []string{"x"}, []arrow.DataType{expr.Int64}, vals)
		defer b.Release()
		a := b.Column(0)
		a.Retain()
		return a
	}
	state := func(typ arrow.DataType, groups int) *intSumState {
		s, err := newAggState(AggFunc{Fn: "sum", Arg: col(0, expr.Int64), Type: typ})
		if err != nil {
			t.Fatal(err)
		}
		is := s.(*intSumState)
		is.countless = true
		is.resize(groups)
		return is
	}
	update := func(s *intSumState, gids []int32, vals ...any) {
		t.Helper()
		a := ints(vals...)
		defer a.Release()
		if err := s.update(gids, a); err != nil {
			t.Fatal(err)
		}
	}
	render := func(s *intSumState, n int) string {
		a, err := s.result(mem, n)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		var out []string
		for i := range n {
			out = append(out, fmt.Sprint(a.GetOneForMarshal(i)))
		}
		return strings.Join(out, " ")
	}
	// full: groups 0..39, each with a value; part: 0..39, group 39 only NULL.
	gids := make([]int32, 40)
	fullVals, partVals := make([]any, 40), make([]any, 40)
	for i := range gids {
		gids[i] = int32(i)
		fullVals[i], partVals[i] = int64(i), int64(100*i)
	}
	partVals[39] = nil
	full, part := state(expr.Int64, 40), state(expr.Int64, 40)
	update(full, gids, fullVals...)
	update(part, gids, partVals...)
	if !full.countless || part.countless {
		t.Fatalf("countless: full %v, part %v", full.countless, part.countless)
	}
	// Merged into groups 0..39 and, from full alone, 40..79.
	shifted := make([]int32, 40)
	for i := range shifted {
		shifted[i] = int32(40 + i)
	}
	var want []string
	for i := range 40 {
		want = append(want, fmt.Sprint(i+100*i))
	}
	want[39] = "39"
	for i := range 40 {
		want = append(want, fmt.Sprint(i))
	}
	for _, order := range []string{"full first", "part first"} {
		m := state(expr.Int64, 80)
		type step struct {
			from     *intSumState
			src, dst []int32
		}
		steps := []step{{full, gids, gids}, {part, gids, gids}, {full, gids, shifted}}
		if order == "part first" {
			steps[0], steps[1] = steps[1], steps[0]
		}
		for _, st := range steps {
			if err := m.merge(st.from, st.src, st.dst); err != nil {
				t.Fatal(err)
			}
		}
		if got := render(m, 80); got != strings.Join(want, " ") {
			t.Errorf("%s:\n got  %s\n want %s", order, got, strings.Join(want, " "))
		}
	}
	// A group that only ever had NULL stays NULL; the others keep their sums.
	s := state(expr.Int64, 2)
	s.resize(40)
	update(s, gids, fullVals...)
	s.resize(41)
	update(s, []int32{40, 0}, nil, int64(5))
	if got := render(s, 41); !strings.HasPrefix(got, "5 1 ") || !strings.HasSuffix(got, " 39 <nil>") {
		t.Errorf("after a NULL: %s", got)
	}
	// Overflow: an error for a BIGINT sum, carried exactly for a DECIMAL(38).
	many := make([]int32, 40)
	huge := make([]any, 40)
	for i := range huge {
		huge[i] = int64(math.MaxInt64 / 4)
	}
	narrow := state(expr.Int64, 40)
	a := ints(huge...)
	defer a.Release()
	if err := narrow.update(many, a); err == nil {
		t.Error("BIGINT sum overflow: no error")
	}
	wide := state(expr.Decimal(38, 0), 40)
	if err := wide.update(many, a); err != nil {
		t.Fatal(err)
	}
	if got, want := wide.at(0).BigInt().String(), new(big.Int).Mul(big.NewInt(math.MaxInt64/4), big.NewInt(40)).String(); got != want {
		t.Errorf("DECIMAL(38) sum: got %s, want %s", got, want)
	}
}
