// Gathers: out[i] = in[idx[i]] for fixed-width values, bitmaps and strings.
// A negative index (a left join's row without a match) gathers a zero
// value, a clear bit and an empty string; the caller makes it NULL.

extern "C" __global__ void gq_gather_64(const u64* in, const i32* idx, u64* out, i64 n) {
	GQ_FOR(i, n) {
		i32 k = idx[i];
		out[i] = k >= 0 ? in[k] : 0;
	}
}

// DECIMAL(38): two words a row.
extern "C" __global__ void gq_gather_128(const u64* in, const i32* idx, u64* out, i64 n) {
	GQ_FOR(i, n) {
		i32 k = idx[i];
		out[2 * i] = k >= 0 ? in[2 * (i64)k] : 0;
		out[2 * i + 1] = k >= 0 ? in[2 * (i64)k + 1] : 0;
	}
}

extern "C" __global__ void gq_gather_32(const u32* in, const i32* idx, u32* out, i64 n) {
	GQ_FOR(i, n) {
		i32 k = idx[i];
		out[i] = k >= 0 ? in[k] : 0;
	}
}

// Bitmaps (validity, booleans); a null input bitmap gathers as all set.
extern "C" __global__ void gq_gather_bits(const u8* in, const i32* idx, u32* out, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool b = i < n && idx[i] >= 0 && gq_bit(in, idx[i]);
		gq_put_bits(out, i, b);
	}
}

// Strings in two steps around a gq_scan_u32: lengths of the gathered
// strings, then the bytes, one thread per string.
extern "C" __global__ void gq_gather_str_len(const i32* off, const i32* idx, u32* lens, i64 n) {
	GQ_FOR(i, n) {
		i32 r = idx[i];
		lens[i] = r >= 0 ? (u32)(off[r + 1] - off[r]) : 0;
	}
}

extern "C" __global__ void gq_gather_str_bytes(const i32* off, const u8* bytes, const i32* idx, const i32* outOff, u8* outBytes, i64 n) {
	GQ_FOR(i, n) {
		i32 r = idx[i];
		if (r < 0) continue;
		i32 s = off[r], e = off[r + 1], d = outOff[i];
		for (i32 k = s; k < e; k++) outBytes[d + (k - s)] = bytes[k];
	}
}

// out[j*n + r] = srcs[j][idx[r]]: nsrc 64-bit columns gathered by one
// index into one buffer (an aggregation's groups: one download for all).
extern "C" __global__ void gq_gather_64_many(const u64* const* srcs, int nsrc, const i32* idx, u64* out, i64 n) {
	GQ_FOR(r, n) {
		i32 k = idx[r];
		for (int j = 0; j < nsrc; j++) out[(i64)j * n + r] = srcs[j][k];
	}
}

// Concatenation (arrowgpu/concat.go): n bytes copied; n bits ORed into a
// zeroed bitmap from bit at on (a null source is all ones: no validity);
// string offsets 1..n of a piece rebased by the bytes before it.
extern "C" __global__ void gq_copy_bytes(const u8* src, u8* dst, i64 n) {
	GQ_FOR(i, n) { dst[i] = src[i]; }
}
// Fixed-width values a word at a time (a byte a thread moved a tenth of
// what the memory can: 60M-row join build sides are concatenated).
extern "C" __global__ void gq_copy_u64(const u64* src, u64* dst, i64 n) {
	GQ_FOR(i, n) { dst[i] = src[i]; }
}
extern "C" __global__ void gq_copy_u32(const u32* src, u32* dst, i64 n) {
	GQ_FOR(i, n) { dst[i] = src[i]; }
}
extern "C" __global__ void gq_copy_bits_at(const u8* src, i64 n, u32* dst, i64 at) {
	GQ_FOR(i, n) {
		if (gq_bit(src, i)) atomicOr(&dst[(at + i) >> 5], 1u << ((at + i) & 31));
	}
}
extern "C" __global__ void gq_offsets_rebase(const i32* src, i64 n, i32 base, i32* dst) {
	GQ_FOR(i, n) { dst[i] = src[i + 1] + base; }
}
