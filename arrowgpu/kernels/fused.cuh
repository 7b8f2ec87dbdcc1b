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

// DECIMAL(38) (gq_i128) arithmetic, the CPU's (expr/wide.go): a result
// past 38 digits is an overflow; rescaling and division round half away
// from zero. gq_p10_lo/hi are 10^0 … 10^38's two words.
__constant__ u64 gq_p10_lo[39] = {
	0x0000000000000001ULL, 0x000000000000000aULL, 0x0000000000000064ULL, 0x00000000000003e8ULL,
	0x0000000000002710ULL, 0x00000000000186a0ULL, 0x00000000000f4240ULL, 0x0000000000989680ULL,
	0x0000000005f5e100ULL, 0x000000003b9aca00ULL, 0x00000002540be400ULL, 0x000000174876e800ULL,
	0x000000e8d4a51000ULL, 0x000009184e72a000ULL, 0x00005af3107a4000ULL, 0x00038d7ea4c68000ULL,
	0x002386f26fc10000ULL, 0x016345785d8a0000ULL, 0x0de0b6b3a7640000ULL, 0x8ac7230489e80000ULL,
	0x6bc75e2d63100000ULL, 0x35c9adc5dea00000ULL, 0x19e0c9bab2400000ULL, 0x02c7e14af6800000ULL,
	0x1bcecceda1000000ULL, 0x161401484a000000ULL, 0xdcc80cd2e4000000ULL, 0x9fd0803ce8000000ULL,
	0x3e25026110000000ULL, 0x6d7217caa0000000ULL, 0x4674edea40000000ULL, 0xc0914b2680000000ULL,
	0x85acef8100000000ULL, 0x38c15b0a00000000ULL, 0x378d8e6400000000ULL, 0x2b878fe800000000ULL,
	0xb34b9f1000000000ULL, 0x00f436a000000000ULL, 0x098a224000000000ULL,
};
__constant__ i64 gq_p10_hi[39] = {
	0LL, 0LL, 0LL, 0LL,
	0LL, 0LL, 0LL, 0LL,
	0LL, 0LL, 0LL, 0LL,
	0LL, 0LL, 0LL, 0LL,
	0LL, 0LL, 0LL, 0LL,
	5LL, 54LL, 542LL, 5421LL,
	54210LL, 542101LL, 5421010LL, 54210108LL,
	542101086LL, 5421010862LL, 54210108624LL, 542101086242LL,
	5421010862427LL, 54210108624275LL, 542101086242752LL, 5421010862427522LL,
	54210108624275221LL, 542101086242752217LL, 5421010862427522170LL,
};
__device__ __forceinline__ gq_i128 gq_pow10w(int e) { return gq_i128(gq_p10_lo[e], gq_p10_hi[e]); }

__device__ __forceinline__ gq_i128 gq_neg128(gq_i128 a) {
	u64 lo = ~a.lo + 1;
	return gq_i128(lo, (i64)(~(u64)a.hi + (lo == 0 ? 1 : 0)));
}
__device__ __forceinline__ gq_i128 gq_abs128(gq_i128 a) { return a.hi < 0 ? gq_neg128(a) : a; }
__device__ __forceinline__ gq_i128 gq_wrapadd128(gq_i128 a, gq_i128 b) {
	u64 lo = a.lo + b.lo;
	return gq_i128(lo, (i64)((u64)a.hi + (u64)b.hi + (lo < a.lo ? 1 : 0)));
}

// gq_fits_digits: v has at most p digits (p <= 38); the most negative
// 128-bit value, whose magnitude wraps, has more.
__device__ __forceinline__ bool gq_fits_digits(gq_i128 v, int p) {
	if (v.hi == (-9223372036854775807LL - 1) && v.lo == 0) return false;
	return gq_abs128(v) < gq_pow10w(p);
}

__device__ __forceinline__ bool gq_add128(gq_i128 a, gq_i128 b, gq_i128* r) {
	gq_i128 s = gq_wrapadd128(a, b);
	*r = s;
	if ((a.hi >= 0) == (b.hi >= 0) && (s.hi >= 0) != (a.hi >= 0)) return false;
	return gq_fits_digits(s, 38);
}

