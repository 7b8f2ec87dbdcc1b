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

// The validity of an output column of the table for another aggregation
// reading it (AggTable.Rows): a key's, from its NULL bit; a sum's, min's
// or max's, from its count.
extern "C" __global__ void gq_agg_key_valid(const u64* knull, int bit, u32* out, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		gq_put_bits(out, i, in && !((knull[in ? i : 0] >> bit) & 1ULL));
	}
}
extern "C" __global__ void gq_agg_count_valid(const u64* count, u32* out, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		gq_put_bits(out, i, in && count[in ? i : 0] > 0);
	}
}
