package exec

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/expr"
)

// keyFilter is what a join filter tests scanned rows against: a compact
// summary of the keys in a hash join's built table that may say "maybe"
// for a key the table lacks but never "no" for one it has.
//
// Why not probe the join's table itself: that costs a hash, a random load
// from a table of 16-byte slots (far larger than the caches for big
// builds) and a key compare per scanned row — a third of TPC-H q05's CPU
// went there, filtering 6M lineitem rows against 228k orders. A summary of
// at most 32 bits per key answers with one load from something that stays
// in cache:
//   - one integer-like key whose values are dense enough (surrogate keys,
//     dates): a bitmap over [lo, hi], exact;
//   - otherwise a register-blocked Bloom filter: each key sets four bits in
//     one 64-bit word picked by its hash, so a test is one load and a
//     compare (about 0.5% false positives at 16 bits per key).
type keyFilter struct {
	codec  keyCodec
	single bool     // one integer-like key: keepInts; else keepHashed
	lo, hi int64    // single: the range of the keys (lo > hi: no keys)
	bitmap []uint64 // single, dense: bit k-lo set for each key k
	bloom  []uint64 // otherwise: the Bloom filter's words
	mask   uint64   // len(bloom)-1
}

const (
	bloomBitsPerKey     = 16
	bitmapMaxBitsPerKey = 2 * bloomBitsPerKey // a bitmap no larger than the Bloom filter's bound
	bitmapMinBits       = 1 << 16             // 8 KiB: always fine
)

// keyFilterBytes bounds the memory of a filter over n keys.
func keyFilterBytes(n int) int64 {
	return int64(bloomWords(n))*8 + bitmapMinBits/8
}

// bloomWords is the Bloom filter's size for n keys: a power of two of at
// least bloomBitsPerKey bits per key (and below twice that), and at least
// bloomMinWords: a few keys get many bits each, so almost no false
// positives, for 8 KiB that stays in the L1 cache (q17's 204 parts let
// 0.25% of lineitem through at 20 bits per key).
func bloomWords(n int) int {
	w := max(n*bloomBitsPerKey/64, bloomMinWords)
	return 1 << bits.Len(uint(w-1))
}

const bloomMinWords = 1 << 10

// bloomPattern is the four bits a hash sets in its word; the word comes
// from the hash's high half, the bits from its low 24 bits.
func bloomPattern(h uint64) uint64 {
	return 1<<(h&63) | 1<<(h>>6&63) | 1<<(h>>12&63) | 1<<(h>>18&63)
}

// newKeyFilter summarises the keys of bk (one row per built row; rows
// with a NULL key are left out: they match nothing), on several
// goroutines from filterParallelThreads threads on: the range of single
// keys over ranges of rows, then the bitmap's or Bloom filter's words in
// runs (setWords).
func newKeyFilter(codec keyCodec, bk *batchKeys, threads int) (*keyFilter, error) {
	kf := &keyFilter{codec: codec, single: codec.single, lo: 1, hi: 0}
	n := bk.n
	valid := func(i int) bool { return bk.null == nil || !bk.null[i] }
	parts := 1
	if threads >= filterParallelThreads {
		parts = rowParts(n, threads)
	}
	if kf.single {
		type span struct{ lo, hi, keys int64 }
		spans := make([]span, parts)
		if err := parallel(parts, func(p int) {
			from, to := rowRange(p, parts, n)
			lo, hi, keys := int64(math.MaxInt64), int64(math.MinInt64), int64(0)
			null := bk.null
			for i, v := range bk.ints[from:to] {
				if null == nil || !null[from+i] {
					lo, hi, keys = min(lo, v), max(hi, v), keys+1
				}
			}
			spans[p] = span{lo, hi, keys}
		}); err != nil {
			return nil, err
		}
		all := span{math.MaxInt64, math.MinInt64, 0}
		for _, s := range spans {
			all = span{min(all.lo, s.lo), max(all.hi, s.hi), all.keys + s.keys}
		}
		if all.keys == 0 {
			return kf, nil // lo > hi: keeps nothing
		}
		kf.lo, kf.hi = all.lo, all.hi
		width := uint64(kf.hi-kf.lo) + 1 // wraps to 0 only for the full int64 range
		if width != 0 && width <= max(bitmapMinBits, bitmapMaxBitsPerKey*uint64(all.keys)) {
			kf.bitmap = make([]uint64, (width+63)/64)
			if parts > 1 && len(kf.bitmap) >= parts {
				return kf, setWords(kf.bitmap, bk, parts, wordOf{ints: bk.ints, lo: uint64(kf.lo)})
			}
			bm, lo := kf.bitmap, kf.lo
			for i, v := range bk.ints[:n] {
				if valid(i) {
					d := uint64(v - lo)
					bm[d>>6] |= 1 << (d & 63)
				}
			}
			return kf, nil
		}
	}
	kf.bloom = make([]uint64, bloomWords(n))
	kf.mask = uint64(len(kf.bloom) - 1)
	if parts > 1 {
		return kf, setWords(kf.bloom, bk, parts, wordOf{hashes: bk.hashes, mask: kf.mask, bloom: true})
	}
	bloom, mask := kf.bloom, kf.mask
	for i, h := range bk.hashes[:n] {
		if valid(i) {
			bloom[h>>32&mask] |= bloomPattern(h)
		}
	}
	return kf, nil
}

