// Helpers for generated (fused) expression kernels; prepended, after
// common.cuh, to every generated source. The semantics are the CPU
// evaluator's (expr): overflow is an error, decimal rescaling and
// division round half away from zero, x/0 and x%0 are NULL.

__constant__ i64 gq_pow10[19] = {
	1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL,
	100000000LL, 1000000000LL, 10000000000LL, 100000000000LL,
	1000000000000LL, 10000000000000LL, 100000000000000LL,
	1000000000000000LL, 10000000000000000LL, 100000000000000000LL,
	1000000000000000000LL};

// Each returns false on overflow.
__device__ __forceinline__ bool gq_add(i64 a, i64 b, i64* r) {
	i64 s = (i64)((u64)a + (u64)b);
	*r = s;
	return ((a ^ s) & (b ^ s)) >= 0;
}

__device__ __forceinline__ bool gq_sub(i64 a, i64 b, i64* r) {
	i64 s = (i64)((u64)a - (u64)b);
	*r = s;
	return ((a ^ b) & (a ^ s)) >= 0;
}

__device__ __forceinline__ bool gq_mul(i64 a, i64 b, i64* r) {
	i64 lo = (i64)((u64)a * (u64)b);
	i64 hi = __mul64hi(a, b);
	*r = lo;
	return hi == (lo >> 63);
}

// v / d (d > 0) rounded half away from zero.
__device__ __forceinline__ i64 gq_div_round(i64 v, i64 d) {
	i64 q = v / d, r = v % d;
	if (r < 0) r = -r;
	if (2 * (u64)r >= (u64)d) q += v < 0 ? -1 : 1;
	return q;
}

// Changes the scale of v from s to t.
__device__ __forceinline__ bool gq_rescale(i64 v, int s, int t, i64* r) {
	if (t >= s) return gq_mul(v, gq_pow10[t - s], r);
	*r = gq_div_round(v, gq_pow10[s - t]);
	return true;
}

// gq_cmp_scaled compares a·10^-as with b·10^-bs exactly: -1, 0 or 1. The
// side brought to the larger scale may not fit in 64 bits; then its
// magnitude exceeds any i64 and its sign decides.
__device__ __forceinline__ int gq_cmp_scaled(i64 a, int as, i64 b, int bs) {
	i64 x = a, y = b;
	if (as < bs && !gq_mul(a, gq_pow10[bs - as], &x)) return a < 0 ? -1 : 1;
	if (bs < as && !gq_mul(b, gq_pow10[as - bs], &y)) return b < 0 ? 1 : -1;
	return (x > y) - (x < y);
}

// a*10^e / b rounded half away from zero, 0 <= e <= 18, b != 0: the
// 128-bit product by __umul64hi, then a 128/64 shift-subtract division
// (no __int128, which NVRTC versions treat differently).
__device__ __forceinline__ bool gq_div_scaled(i64 a, int e, i64 b, i64* r) {
	bool neg = (a < 0) != (b < 0);
	u64 ua = a < 0 ? (u64)0 - (u64)a : (u64)a;
	u64 ub = b < 0 ? (u64)0 - (u64)b : (u64)b;
	u64 p = (u64)gq_pow10[e];
	u64 hi = __umul64hi(ua, p), lo = ua * p;
	if (hi >= ub) return false;
	u64 q = 0, rem = hi;
	for (int k = 63; k >= 0; k--) {
		u64 top = rem >> 63;
		rem = (rem << 1) | ((lo >> k) & 1);
		q <<= 1;
		if (top || rem >= ub) { rem -= ub; q |= 1; }
	}
	if (rem >= ub - rem) q++;
	if (q > 0x7fffffffffffffffULL) return false;
	*r = neg ? -(i64)q : (i64)q;
	return true;
}

// A float to a scaled integer, rounding half away from zero (Go math.Round).
__device__ __forceinline__ bool gq_f2i(double f, int scale, i64* r) {
	double v = round(f * (double)gq_pow10[scale]);
	if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return false;
	*r = (i64)v;
	return true;
}

// Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
__device__ __forceinline__ void gq_civil(i32 days, i64* y, i64* m, i64* d) {
	i64 z = (i64)days + 719468;
	i64 era = (z >= 0 ? z : z - 146096) / 146097;
	i64 doe = z - era * 146097;
	i64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	i64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	i64 mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

// Strings (bytes and length of one row) against constants.
__device__ __forceinline__ bool gq_bytes_eq(const u8* a, const u8* b, i32 n) {
	for (i32 i = 0; i < n; i++) {
		if (a[i] != b[i]) return false;
	}
	return true;
}

// gq_find is the start of the leftmost lit[0..m) in s[from..n), or -1.
__device__ __forceinline__ i32 gq_find(const u8* s, i32 n, i32 from, const u8* lit, i32 m) {
	for (i32 i = from; i + m <= n; i++) {
		if (gq_bytes_eq(s + i, lit, m)) return i;
	}
	return -1;
}

// gq_utf8_width is the byte length of the UTF-8 sequence at s (n bytes
// left), 1 for an invalid or truncated one: Go's decoding, by which the
// CPU's string functions count characters.
__device__ __forceinline__ i32 gq_utf8_width(const u8* s, i32 n) {
	u8 b = s[0];
	if (b < 0x80) return 1;
	i32 w;
	u8 lo = 0x80, hi = 0xBF;
	if (b >= 0xC2 && b <= 0xDF) w = 2;
	else if (b == 0xE0) { w = 3; lo = 0xA0; }
	else if (b >= 0xE1 && b <= 0xEC) w = 3;
	else if (b == 0xED) { w = 3; hi = 0x9F; }
	else if (b == 0xEE || b == 0xEF) w = 3;
	else if (b == 0xF0) { w = 4; lo = 0x90; }
	else if (b >= 0xF1 && b <= 0xF3) w = 4;
	else if (b == 0xF4) { w = 4; hi = 0x8F; }
	else return 1;
	if (n < w || s[1] < lo || s[1] > hi) return 1;
	for (i32 k = 2; k < w; k++) {
		if (s[k] < 0x80 || s[k] > 0xBF) return 1;
	}
	return w;
}

// gq_substring is MySQL's SUBSTRING(s, start[, len]) by characters, as
// the CPU evaluator's: start 1 is the first character, a negative start
// counts from the end, 0 or a length <= 0 give ''. It writes the result's
// byte offset in s and its byte length.
__device__ __forceinline__ void gq_substring(const u8* s, i32 n, i64 start, i64 len, bool hasLen, i32* off, i32* outn) {
	*off = 0;
	*outn = 0;
	i64 nch = 0;
	for (i32 i = 0; i < n; i += gq_utf8_width(s + i, n - i)) nch++;
	if (start == 0 || (hasLen && len <= 0)) return;
	if (start < 0) {
		start += nch;
		if (start < 0) return;
	} else {
		start--;
	}
	if (start >= nch) return;
	i64 end = nch;
	if (hasLen && len < nch - start) end = start + len;
	i32 bs = n, be = n;
	i64 ch = 0;
	for (i32 i = 0; i < n; i += gq_utf8_width(s + i, n - i)) {
		if (ch == start) bs = i;
		if (ch == end) {
			be = i;
			break;
		}
		ch++;
	}
	*off = bs;
	*outn = be - bs;
}
