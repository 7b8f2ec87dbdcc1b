// Top-N over an aggregation's groups (arrowgpu/agg_table.go TopN): a
// radix select of the N-th greatest order key among the candidates, a
// byte at a time from the most significant, then the mask of the groups
// to read back.

// gq_topn_hist counts, per value of the byte at shift, the candidates
// whose bytes above it are prefix's (above: the mask of those bits).
extern "C" __global__ void gq_topn_hist(const u64* okey, const u8* cand, u64 prefix, u64 above, int shift, u32* counts, i64 n) {
	__shared__ u32 h[256];
	for (int d = threadIdx.x; d < 256; d += blockDim.x) h[d] = 0;
	__syncthreads();
	GQ_FOR(i, n) {
		u64 k = okey[i];
		if (gq_bit(cand, i) && (k & above) == prefix) atomicAdd(&h[(k >> shift) & 255u], 1u);
	}
	__syncthreads();
	for (int d = threadIdx.x; d < 256; d += blockDim.x) {
		if (h[d]) atomicAdd(&counts[d], h[d]);
	}
}

// gq_topn_keep clears in mask the candidates whose order key is below t.
extern "C" __global__ void gq_topn_keep(const u64* okey, const u8* cand, u64 t, u32* mask, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		bool drop = in && gq_bit(cand, i) && okey[i] < t;
		u32 d = __ballot_sync(GQ_FULL_MASK, drop);
		if ((threadIdx.x & 31u) == 0 && d) mask[i >> 5] &= ~d; // the warp's own word
	}
}

// gq_order_key writes the order key of each row of a column (width 8:
// int64, decimal or double bits as isDouble says; 4: date32; 16: a
// DECIMAL(38), by its monotone int64 image gq_i128_clamp) for a top-N
// (flags: 1 descending, 2 NULLs first): a NULL is the greatest or the
// least key as the order places it; a NaN is no candidate (always kept).
// mask is set for every row (the keep kernel clears the ones dropped).
extern "C" __global__ void gq_order_key(const void* v, int width, int isDouble, const u8* valid, u32 flags, u64* okey, u32* cand, u32* mask, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		i64 r = in ? i : 0;
		bool null = !gq_bit(valid, r);
		u64 k;
		bool c = in;
		if (width == 4) {
			k = (u64)(i64)((const i32*)v)[r] ^ 0x8000000000000000ULL;
		} else if (width == 16) {
			k = (u64)gq_i128_clamp(((const gq_i128*)v)[r]) ^ 0x8000000000000000ULL;
		} else if (isDouble) {
			double x = ((const double*)v)[r];
			c = c && (null || !isnan(x));
			k = gq_double_order(x);
		} else {
			k = (u64)((const i64*)v)[r] ^ 0x8000000000000000ULL;
		}
		if (!(flags & 1u)) k = ~k;
		if (null) k = (flags & 2u) ? ~0ULL : 0ULL;
		if (in) okey[r] = c ? k : 0;
		gq_put_bits(cand, i, c);
		gq_put_bits(mask, i, in);
	}
}
