package expr

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
