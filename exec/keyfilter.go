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
// with a NULL key are left out: they match nothing).
func newKeyFilter(codec keyCodec, bk *batchKeys) *keyFilter {
	kf := &keyFilter{codec: codec, single: codec.single, lo: 1, hi: 0}
	valid := func(i int) bool { return bk.null == nil || !bk.null[i] }
	if kf.single {
		lo, hi, keys := int64(math.MaxInt64), int64(math.MinInt64), 0
		for i, v := range bk.ints[:bk.n] {
			if valid(i) {
				lo, hi, keys = min(lo, v), max(hi, v), keys+1
			}
		}
		if keys == 0 {
			return kf // lo > hi: keeps nothing
		}
		kf.lo, kf.hi = lo, hi
		span := uint64(hi-lo) + 1 // wraps to 0 only for the full int64 range
		if span != 0 && span <= max(bitmapMinBits, bitmapMaxBitsPerKey*uint64(keys)) {
			kf.bitmap = make([]uint64, (span+63)/64)
			for i, v := range bk.ints[:bk.n] {
				if valid(i) {
					d := uint64(v - lo)
					kf.bitmap[d>>6] |= 1 << (d & 63)
				}
			}
			return kf
		}
	}
	kf.bloom = make([]uint64, bloomWords(bk.n))
	kf.mask = uint64(len(kf.bloom) - 1)
	for i, h := range bk.hashes[:bk.n] {
		if valid(i) {
			kf.bloom[h>>32&kf.mask] |= bloomPattern(h)
		}
	}
	return kf
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