// filterParallelThreads is the fewest threads at which a filter's bits
// are set by several goroutines. Sorting the rows by run of words first
// costs about as much CPU again as setting the bits, so on two threads it
// would spend what it saves; from four on, the cores it keeps busy are
// worth more.
const filterParallelThreads = 4

// wordOf says which bits of which word a row sets: in a bitmap, bit d of
// word d>>6 (d its key's offset from lo); in a Bloom filter, the hash's
// pattern in the word its high half picks.
type wordOf struct {
	ints   []int64  // bitmap: the keys
	hashes []uint64 // Bloom filter: the keys' hashes
	lo     uint64
	mask   uint64
	bloom  bool
}

// value is what row i's bits derive from.
func (o wordOf) value(i int) uint64 {
	if o.bloom {
		return o.hashes[i]
	}
	return uint64(o.ints[i])
}

func (o wordOf) at(v uint64) (word, bits uint64) {
	if o.bloom {
		return v >> 32 & o.mask, bloomPattern(v)
	}
	d := v - o.lo
	return d >> 6, 1 << (d & 63)
}

// setWords sets each row's bits (wordOf) for the rows of bk without a
// NULL key on parts goroutines. On one goroutine that is a pass of random
// writes over words, which miss the caches for a large filter; here
// goroutines first sort the rows' values by run of words (each over a
// range of rows, into a bucket per run), then each run's goroutine sets
// the bits of its buckets into its own words, a range small enough to
// stay in its core's caches.
func setWords(words []uint64, bk *batchKeys, parts int, o wordOf) error {
	n := bk.n
	shift := uint(bits.Len(uint((len(words)+parts-1)/parts - 1))) // run p: words [p<<shift, (p+1)<<shift)
	buckets := make([][][]uint64, parts)                          // [range of rows][run of words]
	if err := parallel(parts, func(q int) {
		from, to := rowRange(q, parts, n)
		// Count, then place: buckets sized once (the rows of a range
		// may all fall in one run, sorted keys do).
		sizes := make([]int, parts)
		for i := from; i < to; i++ {
			if bk.null == nil || !bk.null[i] {
				w, _ := o.at(o.value(i))
				sizes[w>>shift]++
			}
		}
		mine := make([][]uint64, parts)
		for p, k := range sizes {
			mine[p], sizes[p] = make([]uint64, k), 0
		}
		for i := from; i < to; i++ {
			if bk.null == nil || !bk.null[i] {
				v := o.value(i)
				w, _ := o.at(v)
				p := w >> shift
				mine[p][sizes[p]] = v
				sizes[p]++
			}
		}
		buckets[q] = mine
	}); err != nil {
		return err
	}
	return parallel(parts, func(p int) {
		for q := range buckets {
			for _, v := range buckets[q][p] {
				w, b := o.at(v)
				words[w] |= b
			}
			buckets[q][p] = nil
		}
	})
}

// keepInts keeps the rows of sel (in place) whose value in a, the single
// key column of the scanned batch, may be a key.
func (kf *keyFilter) keepInts(a arrow.Array, sel []int32) []int32 {
	switch x := a.(type) {
	case *array.Int64:
		return keepIntKeys(kf, x.Int64Values(), a, sel)
	case *array.Decimal64:
		return keepIntKeys(kf, asInt64s(x.Values()), a, sel)
	case *array.Timestamp, *array.Time64:
		return keepIntKeys(kf, temporalInts(x), a, sel)
	case *array.Date32:
		return keepIntKeys(kf, x.Date32Values(), a, sel)
	}
	return sel // not an integer-like column: cannot happen (keyCodec.single)
}

func keepIntKeys[T ~int32 | ~int64](kf *keyFilter, vals []T, a arrow.Array, sel []int32) []int32 {
	if kf.lo > kf.hi {
		return sel[:0]
	}
	if a.NullN() > 0 { // a NULL key matches nothing
		k := 0
		for _, r := range sel {
			if a.IsValid(int(r)) {
				sel[k] = r
				k++
			}
		}
		sel = sel[:k]
	}
	lo, span := kf.lo, uint64(kf.hi-kf.lo)
	k := 0
	if kf.bitmap != nil {
		// Branch-free: every row is written, the count advances by its bit.
		bm := kf.bitmap
		for _, r := range sel {
			d := uint64(int64(vals[r]) - lo)
			in := b2u(d <= span)
			w := bm[min(d, span)>>6]
			sel[k] = r
			k += int(w >> (d & 63) & in)
		}
		return sel[:k]
	}
	for _, r := range sel {
		v := int64(vals[r])
		if uint64(v-lo) > span {
			continue
		}
		h := expr.Mix64(uint64(v))
		p := bloomPattern(h)
		if kf.bloom[h>>32&kf.mask]&p == p {
			sel[k] = r
			k++
		}
	}
	return sel[:k]
}

// keepHashed keeps the entries of sel (in place) whose keys, prepared in
// bk (row k of bk belongs to sel[k]), may be keys of the table.
func (kf *keyFilter) keepHashed(bk *batchKeys, sel []int32) []int32 {
	k := 0
	for i, r := range sel {
		if bk.null != nil && bk.null[i] {
			continue
		}
		h := bk.hashes[i]
		p := bloomPattern(h)
		if kf.bloom[h>>32&kf.mask]&p == p {
			sel[k] = r
			k++
		}
	}
	return sel[:k]
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
