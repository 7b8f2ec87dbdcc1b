package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A hash join's build prepares the keys of every built row at once, then
// estimates their distinct count and, with a join filter, summarises them
// (keyfilter.go). Each is a pass over millions of rows (TPC-H q09's
// 3.2M-row builds at SF10) that once ran on the build's one goroutine
// while the other cores waited for the table; here they run over ranges
// of rows, one goroutine each.

// parallelRowsMin is the fewest rows per goroutine worth a goroutine of
// its own for one pass over build keys.
const parallelRowsMin = 1 << 15

// rowParts is how many goroutines share a pass over n rows.
func rowParts(n, threads int) int {
	return max(1, min(threads, n/parallelRowsMin))
}

// rowRange is part p of parts' share of rows [0, n).
func rowRange(p, parts, n int) (lo, hi int) {
	return p * n / parts, (p + 1) * n / parts
}

// prepareRows is prepare over n rows on up to threads goroutines, each
// preparing a range of the rows into the same slices; bk ends as prepare
// leaves it.
func (kc keyCodec) prepareRows(arrs []arrow.Array, n int, bk *batchKeys, threads int) error {
	parts := rowParts(n, threads)
	if parts == 1 {
		kc.prepare(arrs, n, bk)
		return nil
	}
	anyNull := false
	for _, a := range arrs {
		anyNull = anyNull || a.NullN() > 0
	}
	*bk = batchKeys{n: n, hashes: make([]uint64, n)}
	var null []bool
	var masks []uint8
	if anyNull {
		null = make([]bool, n)
		if kc.pair {
			masks = make([]uint8, n)
		}
	}
	// ints, ints2 alias the key columns' values where every range's do
	// (int64-like values, and for pairs no NULLs to zero); else each range
	// lands in own, own2.
	converts := func(a arrow.Array) bool {
		_, isDate := a.(*array.Date32)
		return isDate || kc.pair && anyNull
	}
	var own, own2 []int64
	if (kc.single || kc.pair) && converts(arrs[0]) {
		own = make([]int64, n)
	}
	if kc.pair && converts(arrs[1]) {
		own2 = make([]int64, n)
	}
	general := !kc.single && !kc.pair
	chunks := make([]batchKeys, parts)
	err := parallel(parts, func(p int) {
		lo, hi := rowRange(p, parts, n)
		sub := make([]arrow.Array, len(arrs))
		for i, a := range arrs {
			sub[i] = array.NewSlice(a, int64(lo), int64(hi))
		}
		defer releaseArrays(sub)
		cb := &chunks[p]
		cb.hashes = bk.hashes[lo:hi:hi]
		if null != nil {
			cb.null = null[lo:hi:hi]
		}
		if masks != nil {
			cb.masks = masks[lo:hi:hi]
		}
		if own != nil {
			cb.own = own[lo:hi:hi]
		}
		if own2 != nil {
			cb.own2 = own2[lo:hi:hi]
		}
		kc.prepare(sub, hi-lo, cb)
		// prepare reuses what it is given where it writes: a range
		// without NULLs leaves its part of null and masks false and 0,
		// and one that aliased its column is copied into own.
		placeRange(null, lo, cb.null)
		placeRange(masks, lo, cb.masks)
		if own != nil {
			placeRange(own, lo, cb.ints)
		}
		if own2 != nil {
			placeRange(own2, lo, cb.ints2)
		}
		if !general {
			cb.ints, cb.ints2 = nil, nil // the range's view of the columns: not needed past here
		}
	})
	if err != nil {
		return err
	}
	bk.null, bk.masks = null, masks
	switch {
	case kc.single:
		bk.ints = own
		if own == nil {
			bk.ints = keyInts(arrs[0], n, nil)
		}
	case kc.pair:
		bk.ints, bk.ints2 = own, own2
		if own == nil {
			bk.ints = keyInts(arrs[0], n, nil)
		}
		if own2 == nil {
			bk.ints2 = keyInts(arrs[1], n, nil)
		}
	default:
		return joinEncoded(bk, chunks)
	}
	return nil
}

// placeRange copies src, one range's rows, to dst[lo:] unless it is
// already there (or there is nothing to place).
func placeRange[T any](dst []T, lo int, src []T) {
	if len(src) == 0 || len(dst) == 0 || &dst[lo] == &src[0] {
		return
	}
	copy(dst[lo:], src)
}

// joinEncoded concatenates the ranges' serialised rows into bk.enc and
// bk.offs, one goroutine per range.
func joinEncoded(bk *batchKeys, chunks []batchKeys) error {
	starts := make([]int, len(chunks)+1)  // first row of each range
	bases := make([]int32, len(chunks)+1) // first byte of each range
	for p := range chunks {
		starts[p+1] = starts[p] + chunks[p].n
		bases[p+1] = bases[p] + chunks[p].offs[chunks[p].n]
	}
	bk.enc = make([]byte, bases[len(chunks)])
	bk.offs = make([]int32, bk.n+1)
	bk.offs[bk.n] = bases[len(chunks)]
	return parallel(len(chunks), func(p int) {
		// Each range writes its own rows' starts only: its end is the
		// next range's first start.
		cb := &chunks[p]
		copy(bk.enc[bases[p]:bases[p+1]], cb.enc)
		offs := bk.offs[starts[p]:starts[p+1]]
		for i, o := range cb.offs[:cb.n] {
			offs[i] = bases[p] + o
		}
		cb.enc, cb.offs = nil, nil
	})
}
