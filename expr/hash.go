package expr

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// Mix64 is murmur3's fmix64, a 64-bit finaliser: cheap, and it spreads the
// low bits of small integer keys over the whole word. It is the one mixer
// of the host and the device (the kernels' gq_hash64 is its twin), so that
// exec's hash tables and partitions and the device's agree.
func Mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Hash128 is a decimal128 key's hash: Mix64 of its low word where the
// value fits an int64, so that a value hashes alike in either width (a
// partition by a decimal64 key and one by a decimal128 key of the same
// scale agree), and a mix of both words beyond.
func Hash128(v decimal128.Num) uint64 {
	lo := v.LowBits()
	if v.HighBits() == int64(lo)>>63 {
		return Mix64(lo)
	}
	return Mix64(lo ^ Mix64(uint64(v.HighBits())))
}
