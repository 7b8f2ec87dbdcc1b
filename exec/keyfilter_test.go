package exec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// TestKeyFilter checks the join filter's summary of a built table: every
// key kept (no false negatives), NULL keys and out-of-range values dropped,
// few false positives, for the bitmap and the Bloom forms.
func TestKeyFilter(t *testing.T) {
	mem := memory.NewGoAllocator()
	int64s := func(vals []int64, nulls map[int]bool) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for i, v := range vals {
			if nulls[i] {
				b.AppendNull()
			} else {
				b.Append(v)
			}
		}
		return b.NewArray()
	}
	build := func(vals []int64, nulls map[int]bool) *keyFilter {
		codec, err := newKeyCodec([]arrow.DataType{arrow.PrimitiveTypes.Int64})
		if err != nil {
			t.Fatal(err)
		}
		a := int64s(vals, nulls)
		defer a.Release()
		var bk batchKeys
		codec.prepare([]arrow.Array{a}, len(vals), &bk)
		kf, err := newKeyFilter(codec, &bk, 1)
		if err != nil {
			t.Fatal(err)
		}
		// On several goroutines, each setting its own range of words:
		// the same summary.
		kf4, err := newKeyFilter(codec, &bk, 4)
		if err != nil {
			t.Fatal(err)
		}
		if kf4.lo != kf.lo || kf4.hi != kf.hi || !slices.Equal(kf4.bitmap, kf.bitmap) || !slices.Equal(kf4.bloom, kf.bloom) {
			t.Fatalf("%d keys: the filter on 4 goroutines differs from the one on 1", len(vals))
		}
		return kf4
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name   string
		keys   []int64
		bitmap bool
	}{
		{"dense", seq(1000, 1, 3), true},               // span 3000 for 1000 keys
		{"sparse", sparseKeys(rng, 5000, 1e12), false}, // a Bloom filter
		{"extremes", []int64{math.MinInt64, -1, 0, math.MaxInt64}, false},
		{"one", []int64{42}, true},
		{"dense, large", seq(200_000, -5, 2), true},              // several goroutines
		{"sparse, large", sparseKeys(rng, 200_000, 1e15), false}, // several goroutines
	}
	for _, tc := range cases {
		kf := build(tc.keys, nil)
		if (kf.bitmap != nil) != tc.bitmap {
			t.Errorf("%s: bitmap %v, want %v", tc.name, kf.bitmap != nil, tc.bitmap)
		}
		in := map[int64]bool{}
		for _, k := range tc.keys {
			in[k] = true
		}
		// Probe the keys themselves and as many others.
		probe := append([]int64{}, tc.keys...)
		for range len(tc.keys) + 100 {
			probe = append(probe, int64(rng.Uint64()))
		}
		probe = append(probe, math.MinInt64, math.MaxInt64, 0, 41, 43)
		a := int64s(probe, map[int]bool{len(probe) - 1: true}) // the last one NULL
		sel := make([]int32, len(probe))
		for i := range sel {
			sel[i] = int32(i)
		}
		kept := kf.keepInts(a, sel)
		a.Release()
		keptSet := map[int32]bool{}
		for _, r := range kept {
			keptSet[r] = true
		}
		falsePos, absent := 0, 0
		for i, v := range probe {
			switch {
			case i == len(probe)-1:
				if keptSet[int32(i)] {
					t.Errorf("%s: NULL key kept", tc.name)
				}
			case in[v] && !keptSet[int32(i)]:
				t.Errorf("%s: key %d dropped", tc.name, v)
			case !in[v]:
				absent++
				if keptSet[int32(i)] {
					falsePos++
				}
			}
		}
		if tc.bitmap && falsePos > 0 {
			t.Errorf("%s: bitmap kept %d absent keys", tc.name, falsePos)
		}
		if float64(falsePos) > 0.02*float64(absent)+1 {
			t.Errorf("%s: %d of %d absent keys kept", tc.name, falsePos, absent)
		}
	}

	// NULL build keys match nothing; a build of only NULLs keeps nothing.
	kf := build([]int64{5, 0}, map[int]bool{1: true})
	a := int64s([]int64{0, 5, 6}, nil)
	if got := kf.keepInts(a, []int32{0, 1, 2}); len(got) != 1 || got[0] != 1 {
		t.Errorf("with a NULL build key: kept %v, want [1]", got)
	}
	kf = build([]int64{7}, map[int]bool{0: true})
	if got := kf.keepInts(a, []int32{0, 1, 2}); len(got) != 0 {
		t.Errorf("all-NULL build: kept %v", got)
	}
	a.Release()
	// The same with NULLs among many keys, in one goroutine's range only.
	many, nulls := seq(200_000, 0, 1), map[int]bool{}
	for i := 10; i < 20_000; i += 7 {
		nulls[i] = true
	}
	kf = build(many, nulls)
	a = int64s([]int64{10, 11, 12, 199_999, 200_000}, nil)
	if got := kf.keepInts(a, []int32{0, 1, 2, 3, 4}); !slices.Equal(got, []int32{1, 2, 3}) {
		t.Errorf("NULLs among many keys: kept %v, want [1 2 3]", got)
	}
	a.Release()
}