__device__ __forceinline__ bool gq_sub128(gq_i128 a, gq_i128 b, gq_i128* r) {
	gq_i128 s = gq_wrapadd128(a, gq_neg128(b));
	*r = s;
	if ((a.hi >= 0) != (b.hi >= 0) && (s.hi >= 0) != (a.hi >= 0)) return false;
	return gq_fits_digits(s, 38);
}

// gq_mul128 multiplies magnitudes of at most 127 bits word by word; a
// product past 127 bits or 38 digits is an overflow.
__device__ __forceinline__ bool gq_mul128(gq_i128 a, gq_i128 b, gq_i128* r) {
	bool neg = (a.hi < 0) != (b.hi < 0);
	gq_i128 ua = gq_abs128(a), ub = gq_abs128(b);
	u64 ah = (u64)ua.hi, al = ua.lo, bh = (u64)ub.hi, bl = ub.lo;
	if (ah != 0 && bh != 0) return false;
	u64 lo = al * bl, hi = __umul64hi(al, bl);
	if (__umul64hi(ah, bl) != 0 || __umul64hi(al, bh) != 0) return false;
	u64 c1 = ah * bl, c2 = al * bh;
	u64 t = hi + c1;
	if (t < hi) return false;
	hi = t + c2;
	if (hi < t || (hi >> 63) != 0) return false;
	gq_i128 p(lo, (i64)hi);
	if (!gq_fits_digits(p, 38)) return false;
	*r = neg ? gq_neg128(p) : p;
	return true;
}

// gq_udivmod128 divides magnitudes: q = u / d, rem = u % d (d != 0), by
// 64-bit division where both fit in a word, else shift and subtract.
__device__ __forceinline__ void gq_udivmod128(gq_i128 u, gq_i128 d, gq_i128* q, gq_i128* rem) {
	if (u.hi == 0 && d.hi == 0) {
		*q = gq_i128(u.lo / d.lo, 0);
		*rem = gq_i128(u.lo % d.lo, 0);
		return;
	}
	u64 qh = 0, ql = 0, rh = 0, rl = 0;
	for (int k = 127; k >= 0; k--) {
		rh = (rh << 1) | (rl >> 63);
		rl = (rl << 1) | (k >= 64 ? ((u64)u.hi >> (k - 64)) & 1 : (u.lo >> k) & 1);
		if (rh > (u64)d.hi || (rh == (u64)d.hi && rl >= d.lo)) {
			u64 nl = rl - d.lo;
			rh = rh - (u64)d.hi - (rl < d.lo ? 1 : 0);
			rl = nl;
			if (k >= 64) qh |= 1ULL << (k - 64); else ql |= 1ULL << k;
		}
	}
	*q = gq_i128(ql, (i64)qh);
	*rem = gq_i128(rl, (i64)rh);
}

// v / d (d > 0) rounded half away from zero.
__device__ __forceinline__ gq_i128 gq_divround128(gq_i128 v, gq_i128 d) {
	bool neg = v.hi < 0;
	gq_i128 q, r;
	gq_udivmod128(gq_abs128(v), d, &q, &r);
	gq_i128 rest;
	rest = gq_wrapadd128(d, gq_neg128(r));
	if (!(r < rest)) q = gq_wrapadd128(q, gq_i128(1));
	return neg ? gq_neg128(q) : q;
}

// Changes the scale of v from s to t (rescaleW).
__device__ __forceinline__ bool gq_rescale128(gq_i128 v, int s, int t, gq_i128* r) {
	if (t == s) { *r = v; return true; }
	if (t > s) {
		if (t - s > 38) { *r = gq_i128(0); return v == gq_i128(0); }
		return gq_mul128(v, gq_pow10w(t - s), r);
	}
	if (s - t > 38) { *r = gq_i128(0); return true; }
	*r = gq_divround128(v, gq_pow10w(s - t));
	return true;
}

