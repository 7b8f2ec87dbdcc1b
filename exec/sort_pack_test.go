package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestSortPackedKeys checks that sortIndices, which packs and ranks keys
// (packSortKeys), orders rows as comparing their original normalised keys
// does: keys of narrow and full ranges (MinInt64..MaxInt64 with NULLs:
// no room for NULL's value), strings of few values (ranked) and of many
// (not), NULLs first and last, ascending and descending, all equal and
// all NULL.
func TestSortPackedKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	mem := memory.NewGoAllocator()
	for iter := range 300 {
		n := []int{2, 3, 50, 700, 5000}[iter%5]
		var arrs []arrow.Array
		keys := make(sortKeys, 1+rng.IntN(4))
		for k := range keys {
			nullPct := []int{0, 0, 10, 100}[rng.IntN(4)]
			var a arrow.Array
			switch kind := rng.IntN(5); kind {
			case 0, 1: // int64: a narrow range, or the widest
				b := array.NewInt64Builder(mem)
				for range n {
					switch {
					case rng.IntN(100) < nullPct:
						b.AppendNull()
					case kind == 0:
						b.Append(int64(rng.IntN(9) - 4))
					default:
						b.Append([]int64{math.MinInt64, math.MaxInt64, 0, -1}[rng.IntN(4)])
					}
				}
				a = b.NewArray()
			default: // strings: few values sharing long prefixes, or many
				b := array.NewStringBuilder(mem)
				for range n {
					switch {
					case rng.IntN(100) < nullPct:
						b.AppendNull()
					case kind == 2:
						b.Append([]string{"STANDARD POLISHED TIN", "STANDARD BRUSHED", "ECONOMY", "", "STANDARD POLISHED"}[rng.IntN(5)])
					case kind == 3:
						b.Append("STANDARD" + fmt.Sprint(rng.IntN(3*n)))
					default:
						b.Append("same")
					}
				}
				a = b.NewArray()
			}
			arrs = append(arrs, a)
			var err error
			if keys[k], err = newSortCol(a, rng.IntN(2) == 0, rng.IntN(2) == 0); err != nil {
				t.Fatal(err)
			}
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return compareRows(keys, a, keys, b) })
		for _, threads := range []int{1, 3} {
			got := sortIndices(keys, n, threads)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("iter %d, %d keys over %d rows, %d threads: row %d is %d, want %d", iter, len(keys), n, threads, i, got[i], want[i])
				}
			}
		}
		for _, a := range arrs {
			a.Release()
		}
	}
}
