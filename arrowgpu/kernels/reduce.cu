// Reductions to per-block partials (Go combines them, deterministically).
// Rows count when valid (column validity) and selected (an optional
// selection bitmap, so a filter needs no compaction before aggregating).
// Launch with 256 threads per block; the grid may be any size (grid-stride).

#define GQ_RED_BLOCK 256

template <typename T, typename Op>
__device__ void gq_block_reduce(T v, T* out, Op op) {
	__shared__ T s[GQ_RED_BLOCK];
	int t = threadIdx.x;
	s[t] = v;
	__syncthreads();
	for (int d = GQ_RED_BLOCK / 2; d > 0; d >>= 1) {
		if (t < d) s[t] = op(s[t], s[t + d]);
		__syncthreads();
	}
	if (t == 0) *out = s[0];
}

struct gq_add_i64 { __device__ i64 operator()(i64 a, i64 b) const { return (i64)((u64)a + (u64)b); } };
struct gq_add_f64 { __device__ double operator()(double a, double b) const { return a + b; } };
struct gq_or_u32 { __device__ u32 operator()(u32 a, u32 b) const { return a | b; } };
template <typename T> struct gq_min { __device__ T operator()(T a, T b) const { return gq_less(b, a) ? b : a; } };
template <typename T> struct gq_max { __device__ T operator()(T a, T b) const { return gq_less(a, b) ? b : a; } };

// Count of valid selected rows (COUNT(col); COUNT(*) with valid == 0).
extern "C" __global__ void gq_count(const u8* valid, const u8* sel, i64 n, i64* pcount) {
	i64 c = 0;
	GQ_FOR(i, n) { c += gq_bit(valid, i) && gq_bit(sel, i); }
	gq_block_reduce<i64>(c, &pcount[blockIdx.x], gq_add_i64());
}

// Int64/decimal sum with count; poverflow[b] != 0 when a signed addition
// in the block overflowed (the host reports it as the CPU does).
extern "C" __global__ void gq_sum_i64(const i64* col, const u8* valid, const u8* sel, i64 n, i64* psum, i64* pcount, u32* poverflow) {
	i64 s = 0, c = 0;
	u32 ovf = 0;
	GQ_FOR(i, n) {
		if (gq_bit(valid, i) && gq_bit(sel, i)) {
			i64 v = col[i];
			i64 r = (i64)((u64)s + (u64)v);
			ovf |= ((s ^ r) & (v ^ r)) < 0;
			s = r;
			c++;
		}
	}
	// Overflow in the tree sum is checked on the host from the partials of
	// the last level only; within a block, pairwise sums are checked here.
	__shared__ i64 ss[GQ_RED_BLOCK];
	int t = threadIdx.x;
	ss[t] = s;
	__syncthreads();
	for (int d = GQ_RED_BLOCK / 2; d > 0; d >>= 1) {
		if (t < d) {
			i64 a = ss[t], b = ss[t + d], r = (i64)((u64)a + (u64)b);
			ovf |= ((a ^ r) & (b ^ r)) < 0;
			ss[t] = r;
		}
		__syncthreads();
	}
	if (t == 0) psum[blockIdx.x] = ss[0];
	gq_block_reduce<i64>(c, &pcount[blockIdx.x], gq_add_i64());
	gq_block_reduce<u32>(ovf, &poverflow[blockIdx.x], gq_or_u32());
}

extern "C" __global__ void gq_sum_f64(const double* col, const u8* valid, const u8* sel, i64 n, double* psum, i64* pcount) {
	double s = 0;
	i64 c = 0;
	GQ_FOR(i, n) {
		if (gq_bit(valid, i) && gq_bit(sel, i)) { s += col[i]; c++; }
	}
	gq_block_reduce<double>(s, &psum[blockIdx.x], gq_add_f64());
	gq_block_reduce<i64>(c, &pcount[blockIdx.x], gq_add_i64());
}

// Min and max (meaningful where pcount > 0), in gq_less's order: NaN is
// above every number (min starts from NaN, the largest double).
template <typename T>
__device__ void gq_minmax(const T* col, const u8* valid, const u8* sel, i64 n, T init_min, T init_max, T* pmin, T* pmax, i64* pcount) {
	T lo = init_min, hi = init_max;
	i64 c = 0;
	GQ_FOR(i, n) {
		if (gq_bit(valid, i) && gq_bit(sel, i)) {
			T v = col[i];
			if (gq_less(v, lo)) lo = v;
			if (gq_less(hi, v)) hi = v;
			c++;
		}
	}
	gq_block_reduce<T>(lo, &pmin[blockIdx.x], gq_min<T>());
	gq_block_reduce<T>(hi, &pmax[blockIdx.x], gq_max<T>());
	gq_block_reduce<i64>(c, &pcount[blockIdx.x], gq_add_i64());
}

extern "C" __global__ void gq_minmax_i64(const i64* col, const u8* valid, const u8* sel, i64 n, i64* pmin, i64* pmax, i64* pcount) {
	gq_minmax<i64>(col, valid, sel, n, 0x7fffffffffffffffLL, (-0x7fffffffffffffffLL - 1), pmin, pmax, pcount);
}

extern "C" __global__ void gq_minmax_i32(const i32* col, const u8* valid, const u8* sel, i64 n, i32* pmin, i32* pmax, i64* pcount) {
	gq_minmax<i32>(col, valid, sel, n, 0x7fffffff, (-0x7fffffff - 1), pmin, pmax, pcount);
}

extern "C" __global__ void gq_minmax_f64(const double* col, const u8* valid, const u8* sel, i64 n, double* pmin, double* pmax, i64* pcount) {
	gq_minmax<double>(col, valid, sel, n, __longlong_as_double(0x7ff8000000000000LL), __longlong_as_double(0xfff0000000000000LL), pmin, pmax, pcount);
}