// gq_divscaled128 is a·10^e / b rounded half away from zero (b != 0,
// 0 <= e <= 38), divScaledW: the product in 256 bits (four words, most
// significant first), divided by shift and subtract; false where the
// quotient passes 127 bits or 38 digits.
__device__ __forceinline__ bool gq_divscaled128(gq_i128 a, int e, gq_i128 b, gq_i128* r) {
	bool neg = (a.hi < 0) != (b.hi < 0);
	gq_i128 ua = gq_abs128(a), ub = gq_abs128(b), p = gq_pow10w(e);
	u64 al = ua.lo, ah = (u64)ua.hi, pl = p.lo, ph = (u64)p.hi;
	// n = ua * p: n3 n2 n1 n0.
	u64 n0 = al * pl, c = __umul64hi(al, pl);
	u64 m1 = al * ph, m1h = __umul64hi(al, ph);
	u64 m2 = ah * pl, m2h = __umul64hi(ah, pl);
	u64 m3 = ah * ph, m3h = __umul64hi(ah, ph);
	u64 n1 = c + m1, k1 = n1 < c ? 1 : 0;
	u64 t = n1 + m2;
	k1 += t < n1 ? 1 : 0;
	n1 = t;
	u64 n2 = m1h + m2h, k2 = n2 < m1h ? 1 : 0;
	t = n2 + m3;
	k2 += t < n2 ? 1 : 0;
	n2 = t + k1;
	k2 += n2 < t ? 1 : 0;
	u64 n3 = m3h + k2;
	u64 n[4] = {n3, n2, n1, n0};
	u64 dh = (u64)ub.hi, dl = ub.lo, rh = 0, rl = 0, qh = 0, ql = 0;
	for (int k = 255; k >= 0; k--) {
		u64 top = rh >> 63;
		rh = (rh << 1) | (rl >> 63);
		rl = (rl << 1) | ((n[3 - k / 64] >> (k % 64)) & 1);
		if (top || rh > dh || (rh == dh && rl >= dl)) {
			u64 nl = rl - dl;
			rh = rh - dh - (rl < dl ? 1 : 0);
			rl = nl;
			if (k >= 127) return false;
			if (k >= 64) qh |= 1ULL << (k - 64); else ql |= 1ULL << k;
		}
	}
	// Round: the remainder against what the divisor leaves.
	gq_i128 rem(rl, (i64)rh), rest = gq_wrapadd128(ub, gq_neg128(gq_i128(rl, (i64)rh)));
	gq_i128 q(ql, (i64)qh);
	if (!(rem < rest)) q = gq_wrapadd128(q, gq_i128(1));
	if (!gq_fits_digits(q, 38)) return false;
	*r = neg ? gq_neg128(q) : q;
	return true;
}

// gq_mod128 is a % b (b != 0): truncated, the sign of a (quoRemW).
__device__ __forceinline__ gq_i128 gq_mod128(gq_i128 a, gq_i128 b) {
	gq_i128 q, r;
	gq_udivmod128(gq_abs128(a), gq_abs128(b), &q, &r);
	return a.hi < 0 ? gq_neg128(r) : r;
}

// gq_cmp_scaled128 compares a·10^-as with b·10^-bs exactly: -1, 0 or 1.
// A side that passes 38 digits once rescaled is beyond every value of the
// other, which has at most 38 (cmpScaledW).
__device__ __forceinline__ int gq_cmp_scaled128(gq_i128 a, int as, gq_i128 b, int bs) {
	gq_i128 x = a, y = b;
	if (as < bs && !gq_rescale128(a, as, bs, &x)) return a.hi < 0 ? -1 : 1;
	if (bs < as && !gq_rescale128(b, bs, as, &y)) return b.hi < 0 ? 1 : -1;
	return (x > y) - (x < y);
}