// TestKeyFilterMultiKey checks the Bloom form over serialised keys (two
// columns, one a string) against the rows it was built from.
func TestKeyFilterMultiKey(t *testing.T) {
	mem := memory.NewGoAllocator()
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String}
	codec, err := newKeyCodec(types)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(ints []int64, strs []string) []arrow.Array {
		ib, sb := array.NewInt64Builder(mem), array.NewStringBuilder(mem)
		defer ib.Release()
		defer sb.Release()
		ib.AppendValues(ints, nil)
		sb.AppendValues(strs, nil)
		return []arrow.Array{ib.NewArray(), sb.NewArray()}
	}
	build := mk([]int64{1, 2, 3}, []string{"a", "b", "ü"})
	var bk batchKeys
	codec.prepare(build, 3, &bk)
	kf, err := newKeyFilter(codec, &bk, 1)
	if err != nil {
		t.Fatal(err)
	}
	releaseArrays(build)
	probe := mk([]int64{1, 2, 3, 1, 4}, []string{"a", "b", "ü", "b", "a"})
	var pk batchKeys
	codec.prepare(probe, 5, &pk)
	got := kf.keepHashed(&pk, []int32{10, 11, 12, 13, 14})
	releaseArrays(probe)
	if len(got) < 3 || got[0] != 10 || got[1] != 11 || got[2] != 12 {
		t.Errorf("kept %v, want the first three (and rarely a false positive)", got)
	}
}

func seq(n int, start, step int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = start + int64(i)*step
	}
	return out
}

func sparseKeys(rng *rand.Rand, n int, bound float64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(rng.Float64() * bound)
	}
	return out
}

// TestDistinctGuess checks the join table's size estimate for unique,
// clustered and scattered repeating keys.
func TestDistinctGuess(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name     string
		distinct int
		key      func(i int) int64
	}{
		{"unique", 200_000, func(i int) int64 { return int64(i) }},
		{"clustered x4", 50_000, func(i int) int64 { return int64(i / 4) }},
		{"scattered x4", 50_000, func(i int) int64 { return int64(rng.IntN(50_000)) }},
		{"few", 7, func(i int) int64 { return int64(i % 7) }},
	} {
		n := 200_000
		var bk batchKeys
		bk.n, bk.hashes = n, make([]uint64, n)
		seen := map[int64]bool{}
		for i := range n {
			k := tc.key(i)
			seen[k] = true
			bk.hashes[i] = expr.Mix64(uint64(k))
		}
		got, err := distinctGuess(&bk, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got4, err := distinctGuess(&bk, 4); err != nil || got4 != got {
			t.Errorf("%s: %d distinct keys on 4 goroutines (%v), %d on 1", tc.name, got4, err, got)
		}
		want := len(seen)
		if float64(got) < 0.95*float64(want) || float64(got) > 1.15*float64(want)+10 {
			t.Errorf("%s: guessed %d distinct keys, have %d", tc.name, got, want)
		}
	}
}
