// Device sort (arrowgpu/sort.go): a stable LSD radix sort of row indices
// by u64 order keys, a byte per pass, one sort key after another from the
// least significant. A pass: per tile of rows, the count of each byte
// value (gq_sort_hist); an exclusive scan of the counts, byte-major, so
// that a tile's rows of byte d go after every row of a smaller byte and
// after the earlier tiles' rows of d (gq_scan_u32); then each tile writes
// its rows there in their order (gq_sort_scatter).

#define GQ_SORT_SIGN 0x8000000000000000ULL

// perm[i] = i.
extern "C" __global__ void gq_sort_iota(i32* perm, i64 n) {
	GQ_FOR(i, n) { perm[i] = (i32)i; }
}

// gq_sort_key writes okey[i], the order key of row perm[i] of a column
// (width 8: int64, decimal or, isDouble, double bits; 4: date32): its
// unsigned order is the sort's, as exec's normalised sort keys (a double's
// -0 is 0 and every NaN sorts after +Inf), complemented when descending.
// A NULL's key is 0: gq_sort_null_key's pass, after this key's, places
// the NULLs.
extern "C" __global__ void gq_sort_key(const void* v, int width, int isDouble, const u8* valid, int desc, const i32* perm, u64* okey, i64 n) {
	GQ_FOR(i, n) {
		i64 r = perm[i];
		u64 k = 0;
		if (gq_bit(valid, r)) {
			if (width == 4) {
				k = (u64)(i64)((const i32*)v)[r] ^ GQ_SORT_SIGN;
			} else if (isDouble) {
				double x = ((const double*)v)[r];
				k = x == 0 ? GQ_SORT_SIGN : isnan(x) ? ~0ULL : gq_double_order(x);
			} else {
				k = (u64)((const i64*)v)[r] ^ GQ_SORT_SIGN;
			}
			if (desc) k = ~k;
		}
		okey[i] = k;
	}
}

// gq_sort_key128 writes okey[i], the order key of word w of row perm[i]
// of a DECIMAL(38) column: the low word as is (1), the high word with its
// sign bit flipped (0); a key's passes sort by the low word, then the
// high. Complemented when descending; 0 for a NULL, as gq_sort_key.
extern "C" __global__ void gq_sort_key128(const gq_i128* v, int w, const u8* valid, int desc, const i32* perm, u64* okey, i64 n) {
	GQ_FOR(i, n) {
		i64 r = perm[i];
		u64 k = 0;
		if (gq_bit(valid, r)) {
			k = w == 1 ? v[r].lo : (u64)v[r].hi ^ GQ_SORT_SIGN;
			if (desc) k = ~k;
		}
		okey[i] = k;
	}
}

// gq_sort_null_key writes okey[i] = 0 for row perm[i] when it sorts first
// (a NULL under NULLS FIRST, a value under NULLS LAST), else 1.
extern "C" __global__ void gq_sort_null_key(const u8* valid, int nullsFirst, const i32* perm, u64* okey, i64 n) {
	GQ_FOR(i, n) {
		bool null = !gq_bit(valid, perm[i]);
		okey[i] = null == (nullsFirst != 0) ? 0 : 1;
	}
}

// gq_sort_span: bits[0] &= every key, bits[1] |= every key; the bytes in
// which the two differ are the passes worth running. Blocks of 256.
extern "C" __global__ void gq_sort_span(const u64* okey, i64 n, u64* bits) {
	__shared__ u64 sa[256], so[256];
	u64 a = ~0ULL, o = 0;
	GQ_FOR(i, n) {
		a &= okey[i];
		o |= okey[i];
	}
	int t = threadIdx.x;
	sa[t] = a;
	so[t] = o;
	__syncthreads();
	for (int d = 128; d > 0; d >>= 1) {
		if (t < d) {
			sa[t] &= sa[t + d];
			so[t] |= so[t + d];
		}
		__syncthreads();
	}
	if (t == 0) {
		atomicAnd(&bits[0], sa[0]);
		atomicOr(&bits[1], so[0]);
	}
}

