// Hash joins: a table of the build side's rows by their keys (one or two
// integer-like columns). Open addressing with linear probing, at most half
// full: per slot the keys and the first build row with them (-1: empty,
// -2: being written); next[row] chains the build rows with equal keys (-1
// ends). Rows with a NULL key are not inserted and never match. When the
// build keys are unique (a primary key: flags[0] stays 0) a probe is one
// lookup per row (gq_join_probe); otherwise gq_join_count and
// gq_join_expand write every matching (probe row, build row) pair.

#define GQ_JOIN_EMPTY -1
#define GQ_JOIN_BUSY -2

// gq_join_key reads row i of a key column of width w (8: int64 or
// decimal64, 4: date32 or int32) as an int64.
__device__ __forceinline__ i64 gq_join_key(const void* col, int w, i64 i) {
	return w == 8 ? ((const i64*)col)[i] : (i64)((const i32*)col)[i];
}

__device__ __forceinline__ u64 gq_join_hash(i64 a, i64 b) {
	return gq_hash64((u64)a ^ (gq_hash64((u64)b) + 0x9e3779b97f4a7c15ULL));
}

// gq_join_first is row i's first matching build row, or -1.
__device__ __forceinline__ i32 gq_join_first(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 i, const i64* tk0, const i64* tk1, const i32* trow, u32 mask) {
	if (!gq_bit(v0, i) || (nkeys > 1 && !gq_bit(v1, i))) return GQ_JOIN_EMPTY;
	i64 a = gq_join_key(k0, w0, i), b = nkeys > 1 ? gq_join_key(k1, w1, i) : 0;
	u32 s = (u32)gq_join_hash(a, b) & mask;
	for (;;) {
		i32 row = trow[s];
		if (row == GQ_JOIN_EMPTY || (tk0[s] == a && tk1[s] == b)) return row;
		s = (s + 1) & mask;
	}
}

// flags[0] is set when two build rows share their keys.
extern "C" __global__ void gq_join_build(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, i64* tk0, i64* tk1, i32* trow, i32* next, u32 mask, u32* flags) {
	GQ_FOR(i, n) {
		if (!gq_bit(v0, i) || (nkeys > 1 && !gq_bit(v1, i))) continue;
		i64 a = gq_join_key(k0, w0, i), b = nkeys > 1 ? gq_join_key(k1, w1, i) : 0;
		u32 s = (u32)gq_join_hash(a, b) & mask;
		for (;;) {
			i32 seen = (i32)atomicCAS((u32*)&trow[s], (u32)GQ_JOIN_EMPTY, (u32)GQ_JOIN_BUSY);
			if (seen == GQ_JOIN_EMPTY) {
				tk0[s] = a;
				tk1[s] = b;
				next[i] = GQ_JOIN_EMPTY;
				__threadfence();
				atomicExch((u32*)&trow[s], (u32)i);
				break;
			}
			while (seen == GQ_JOIN_BUSY) seen = *(volatile i32*)&trow[s];
			__threadfence();
			if (*(volatile i64*)&tk0[s] == a && *(volatile i64*)&tk1[s] == b) {
				next[i] = (i32)atomicExch((u32*)&trow[s], (u32)i); // the keys are written: no longer busy
				// Read before written: every duplicate row writing the one
				// flag serialised the build on that address (lineitem by
				// l_orderkey, 60M rows at SF10: 99 ms; unique keys: 0.4 ns
				// a row).
				if (*(volatile u32*)&flags[0] == 0) atomicExch(&flags[0], 1u);
				break;
			}
			s = (s + 1) & mask;
		}
	}
}

// out_row[i] is the (first) build row whose keys equal row i's, or -1;
// bit i of out_mask says whether there is one (anti: whether there is
// none).
extern "C" __global__ void gq_join_probe(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, const i64* tk0, const i64* tk1, const i32* trow, u32 mask, int anti, i32* out_row, u32* out_mask) {
	GQ_FOR_WARP(i, n) {
		i32 r = i < n ? gq_join_first(k0, v0, w0, k1, v1, w1, nkeys, i, tk0, tk1, trow, mask) : GQ_JOIN_EMPTY;
		if (i < n) out_row[i] = r;
		gq_put_bits(out_mask, i, (r >= 0) != (anti != 0));
	}
}

// counts[i] is the number of build rows row i matches (left: at least 1,
// its row without a match); *total (u64) adds them up (one atomic per
// warp), so the caller can tell when the pairs would overflow 32-bit
// offsets.
extern "C" __global__ void gq_join_count(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, const i64* tk0, const i64* tk1, const i32* trow, const i32* next, u32 mask, int left, u32* counts, u64* total) {
	u64 mine = 0;
	GQ_FOR(i, n) {
		u32 c = 0;
		for (i32 r = gq_join_first(k0, v0, w0, k1, v1, w1, nkeys, i, tk0, tk1, trow, mask); r >= 0; r = next[r]) c++;
		if (c == 0 && left) c = 1;
		counts[i] = c;
		mine += c;
	}
#ifndef GQ_HOST_RUN
	for (int o = 16; o > 0; o >>= 1) mine += __shfl_xor_sync(GQ_FULL_MASK, mine, o);
	if ((threadIdx.x & 31) == 0 && mine) atomicAdd((unsigned long long*)total, (unsigned long long)mine);
#else
	atomicAdd((unsigned long long*)total, (unsigned long long)mine);
#endif
}

// Writes row i's pairs at offsets[i]: its index in probe, the build row in
// build (left: -1 for a row without a match).
extern "C" __global__ void gq_join_expand(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, const i64* tk0, const i64* tk1, const i32* trow, const i32* next, u32 mask, int left, const u32* offsets, i32* probe, i32* build) {
	GQ_FOR(i, n) {
		u32 at = offsets[i];
		if (left && offsets[i + 1] == at + 1) { // one pair: maybe the unmatched row
			i32 r = gq_join_first(k0, v0, w0, k1, v1, w1, nkeys, i, tk0, tk1, trow, mask);
			probe[at] = (i32)i;
			build[at] = r;
			continue;
		}
		for (i32 r = gq_join_first(k0, v0, w0, k1, v1, w1, nkeys, i, tk0, tk1, trow, mask); r >= 0; r = next[r]) {
			probe[at] = (i32)i;
			build[at] = r;
			at++;
		}
	}
}

// A semi or anti join with a further condition: pairs are written out
// (gq_join_expand), the condition evaluated per pair, then bit rows[r] of
// bits is set for each pair r the condition keeps (every pair without
// keep; bits zeroed first), and for an anti join every bit is inverted.
extern "C" __global__ void gq_mark_rows(const i32* rows, const u32* keep, i64 m, u32* bits) {
	GQ_FOR(r, m) {
		if (!keep || ((keep[r >> 5] >> (r & 31)) & 1)) atomicOr(&bits[rows[r] >> 5], 1u << (rows[r] & 31));
	}
}
extern "C" __global__ void gq_not_bits(u32* bits, i64 nwords) {
	GQ_FOR(w, nwords) { bits[w] = ~bits[w]; }
}
