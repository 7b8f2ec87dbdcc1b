// Helpers of the generated aggregation kernels (arrowgpu/agg.go).

// Loads that bypass the L1 cache: another thread's table writes become
// visible to them after its __threadfence.
__device__ __forceinline__ u32 gq_load_u32(const u32* p) { return *(const volatile u32*)p; }
__device__ __forceinline__ u64 gq_load_u64(const u64* p) { return *(const volatile u64*)p; }
__device__ __forceinline__ i64 gq_load_i64(const i64* p) { return *(const volatile i64*)p; }

// Block-local accumulation (AggTable.Local): a block adds its rows up in
// a table of GQ_AGG_LOCAL groups in shared memory, then each group's sums
// to its slot — where a few groups take most rows (TPC-H q01's four), the
// atomics of every warp on the same few addresses of device memory had
// serialised. gq_agg_local_entry is slot's entry in the block's table ls
// (0xffffffff: empty), claimed if need be, or -1 when none is found within
// 8 probes (the rows of that group then add to their slot directly).
#define GQ_AGG_LOCAL 64
__device__ __forceinline__ int gq_agg_local_entry(u32* ls, u32 slot) {
	u32 e = (slot * 2654435761u) >> 26;
	for (int p = 0; p < 8; p++, e = (e + 1) & (GQ_AGG_LOCAL - 1)) {
		u32 v = *(volatile u32*)&ls[e];
		if (v == 0xffffffffu) v = atomicCAS(&ls[e], 0xffffffffu, slot);
		if (v == 0xffffffffu || v == slot) return (int)e;
	}
	return -1;
}

// Atomic min and max of the accumulators: the hardware's for integers,
// compare-and-swap on the bits for doubles, in gq_less's order (NaN above
// every number).
__device__ __forceinline__ void gq_atomic_min(long long* p, i64 v) { atomicMin(p, v); }
__device__ __forceinline__ void gq_atomic_max(long long* p, i64 v) { atomicMax(p, v); }

__device__ __forceinline__ void gq_atomic_min(double* p, double v) {
	u64* a = (u64*)p;
	u64 old = *(volatile u64*)a;
	while (gq_less(v, __longlong_as_double((i64)old))) {
		u64 seen = atomicCAS(a, old, (u64)__double_as_longlong(v));
		if (seen == old) break;
		old = seen;
	}
}

__device__ __forceinline__ void gq_atomic_max(double* p, double v) {
	u64* a = (u64*)p;
	u64 old = *(volatile u64*)a;
	while (gq_less(__longlong_as_double((i64)old), v)) {
		u64 seen = atomicCAS(a, old, (u64)__double_as_longlong(v));
		if (seen == old) break;
		old = seen;
	}
}

// Reductions over a whole warp by butterfly (5 shuffles): every lane ends
// with the result. Lanes without a value hold the identity. On the host
// (GQ_HOST_RUN: one thread stands for a warp whose other lanes hold the
// identity) they return their argument.
#ifndef GQ_HOST_RUN
__device__ __forceinline__ void gq_warp_sum128(u64* lo, i64* hi) {
	for (int o = 16; o > 0; o >>= 1) {
		u64 l = __shfl_xor_sync(GQ_FULL_MASK, *lo, o);
		i64 h = __shfl_xor_sync(GQ_FULL_MASK, *hi, o);
		u64 t = *lo + l;
		*hi += h + (t < *lo ? 1 : 0);
		*lo = t;
	}
}
__device__ __forceinline__ double gq_warp_sum_f64(double x) {
	for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(GQ_FULL_MASK, x, o);
	return x;
}
template <typename T> __device__ __forceinline__ T gq_warp_min(T x) {
	for (int o = 16; o > 0; o >>= 1) { T y = __shfl_xor_sync(GQ_FULL_MASK, x, o); x = gq_less(y, x) ? y : x; }
	return x;
}
template <typename T> __device__ __forceinline__ T gq_warp_max(T x) {
	for (int o = 16; o > 0; o >>= 1) { T y = __shfl_xor_sync(GQ_FULL_MASK, x, o); x = gq_less(x, y) ? y : x; }
	return x;
}
#else
__device__ __forceinline__ void gq_warp_sum128(u64*, i64*) {}
__device__ __forceinline__ double gq_warp_sum_f64(double x) { return x; }
template <typename T> __device__ __forceinline__ T gq_warp_min(T x) { return x; }
template <typename T> __device__ __forceinline__ T gq_warp_max(T x) { return x; }
#endif

