// Helpers of the generated aggregation kernels (arrowgpu/agg.go).

// Loads that bypass the L1 cache: another thread's table writes become
// visible to them after its __threadfence.
__device__ __forceinline__ u32 gq_load_u32(const u32* p) { return *(const volatile u32*)p; }
__device__ __forceinline__ u64 gq_load_u64(const u64* p) { return *(const volatile u64*)p; }
__device__ __forceinline__ i64 gq_load_i64(const i64* p) { return *(const volatile i64*)p; }

// Atomic min and max of doubles by compare-and-swap on their bits.
__device__ __forceinline__ void gq_atomic_min_f64(double* p, double v) {
	u64* a = (u64*)p;
	u64 old = *(volatile u64*)a;
	while (v < __longlong_as_double((i64)old)) {
		u64 seen = atomicCAS(a, old, (u64)__double_as_longlong(v));
		if (seen == old) break;
		old = seen;
	}
}

__device__ __forceinline__ void gq_atomic_max_f64(double* p, double v) {
	u64* a = (u64*)p;
	u64 old = *(volatile u64*)a;
	while (v > __longlong_as_double((i64)old)) {
		u64 seen = atomicCAS(a, old, (u64)__double_as_longlong(v));
		if (seen == old) break;
		old = seen;
	}
}
