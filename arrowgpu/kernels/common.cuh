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

// gq_bit reads bit i of a bitmap; a null bitmap has every bit set.
__device__ __forceinline__ bool gq_bit(const u8* bits, i64 i) {
	return bits == 0 || ((bits[i >> 3] >> (i & 7)) & 1);
}

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
