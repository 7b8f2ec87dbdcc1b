package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// TestHashAggregateSpread forces the spread (partitioned) phase 1 on many
// groups with NULL keys, every kind of key path (one int, int pair,
// general bytes, packed strings) and several aggregate kinds, on many
// threads, and compares it with the per-worker path and, where the
// reference knows the aggregates, with refAggregate.
func TestHashAggregateSpread(t *testing.T) {
	aggs := []aggRef{
		{fn: "count_star", arg: -1, typ: expr.Int64},
		{fn: "count", arg: 2, typ: expr.Int64},
		{fn: "sum", arg: 2, typ: expr.Int64},
		{fn: "sum", arg: 3, typ: expr.Decimal(18, 2)},
		{fn: "avg", arg: 3, typ: expr.Decimal(18, 6)},
		{fn: "sum", arg: 4, typ: expr.Float64},
		{fn: "min", arg: 5, typ: expr.String},
		{fn: "max", arg: 3, typ: expr.Decimal(12, 2)},
		{fn: "min", arg: 6, typ: expr.Date},
	}
	wide := append(slices.Clip(aggs), aggRef{fn: "sum", arg: 3, typ: expr.Decimal(38, 2)})
	cases := []struct {
		name       string
		rows, keys int
		groupBy    []int
		batch      int
	}{
		{"int key", 40_000, 15_000, []int{0}, 500},
		{"int pair", 30_000, 4_000, []int{0, 2}, 700},
		{"int and string", 30_000, 5_000, []int{0, 1}, 600},
		{"strings", 20_000, 10, []int{1, 5}, 400},
		{"date", 20_000, 10, []int{6}, 300},
	}
	for _, tc := range cases {
		for _, run := range []struct {
			threads, mergeGroup, spreadAt int
		}{{8, mergeGroups, 0}, {3, 1024, 100}, {16, mergeGroups, 2000}} {
			t.Run(fmt.Sprintf("%s/t%d/m%d/s%d", tc.name, run.threads, run.mergeGroup, run.spreadAt), func(t *testing.T) {
				defer func(m, s int, f bool) { mergeGroups, spreadGroups, spreadForced = m, s, f }(mergeGroups, spreadGroups, spreadForced)
				mergeGroups = run.mergeGroup
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rng := rand.New(rand.NewPCG(uint64(tc.rows), uint64(run.threads)))
				rows := aggRandRows(rng, tc.rows, tc.keys)
				src := &testSource{schema: aggSchema(), batches: aggBatches(mem, rows, tc.batch, aggTypes, aggNames)}
				defer releaseBatchList(src.batches)
				aggregate := func(forced bool, set []aggRef) []string {
					t.Helper()
					spreadForced = forced
					spreadGroups = math.MaxInt
					if forced {
						spreadGroups = run.spreadAt
					}
					got, err := runRows(t, mem, run.threads, 1000, aggNode(src, tc.groupBy, set))
					if err != nil {
						t.Fatal(err)
					}
					slices.Sort(got)
					return got
				}
				compare := func(what string, got, want []string) {
					t.Helper()
					if len(got) != len(want) {
						t.Fatalf("%s: got %d groups, want %d", what, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s: row %d:\n got  %s\n want %s", what, i, got[i], want[i])
						}
					}
				}
				compare("spread vs reference", aggregate(true, aggs), refAggregate(rows, tc.groupBy, aggs))
				compare("spread vs per-worker", aggregate(true, wide), aggregate(false, wide))
			})
		}
	}
}

// TestSpreadsOut: input clustered by the key (each batch's groups new,
// found again only by the rows that follow) does not spread, nor does a
// table whose rows mostly find old groups; many groups in random order
// do, even in a worker's first batch.
func TestSpreadsOut(t *testing.T) {
	const n = 1000
	clustered := make([]int32, n) // groups 5000.. four rows each
	random := make([]int32, n)    // 900 new groups, 100 rows in old ones
	settled := make([]int32, n)   // 100 new groups, 900 rows in old ones
	first := make([]int32, n)     // a first batch: 600 new groups, then repeats
	firstRun := make([]int32, n)  // a first batch clustered: two rows a group
	for i := range n {
		clustered[i] = 5000 + int32(i/4)
		random[i] = 5000 + int32(i)
		settled[i] = int32(i)
		if i%10 == 0 {
			random[i] = int32(i)
			settled[i] = 5000 + int32(i)
		}
		first[i] = int32(i)
		if i >= 600 {
			first[i] = int32(i-600) / 2
		}
		firstRun[i] = int32(i / 2)
	}
	for _, tc := range []struct {
		name          string
		gids          []int32
		before, after int
		want          bool
	}{
		{"clustered", clustered, 5000, 5000 + n/4, false},
		{"random", random, 5000, 5900, true},
		{"settled", settled, 5000, 5100, false},
		{"first batch", first, 0, 600, true},
		{"first batch clustered", firstRun, 0, n / 2, false},
	} {
		if got := spreadsOut(tc.gids, int32(tc.before), n, tc.after); got != tc.want {
			t.Errorf("%s: spreadsOut = %v, want %v", tc.name, got, tc.want)
		}
	}
}
