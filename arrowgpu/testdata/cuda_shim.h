// Host stand-ins for the CUDA built-ins gq's kernels use, so that g++ can
// type-check the kernel sources (hostcc_test.go) and run element-wise
// kernels with one thread (hostrun_test.go) on a machine without CUDA.
#include <math.h>
#include <string.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __constant__
#define __shared__
#define __restrict__ __restrict
struct gq_dim3 { unsigned x, y, z; };
// One block of one thread: grid-stride loops visit every row in order.
static gq_dim3 blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1};
static inline void __syncthreads() {}
static inline unsigned __ballot_sync(unsigned, bool b) { return b; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __ffs(unsigned x) { return __builtin_ffs(x); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned o = *p; *p += v; return o; }
// One thread is the whole warp (lane 0): atomics are plain updates, a warp
// match finds the thread alone, a shuffle returns its own value.
static inline unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned v) { unsigned o = *p; if (o == cmp) *p = v; return o; }
static inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp, unsigned long long v) { unsigned long long o = *p; if (o == cmp) *p = v; return o; }
static inline unsigned atomicExch(unsigned* p, unsigned v) { unsigned o = *p; *p = v; return o; }
static inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p |= v; return o; }
static inline unsigned long long atomicOr(unsigned long long* p, unsigned long long v) { unsigned long long o = *p; *p |= v; return o; }
static inline unsigned long long atomicAnd(unsigned long long* p, unsigned long long v) { unsigned long long o = *p; *p &= v; return o; }
static inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { unsigned long long o = *p; *p += v; return o; }
static inline double atomicAdd(double* p, double v) { double o = *p; *p += v; return o; }
static inline long long atomicMin(long long* p, long long v) { long long o = *p; if (v < o) *p = v; return o; }
static inline long long atomicMax(long long* p, long long v) { long long o = *p; if (v > o) *p = v; return o; }
static inline void __threadfence() {}
static inline unsigned __match_any_sync(unsigned, unsigned) { return 1u; }
template <typename T> static inline T __shfl_sync(unsigned, T v, int) { return v; }
template <typename T> static inline T __shfl_xor_sync(unsigned, T v, int) { return v; }
static inline long long __double_as_longlong(double d) { long long x; memcpy(&x, &d, 8); return x; }
// GQ_HOST_DIVERGENT makes every warp look divergent, so the kernels take
// their general paths (the aggregation's per-peer loop).
#ifdef GQ_HOST_DIVERGENT
static inline bool __all_sync(unsigned, bool) { return false; }
#else
static inline bool __all_sync(unsigned, bool b) { return b; }
#endif
