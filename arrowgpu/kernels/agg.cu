// Builtins of the grouped aggregation (arrowgpu/agg.go, agg_table.go).

// gq_fill_u64 sets n words to v: the identity of min and max accumulators.
extern "C" __global__ void gq_fill_u64(u64* p, u64 v, i64 n) {
	GQ_FOR(i, n) p[i] = v;
}

// gq_agg_ready writes a bitmap of the table's slots that hold a group.
extern "C" __global__ void gq_agg_ready(const u32* state, u32* out, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		gq_put_bits(out, i, in && state[in ? i : 0] == 2u);
	}
}
