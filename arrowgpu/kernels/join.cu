// Hash join lookups: a table of the build side's rows by their keys (one
// or two integer-like columns), for joins whose build keys are unique (a
// primary key: each probe row finds at most one row). Open addressing with
// linear probing, at most half full: per slot the keys and the build row
// (-1: empty, -2: being written). Rows with a NULL key are not inserted and
// never match.

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

// flags[0] is set when two build rows share their keys.
extern "C" __global__ void gq_join_build(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, i64* tk0, i64* tk1, i32* trow, u32 mask, u32* flags) {
	GQ_FOR(i, n) {
		if (!gq_bit(v0, i) || (nkeys > 1 && !gq_bit(v1, i))) continue;
		i64 a = gq_join_key(k0, w0, i), b = nkeys > 1 ? gq_join_key(k1, w1, i) : 0;
		u32 s = (u32)gq_join_hash(a, b) & mask;
		for (;;) {
			i32 seen = (i32)atomicCAS((u32*)&trow[s], (u32)GQ_JOIN_EMPTY, (u32)GQ_JOIN_BUSY);
			if (seen == GQ_JOIN_EMPTY) {
				tk0[s] = a;
				tk1[s] = b;
				__threadfence();
				atomicExch((u32*)&trow[s], (u32)i);
				break;
			}
			while (seen == GQ_JOIN_BUSY) seen = *(volatile i32*)&trow[s];
			__threadfence();
			if (*(volatile i64*)&tk0[s] == a && *(volatile i64*)&tk1[s] == b) {
				atomicExch(&flags[0], 1u);
				break;
			}
			s = (s + 1) & mask;
		}
	}
}

// out_row[i] is the build row whose keys equal row i's, or -1; bit i of
// out_mask says whether there is one.
extern "C" __global__ void gq_join_probe(const void* k0, const u8* v0, int w0, const void* k1, const u8* v1, int w1, int nkeys,
		i64 n, const i64* tk0, const i64* tk1, const i32* trow, u32 mask, i32* out_row, u32* out_mask) {
	GQ_FOR_WARP(i, n) {
		i32 r = GQ_JOIN_EMPTY;
		if (i < n && gq_bit(v0, i) && (nkeys < 2 || gq_bit(v1, i))) {
			i64 a = gq_join_key(k0, w0, i), b = nkeys > 1 ? gq_join_key(k1, w1, i) : 0;
			u32 s = (u32)gq_join_hash(a, b) & mask;
			for (;;) {
				i32 row = trow[s];
				if (row == GQ_JOIN_EMPTY) break;
				if (tk0[s] == a && tk1[s] == b) {
					r = row;
					break;
				}
				s = (s + 1) & mask;
			}
		}
		if (i < n) out_row[i] = r;
		gq_put_bits(out_mask, i, r >= 0);
	}
}
