// Shared definitions for gq's CUDA kernels. NVRTC compiles without system
// headers, so everything is spelled out here.
//
// Layout conventions (Arrow's): validity and boolean data are bitmaps, bit i
// of byte i/8, least significant bit first, offset 0 (upload normalises
// offsets). A null bitmap pointer means "all valid". Bitmaps written by
// kernels are written as 32-bit words with __ballot_sync, so their buffers
// are padded to a multiple of 4 bytes (the pool aligns to 256).

typedef long long i64;
typedef unsigned long long u64;
typedef int i32;
typedef unsigned int u32;
typedef unsigned char u8;

#define GQ_FULL_MASK 0xffffffffu

// gq_i128 is a DECIMAL(38) value as Arrow's decimal128 holds it: a
// two's-complement 128-bit integer, low word first, 16 bytes (a device
// column of them is the Arrow buffer as is). Two 64-bit words rather than
// __int128, which NVRTC accepts only under an option some versions lack.
struct gq_i128 {
	u64 lo;
	i64 hi;
	__device__ __forceinline__ gq_i128() : lo(0), hi(0) {}
	__device__ __forceinline__ gq_i128(i64 v) : lo((u64)v), hi(v >> 63) {}
	__device__ __forceinline__ gq_i128(u64 l, i64 h) : lo(l), hi(h) {}
};
__device__ __forceinline__ bool operator==(gq_i128 a, gq_i128 b) { return a.lo == b.lo && a.hi == b.hi; }
__device__ __forceinline__ bool operator!=(gq_i128 a, gq_i128 b) { return !(a == b); }
__device__ __forceinline__ bool operator<(gq_i128 a, gq_i128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
__device__ __forceinline__ bool operator>(gq_i128 a, gq_i128 b) { return b < a; }
__device__ __forceinline__ bool operator<=(gq_i128 a, gq_i128 b) { return !(b < a); }
__device__ __forceinline__ bool operator>=(gq_i128 a, gq_i128 b) { return !(a < b); }

// gq_i128_clamp is v clamped to the int64 range: a monotone 64-bit image,
// exact for every value that fits (a top-N's order key of a DECIMAL(38):
// equal images keep more candidates, never fewer).
__device__ __forceinline__ i64 gq_i128_clamp(gq_i128 v) {
	if (v.hi == ((i64)v.lo >> 63)) return (i64)v.lo;
	return v.hi < 0 ? (-9223372036854775807LL - 1) : 9223372036854775807LL;
}

// gq_bit reads bit i of a bitmap; a null bitmap has every bit set.
__device__ __forceinline__ bool gq_bit(const u8* bits, i64 i) {
	return bits == 0 || ((bits[i >> 3] >> (i & 7)) & 1);
}

// The order of doubles that comparisons, min and max use (expr's
// CompareFloat, as DuckDB's): every NaN equals every other and is above
// every number, +Inf included; -0 equals 0. gq_dcmp is -1, 0 or 1;
// gq_less is a < b, with integer overloads in their plain order so that
// templates take both.
__device__ __forceinline__ int gq_dcmp(double a, double b) {
	int an = a != a, bn = b != b;
	return (an | bn) ? an - bn : (a > b) - (a < b);
}
__device__ __forceinline__ bool gq_less(double a, double b) { return a < b || (b != b && a == a); }
__device__ __forceinline__ bool gq_less(i64 a, i64 b) { return a < b; }
__device__ __forceinline__ bool gq_less(i32 a, i32 b) { return a < b; }

// Grid-stride loop over [0, n).
#define GQ_FOR(i, n) for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

// Grid-stride loop over [0, n rounded up to 32): every lane of a warp runs
// the same iterations, so __ballot_sync can pack one output word per warp.
// Lane 0 of each warp handles rows i..i+31 of word i/32.
#define GQ_FOR_WARP(i, n) for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (((n) + 31) & ~31LL); i += (i64)blockDim.x * gridDim.x)

// gq_put_bits writes this warp's 32 predicate bits as word i/32.
#ifndef GQ_HOST_RUN
__device__ __forceinline__ void gq_put_bits(u32* out, i64 i, bool bit) {
	u32 w = __ballot_sync(GQ_FULL_MASK, bit);
	if ((threadIdx.x & 31) == 0) out[i >> 5] = w;
}
// gq_and_bits_word ANDs this warp's 32 predicate bits into word i/32.
__device__ __forceinline__ void gq_and_bits_word(u32* out, i64 i, bool bit) {
	u32 w = __ballot_sync(GQ_FULL_MASK, bit);
	if ((threadIdx.x & 31) == 0) out[i >> 5] &= w;
}
#else
// Tests run element-wise kernels on the host with a single thread
// (arrowgpu/hostrun_test.go); there a row writes its own bit.
__device__ __forceinline__ void gq_put_bits(u32* out, i64 i, bool bit) {
	if (bit) out[i >> 5] |= 1u << (i & 31);
	else out[i >> 5] &= ~(1u << (i & 31));
}
__device__ __forceinline__ void gq_and_bits_word(u32* out, i64 i, bool bit) {
	if (!bit) out[i >> 5] &= ~(1u << (i & 31));
}
#endif

// gq_hash64 is murmur3's fmix64, the same mixer as the CPU hash tables
// (exec/hash_keys.go hashMix) and HashInt64 in Go.
__device__ __forceinline__ u64 gq_hash64(u64 x) {
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

// gq_double_order maps a double to a u64 whose unsigned order is the
// double's (negatives' bits all flipped, the others' sign bit set): the
// order key of a top-N by a double (topn.go, AggKernel.WithTopN).
__device__ __forceinline__ u64 gq_double_order(double x) {
	u64 b = (u64)__double_as_longlong(x);
	return (b >> 63) ? ~b : (b | 0x8000000000000000ULL);
}
