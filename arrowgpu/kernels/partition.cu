// Hash partitioning for the shuffle: hash an int64-like key column, count
// rows per partition, then scatter row indices so that each partition's
// rows are contiguous (gather with the result to build the partitions).
// Order within a partition is not defined (atomics).

// NULL keys hash as 0 (all NULLs land in one partition).
extern "C" __global__ void gq_hash_i64(const i64* keys, const u8* valid, u64* out, i64 n) {
	GQ_FOR(i, n) { out[i] = gq_bit(valid, i) ? gq_hash64((u64)keys[i]) : 0; }
}

extern "C" __global__ void gq_hash_i32(const i32* keys, const u8* valid, u64* out, i64 n) {
	GQ_FOR(i, n) { out[i] = gq_bit(valid, i) ? gq_hash64((u64)(i64)keys[i]) : 0; }
}

// pid[i] = hash[i] % nparts; counts[p] += rows of p. Dynamic shared memory
// of nparts words holds the block's histogram.
extern "C" __global__ void gq_partition_count(const u64* hash, i64 n, u32 nparts, u32* pid, u32* counts) {
	extern __shared__ u32 hist[];
	for (u32 p = threadIdx.x; p < nparts; p += blockDim.x) hist[p] = 0;
	__syncthreads();
	GQ_FOR(i, n) {
		u32 p = (u32)(hash[i] % nparts);
		pid[i] = p;
		atomicAdd(&hist[p], 1u);
	}
	__syncthreads();
	for (u32 p = threadIdx.x; p < nparts; p += blockDim.x) {
		if (hist[p]) atomicAdd(&counts[p], hist[p]);
	}
}

// cursor starts as the exclusive scan of counts; perm receives row indices.
extern "C" __global__ void gq_partition_scatter(const u32* pid, i64 n, u32* cursor, i32* perm) {
	GQ_FOR(i, n) { perm[atomicAdd(&cursor[pid[i]], 1u)] = (i32)i; }
}
