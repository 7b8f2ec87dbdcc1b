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
