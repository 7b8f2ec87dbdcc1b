// Hash partitioning for the shuffle: the CPU partitioner's hash of the
// key columns (exec/exchange_hash.go), a count of rows per partition, then
// a scatter of row numbers so that each partition's rows are contiguous
// (gather the columns with the result to build the partitions). Order
// within a partition is not defined (atomics).

// gq_part_hash folds one key column into h as the CPU does: h = mix(h*31
// + v), v the value's bits (kind 0: int64 or decimal; 1: int32 or date,
// sign-extended; 2: double, -0 as 0 and every NaN as Go's math.NaN(); 3:
// Boolean 0 or 1; 4: string, FNV-1a of its bytes) or, for a NULL, a
// constant. Entry i of h is row idx[i] of the column (row i without idx).
extern "C" __global__ void gq_part_hash(const void* data, const i32* offs, int kind, const u8* valid, const i32* idx, u64* h, i64 n) {
	GQ_FOR(i, n) {
		i64 r = idx ? idx[i] : i;
		u64 v;
		if (!gq_bit(valid, r)) {
			v = 0x9e3779b97f4a7c15ULL;
		} else if (kind == 0) {
			v = ((const u64*)data)[r];
		} else if (kind == 1) {
			v = (u64)(i64)((const i32*)data)[r];
		} else if (kind == 2) {
			double x = ((const double*)data)[r];
			v = x == 0 ? 0 : isnan(x) ? 0x7ff8000000000001ULL : (u64)__double_as_longlong(x);
		} else if (kind == 3) {
			v = gq_bit((const u8*)data, r) ? 1 : 0;
		} else {
			const u8* s = (const u8*)data;
			v = 14695981039346656037ULL;
			for (i32 k = offs[r]; k < offs[r + 1]; k++) {
				v ^= s[k];
				v *= 1099511628211ULL;
			}
		}
		h[i] = gq_hash64(h[i] * 31 + v);
	}
}

// pid[i] = mix(hash[i]) % nparts, as the CPU picks a partition from its
// hash; counts[p] += rows of p. Dynamic shared memory of nparts words
// holds the block's histogram.
extern "C" __global__ void gq_partition_count(const u64* hash, i64 n, u32 nparts, u32* pid, u32* counts) {
	extern __shared__ u32 hist[];
	for (u32 p = threadIdx.x; p < nparts; p += blockDim.x) hist[p] = 0;
	__syncthreads();
	GQ_FOR(i, n) {
		u32 p = (u32)(gq_hash64(hash[i]) % nparts);
		pid[i] = p;
		atomicAdd(&hist[p], 1u);
	}
	__syncthreads();
	for (u32 p = threadIdx.x; p < nparts; p += blockDim.x) {
		if (hist[p]) atomicAdd(&counts[p], hist[p]);
	}
}

// cursor starts as the exclusive scan of counts; perm receives the row
// numbers (idx[i], or i without idx). The lanes of a warp with the same
// partition take their places with one atomic (a few partitions — the
// ranks — would serialise an atomic per row on their cursors), in lane
// order.
extern "C" __global__ void gq_partition_scatter(const u32* pid, const i32* idx, i64 n, u32* cursor, i32* perm) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		u32 p = in ? pid[i] : 0xffffffffu;
		u32 peers = __match_any_sync(GQ_FULL_MASK, p);
		u32 lane = threadIdx.x & 31u, first = (u32)(__ffs(peers) - 1);
		u32 base = 0;
		if (in && lane == first) base = atomicAdd(&cursor[p], (u32)__popc(peers));
		base = __shfl_sync(GQ_FULL_MASK, base, first);
		if (in) perm[base + __popc(peers & ((1u << lane) - 1u))] = idx ? idx[i] : (i32)i;
	}
}

// gq_part_hash_words folds one group key of an aggregation table into h
// as gq_part_hash does its column: img holds the key's 64-bit images
// (integers, decimals, dates as days, Booleans as 0/1: the values the CPU
// hashes; doubles as bits, normalised here; or codes, whose values lookup
// holds: a string key's FNV-1a by code), knull a word per slot whose bit
// is set where the key is NULL. Entry i of h is slot idx[i].
extern "C" __global__ void gq_part_hash_words(const u64* img, int isDouble, const u64* lookup, const u64* knull, int bit, const i32* idx, u64* h, i64 n) {
	GQ_FOR(i, n) {
		i64 r = idx[i];
		u64 v = img[r];
		if ((knull[r] >> bit) & 1) {
			v = 0x9e3779b97f4a7c15ULL;
		} else if (lookup) {
			v = lookup[v];
		} else if (isDouble) {
			double x = __longlong_as_double((i64)v);
			v = x == 0 ? 0 : isnan(x) ? 0x7ff8000000000001ULL : v;
		}
		h[i] = gq_hash64(h[i] * 31 + v);
	}
}

// gq_part_fnv writes the FNV-1a hash of each of n strings (the value the
// CPU partitioner hashes a string as).
extern "C" __global__ void gq_part_fnv(const i32* offs, const u8* bytes, i64 n, u64* out) {
	GQ_FOR(i, n) {
		u64 v = 14695981039346656037ULL;
		for (i32 k = offs[i]; k < offs[i + 1]; k++) {
			v ^= bytes[k];
			v *= 1099511628211ULL;
		}
		out[i] = v;
	}
}
