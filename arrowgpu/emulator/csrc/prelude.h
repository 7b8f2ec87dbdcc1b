// prelude.h is included (g++ -include) into every kernel module the
// emulator compiles: it gives the CUDA C that gq's kernels use a host
// meaning. Threads are fibers of the runtime (gqemu.cpp); thread indices,
// barriers and warp collectives call into it; shared memory is per OS
// thread (a launch's blocks run one after another on one OS thread);
// atomics are real atomics (launches on different streams run at once).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "gqemu.h"

static const gqemu_api* gqemu;
extern "C" void gqemu_init(const gqemu_api* api) { gqemu = api; }

#define __global__
#define __device__
#define __host__
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline
#define __constant__
#define __shared__ static thread_local
#define __restrict__ __restrict
#define __launch_bounds__(...)

#define threadIdx (gqemu->self()->tid)
#define blockIdx (gqemu->self()->bid)
#define blockDim (gqemu->self()->bdim)
#define gridDim (gqemu->self()->gdim)
#define warpSize 32

static inline void __syncthreads() { gqemu->syncthreads(); }
static inline void __syncwarp(unsigned mask = 0xffffffffu) { gqemu->warp(GQEMU_SYNCWARP, mask, 0, 0); }
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

static inline unsigned __ballot_sync(unsigned mask, int p) { return (unsigned)gqemu->warp(GQEMU_BALLOT, mask, p != 0, 0); }
static inline int __all_sync(unsigned mask, int p) { return __ballot_sync(mask, p) == mask; }
static inline int __any_sync(unsigned mask, int p) { return __ballot_sync(mask, p) != 0; }

template <typename T> static inline unsigned long long gqemu_bits(T v) {
	static_assert(sizeof(T) <= 8, "warp collectives on values of up to 8 bytes");
	unsigned long long x = 0;
	memcpy(&x, &v, sizeof(T));
	return x;
}
template <typename T> static inline T gqemu_from_bits(unsigned long long x) {
	T v;
	memcpy(&v, &x, sizeof(T));
	return v;
}
template <typename T> static inline unsigned __match_any_sync(unsigned mask, T v) {
	return (unsigned)gqemu->warp(GQEMU_MATCH_ANY, mask, gqemu_bits(v), 0);
}
// gqemu_shfl reads lane src's value; src is computed as the hardware does
// for a width that is a power of two up to 32.
template <typename T> static inline T gqemu_shfl(unsigned mask, T v, int src) {
	return gqemu_from_bits<T>(gqemu->warp(GQEMU_SHFL, mask, gqemu_bits(v), src));
}
template <typename T> static inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
	int lane = (int)gqemu->self()->lane;
	return gqemu_shfl(mask, v, (lane & ~(width - 1)) + (src & (width - 1)));
}
template <typename T> static inline T __shfl_xor_sync(unsigned mask, T v, int x, int width = 32) {
	int lane = (int)gqemu->self()->lane;
	int src = lane ^ x;
	if ((src & ~(width - 1)) != (lane & ~(width - 1))) src = lane;
	return gqemu_shfl(mask, v, src);
}
template <typename T> static inline T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32) {
	int lane = (int)gqemu->self()->lane;
	int src = lane + (int)d;
	if ((src & ~(width - 1)) != (lane & ~(width - 1))) src = lane;
	return gqemu_shfl(mask, v, src);
}
template <typename T> static inline T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32) {
	int lane = (int)gqemu->self()->lane;
	int src = lane - (int)d;
	if (src < 0 || (src & ~(width - 1)) != (lane & ~(width - 1))) src = lane;
	return gqemu_shfl(mask, v, src);
}

// Bit and arithmetic intrinsics.
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline unsigned __brev(unsigned x) {
	unsigned r = 0;
	for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
	return r;
}
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static inline double __longlong_as_double(long long x) { return gqemu_from_bits<double>((unsigned long long)x); }
static inline long long __double_as_longlong(double d) { return (long long)gqemu_bits(d); }
static inline float __int_as_float(int x) { return gqemu_from_bits<float>((unsigned)x); }
static inline int __float_as_int(float f) { return (int)gqemu_bits(f); }
template <typename T> static inline T __ldg(const T* p) { return *p; }

// Atomics: the hardware's set for the integer widths gq uses, and
// compare-and-swap loops for floating point.
#define GQEMU_ATOMICS(T)                                                                           \
	static inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }     \
	static inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }     \
	static inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }     \
	static inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }       \
	static inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }     \
	static inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }   \
	static inline T atomicCAS(T* p, T cmp, T v) {                                                  \
		__atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);      \
		return cmp;                                                                                \
	}                                                                                              \
	static inline T atomicMin(T* p, T v) {                                                         \
		T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                                \
		while (v < o && !__atomic_compare_exchange_n(p, &o, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) { \
		}                                                                                          \
		return o;                                                                                  \
	}                                                                                              \
	static inline T atomicMax(T* p, T v) {                                                         \
		T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                                \
		while (v > o && !__atomic_compare_exchange_n(p, &o, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) { \
		}                                                                                          \
		return o;                                                                                  \
	}
GQEMU_ATOMICS(int)
GQEMU_ATOMICS(unsigned)
GQEMU_ATOMICS(long long)
GQEMU_ATOMICS(unsigned long long)
#undef GQEMU_ATOMICS

template <typename F, typename B> static inline F gqemu_atomic_add_float(F* p, F v) {
	B* a = (B*)p;
	B o = __atomic_load_n(a, __ATOMIC_RELAXED);
	for (;;) {
		F f = gqemu_from_bits<F>(o);
		B n = (B)gqemu_bits<F>(f + v);
		if (__atomic_compare_exchange_n(a, &o, n, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return f;
	}
}
static inline double atomicAdd(double* p, double v) { return gqemu_atomic_add_float<double, unsigned long long>(p, v); }
static inline float atomicAdd(float* p, float v) { return gqemu_atomic_add_float<float, unsigned>(p, v); }