// gq_sort_hist: counts[d * tiles + b] = the rows of tile b (a block of
// 256 threads; tile rows from b * tile) whose byte at shift is d.
extern "C" __global__ void gq_sort_hist(const u64* okey, i64 n, int shift, i64 tile, u32 tiles, u32* counts) {
	__shared__ u32 h[256];
	int t = threadIdx.x;
	h[t] = 0;
	__syncthreads();
	i64 lo = (i64)blockIdx.x * tile, hi = lo + tile < n ? lo + tile : n;
	for (i64 i = lo + t; i < hi; i += 256) atomicAdd(&h[(okey[i] >> shift) & 255u], 1u);
	__syncthreads();
	counts[(i64)t * tiles + blockIdx.x] = h[t];
}

// gq_sort_scatter moves tile b's rows (keys and perm) to their places:
// at offsets[d * tiles + b] onwards for byte d, in the tile's order. A
// round takes 256 consecutive rows; within it a row's place among the
// rows of its byte is its warp's earlier lanes of that byte (ballots) plus
// the earlier warps' counts (cnt). Blocks of 256 threads: thread d also
// keeps byte d's next place (base).
extern "C" __global__ void gq_sort_scatter(const u64* okey, const i32* perm, i64 n, int shift, i64 tile, u32 tiles, const u32* offsets, u64* okeyOut, i32* permOut) {
	__shared__ u32 base[256];
	__shared__ u32 cnt[8][256];
	int t = threadIdx.x, lane = t & 31, warp = t >> 5;
	base[t] = offsets[(i64)t * tiles + blockIdx.x];
	i64 lo = (i64)blockIdx.x * tile, hi = lo + tile < n ? lo + tile : n;
	for (i64 r0 = lo; r0 < hi; r0 += 256) {
		for (int w = 0; w < 8; w++) cnt[w][t] = 0;
		__syncthreads();
		i64 i = r0 + t;
		bool in = i < hi;
		u64 k = in ? okey[i] : 0;
		u32 d = (u32)(k >> shift) & 255u;
		// peers: the lanes of this warp holding a row of byte d.
		u32 peers = __ballot_sync(GQ_FULL_MASK, in);
		for (int bit = 0; bit < 8; bit++) {
			u32 b = __ballot_sync(GQ_FULL_MASK, (d >> bit) & 1u);
			peers &= ((d >> bit) & 1u) ? b : ~b;
		}
		u32 rank = __popc(peers & ((1u << lane) - 1u));
		if (in && rank == 0) cnt[warp][d] = __popc(peers);
		__syncthreads();
		if (in) {
			u32 at = base[d] + rank;
			for (int w = 0; w < warp; w++) at += cnt[w][d];
			okeyOut[at] = k;
			permOut[at] = perm[i];
		}
		__syncthreads();
		u32 sum = 0;
		for (int w = 0; w < 8; w++) sum += cnt[w][t];
		base[t] += sum;
		__syncthreads();
	}
}

// gq_sort_str_word writes okey[i], the order key of word w of row perm[i]
// of a string column: its bytes w*8 to w*8+7 big-endian, zeros past the
// end (gq_sort_str_len's pass, before the words', orders a string before
// the longer ones it is a prefix of), complemented when descending; 0 for
// a NULL.
extern "C" __global__ void gq_sort_str_word(const i32* offs, const u8* bytes, const u8* valid, int desc, int w, const i32* perm, u64* okey, i64 n) {
	GQ_FOR(i, n) {
		i64 r = perm[i];
		u64 k = 0;
		if (gq_bit(valid, r)) {
			i32 lo = offs[r] + w * 8, hi = offs[r + 1];
			for (int b = 0; b < 8; b++) {
				k = (k << 8) | (lo + b < hi ? bytes[lo + b] : 0);
			}
			if (desc) k = ~k;
		}
		okey[i] = k;
	}
}

// gq_sort_str_len writes okey[i], the byte length of row perm[i] of a
// string column (complemented when descending; 0 for a NULL).
extern "C" __global__ void gq_sort_str_len(const i32* offs, const u8* valid, int desc, const i32* perm, u64* okey, i64 n) {
	GQ_FOR(i, n) {
		i64 r = perm[i];
		u64 k = 0;
		if (gq_bit(valid, r)) {
			k = (u64)(offs[r + 1] - offs[r]);
			if (desc) k = ~k;
		}
		okey[i] = k;
	}
}