// gq_i128_to_double is v·10^-s (0 <= s <= 38) as the nearest double, ties
// to even: expr.decToFloat (expr/decfloat.go) step for step, so the device
// and the CPU agree bit for bit. Both operands exact (|v| < 2^53, s <= 22):
// one IEEE division. Otherwise Q = floor(|v|·2^k / 10^s), k = 55+ld-lu
// (lu, ld: the bit lengths), lies in [2^54, 2^56) and comes from restoring
// division over 56 steps; the remainder and any bits of |v| shifted out
// are the sticky bit of the rounding to 53 bits.
__constant__ double gq_p10f[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
__device__ __forceinline__ int gq_bitlen128(u64 hi, u64 lo) {
	return hi != 0 ? 128 - __clzll((i64)hi) : 64 - __clzll((i64)lo);
}
// gq_shift128: hi·2^64+lo shifted left by n (right by -n when n < 0).
__device__ __forceinline__ void gq_shift128(u64 hi, u64 lo, int n, u64* rh, u64* rl) {
	if (n >= 128 || n <= -128) { *rh = 0; *rl = 0; }
	else if (n >= 64) { *rh = lo << (n - 64); *rl = 0; }
	else if (n > 0) { *rh = hi << n | lo >> (64 - n); *rl = lo << n; }
	else if (n == 0) { *rh = hi; *rl = lo; }
	else if (n > -64) { *rh = hi >> -n; *rl = lo >> -n | hi << (64 + n); }
	else { *rh = 0; *rl = hi >> (-n - 64); }
}
__device__ __forceinline__ u64 gq_bit128(u64 hi, u64 lo, int j) {
	if (j < 0 || j >= 128) return 0;
	return j < 64 ? lo >> j & 1 : hi >> (j - 64) & 1;
}
__device__ __forceinline__ double gq_i128_to_double(gq_i128 v, int s) {
	bool neg = v.hi < 0;
	gq_i128 u = gq_abs128(v);
	u64 hi = (u64)u.hi, lo = u.lo;
	double f;
	if (hi == 0 && lo == 0) {
		f = 0.0;
	} else if (hi == 0 && lo < (1ULL << 53) && s <= 22) {
		f = (double)lo / gq_p10f[s];
	} else {
		gq_i128 d = gq_pow10w(s);
		u64 dh = (u64)d.hi, dl = d.lo;
		int k = 55 + gq_bitlen128(dh, dl) - gq_bitlen128(hi, lo);
		u64 rh, rl, q = 0;
		gq_shift128(hi, lo, k - 56, &rh, &rl);
		for (int i = 55; i >= 0; i--) {
			rh = rh << 1 | rl >> 63;
			rl = rl << 1 | gq_bit128(hi, lo, i - k);
			if (rh > dh || (rh == dh && rl >= dl)) {
				u64 b = rl < dl ? 1 : 0;
				rl -= dl;
				rh = rh - dh - b;
				q |= 1ULL << i;
			}
		}
		bool sticky = (rh | rl) != 0;
		if (k < 0) { // bits of |v| below 2^-k never entered the division
			int n = -k;
			u64 ml = n >= 64 ? ~0ULL : (1ULL << n) - 1, mh = n >= 128 ? ~0ULL : n > 64 ? (1ULL << (n - 64)) - 1 : 0;
			sticky = sticky || (lo & ml) != 0 || (hi & mh) != 0;
		}
		int sh = q >= (1ULL << 55) ? 3 : 2;
		u64 m = q >> sh, rem = q & ((1ULL << sh) - 1), half = 1ULL << (sh - 1);
		if (rem > half || (rem == half && (sticky || (m & 1) != 0))) m++;
		int e = 52 + sh - k;
		if (m == (1ULL << 53)) { m >>= 1; e++; }
		f = __longlong_as_double((i64)((u64)(e + 1023) << 52 | (m - (1ULL << 52))));
	}
	return neg ? -f : f;
}

// gq_narrow128 is v at scale s as an int64 at scale t of at most p digits
// (a DECIMAL(38) cast to BIGINT, p -1: any int64, or DECIMAL(p<=18));
// false where it does not fit.
__device__ __forceinline__ bool gq_narrow128(gq_i128 v, int s, int t, int p, i64* r) {
	gq_i128 x;
	if (!gq_rescale128(v, s, t, &x) || x.hi != ((i64)x.lo >> 63) || (p >= 0 && !gq_fits_digits(x, p))) return false;
	*r = (i64)x.lo;
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
