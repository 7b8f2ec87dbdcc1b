package exec

import (
	"bytes"
	"cmp"
	"slices"
	"sync"
)

// sortEntry is a row with the normalised value of its first sort key.
type sortEntry struct {
	key uint64
	row int32
}

// parallelSortMin is the row count from which sorting is split across
// workers (below it, goroutines cost more than they save).
var parallelSortMin = 1 << 17

// sortIndices returns the rows 0..n-1 ordered by keys, ties in row order
// (a stable sort), using up to threads goroutines. Rows are radix-sorted
// on the first key's normalised value (the leading keys packed into one
// where they fit: packSortKeys); only runs of equal values (or of equal
// 8-byte string prefixes) go through the general comparator. Large
// inputs are sorted in chunks by several workers and merged pairwise.
func sortIndices(keys sortKeys, n, threads int) []int32 {
	out := make([]int32, 0, n)
	if len(keys) == 0 {
		for i := range n {
			out = append(out, int32(i))
		}
		return out
	}
	keys = packSortKeys(keys, n)
	k0 := &keys[0]
	ents := make([]sortEntry, 0, n)
	var nulls []int32
	for i := range n {
		if k0.valid != nil && !k0.valid[i] {
			nulls = append(nulls, int32(i))
		} else {
			ents = append(ents, sortEntry{k0.norm[i], int32(i)})
		}
	}
	rest := keys[1:]
	var tie func(a, b sortEntry) int // nil: equal keys are equal rows
	if len(rest) > 0 || k0.isStr {
		tie = func(a, b sortEntry) int {
			if k0.isStr {
				if r := bytes.Compare(k0.str(a.row), k0.str(b.row)); r != 0 {
					if k0.desc {
						return -r
					}
					return r
				}
			}
			return compareRows(rest, a.row, rest, b.row)
		}
	}
	if threads > 1 && len(ents) >= parallelSortMin {
		parallelSort(ents, threads, tie)
	} else {
		sortRun(ents, tie)
	}
	if len(rest) > 0 && len(nulls) > 1 {
		slices.SortFunc(nulls, func(a, b int32) int {
			if r := compareRows(rest, a, rest, b); r != 0 {
				return r
			}
			return cmp.Compare(a, b)
		})
	}
	if k0.nullsFirst {
		out = append(out, nulls...)
	}
	for _, e := range ents {
		out = append(out, e.row)
	}
	if !k0.nullsFirst {
		out = append(out, nulls...)
	}
	return out
}

// sortRun sorts ents (in row order) by key, then tie, then row.
func sortRun(ents []sortEntry, tie func(a, b sortEntry) int) {
	radixSort(ents)
	if tie == nil {
		return
	}
	full := func(a, b sortEntry) int {
		if r := tie(a, b); r != 0 {
			return r
		}
		return cmp.Compare(a.row, b.row)
	}
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && ents[j].key == ents[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(ents[i:j], full)
		}
		i = j
	}
}

// parallelSort sorts chunks of ents concurrently, then merges neighbouring
// runs pairwise (each round's merges also run concurrently). The order
// (key, tie, row) is total, so the result equals a sequential sort.
func parallelSort(ents []sortEntry, threads int, tie func(a, b sortEntry) int) {
	bounds := []int{0}
	for k := 1; k <= threads; k++ {
		bounds = append(bounds, len(ents)*k/threads)
	}
	var wg sync.WaitGroup
	for k := range threads {
		wg.Go(func() { sortRun(ents[bounds[k]:bounds[k+1]], tie) })
	}
	wg.Wait()
	before := func(a, b sortEntry) bool {
		if a.key != b.key {
			return a.key < b.key
		}
		if tie != nil {
			if r := tie(a, b); r != 0 {
				return r < 0
			}
		}
		return a.row < b.row
	}
	src, dst := ents, make([]sortEntry, len(ents))
	for len(bounds) > 2 {
		var next []int
		for k := 0; k+1 < len(bounds); k += 2 {
			lo := bounds[k]
			if k+2 >= len(bounds) { // odd run out: copy through
				copy(dst[lo:], src[lo:bounds[k+1]])
				next = append(next, lo)
				continue
			}
			mid, hi := bounds[k+1], bounds[k+2]
			wg.Go(func() { mergeRuns(dst[lo:hi], src[lo:mid], src[mid:hi], before) })
			next = append(next, lo)
		}
		wg.Wait()
		bounds = append(next, len(ents))
		src, dst = dst, src
	}
	if &src[0] != &ents[0] {
		copy(ents, src)
	}
}

func mergeRuns(dst, a, b []sortEntry, before func(a, b sortEntry) bool) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if before(b[j], a[i]) {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// radixSort sorts a by key, stably (LSD radix sort, 8 bits a pass; passes
// whose byte is the same in every entry are skipped, so small ranges of
// values cost few passes).
func radixSort(a []sortEntry) {
	if len(a) < 256 {
		slices.SortStableFunc(a, func(x, y sortEntry) int { return cmp.Compare(x.key, y.key) })
		return
	}
	var counts [8][256]int
	for _, e := range a {
		k := e.key
		for b := range 8 {
			counts[b][byte(k>>(8*b))]++
		}
	}
	src, dst := a, make([]sortEntry, len(a))
	for b := range 8 {
		c := &counts[b]
		shift := 8 * b
		if c[byte(src[0].key>>shift)] == len(a) {
			continue
		}
		var offs [256]int
		sum := 0
		for d := range 256 {
			offs[d] = sum
			sum += c[d]
		}
		for _, e := range src {
			d := byte(e.key >> shift)
			dst[offs[d]] = e
			offs[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}
