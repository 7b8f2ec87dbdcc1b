// Filters: compare a column with a constant into a selection bitmap, AND
// bitmaps, and compact a bitmap into ordered row indices.

// Comparison operators, as in CmpOp (Go): eq ne lt le gt ge, in
// gq_less's order (doubles: NaN equals NaN and is above every number).
template <typename T>
__device__ __forceinline__ bool gq_cmp(T a, T b, int op) {
	bool lt = gq_less(a, b), gt = gq_less(b, a);
	switch (op) {
	case 0: return !lt && !gt;
	case 1: return lt || gt;
	case 2: return lt;
	case 3: return !gt;
	case 4: return gt;
	default: return !lt;
	}
}

// A NULL value never passes.
template <typename T>
__device__ void gq_cmp_const(const T* col, const u8* valid, T c, int op, u32* out, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool keep = i < n && gq_bit(valid, i) && gq_cmp(col[i], c, op);
		gq_put_bits(out, i, keep);
	}
}

extern "C" __global__ void gq_cmp_const_i64(const i64* col, const u8* valid, i64 c, int op, u32* out, i64 n) {
	gq_cmp_const<i64>(col, valid, c, op, out, n);
}

extern "C" __global__ void gq_cmp_const_i32(const i32* col, const u8* valid, i32 c, int op, u32* out, i64 n) {
	gq_cmp_const<i32>(col, valid, c, op, out, n);
}

extern "C" __global__ void gq_cmp_const_f64(const double* col, const u8* valid, double c, int op, u32* out, i64 n) {
	gq_cmp_const<double>(col, valid, c, op, out, n);
}

// out = a AND b, word by word.
extern "C" __global__ void gq_and_bits(const u32* a, const u32* b, u32* out, i64 nwords) {
	GQ_FOR(i, nwords) { out[i] = a[i] & b[i]; }
}

// Compaction of a bitmap of n rows into ascending row indices, in three
// launches: gq_count_words (set bits per block of GQ_SCAN_BLOCK words),
// gq_scan_u32 (exclusive scan of the block counts), gq_select_write.
#define GQ_SCAN_BLOCK 256

// Block-wide exclusive scan of one value per thread (blockDim.x ==
// GQ_SCAN_BLOCK); returns the exclusive prefix and sets *total.
__device__ u32 gq_block_exscan(u32 v, u32* total) {
	__shared__ u32 s[GQ_SCAN_BLOCK];
	int t = threadIdx.x;
	s[t] = v;
	__syncthreads();
	for (int d = 1; d < GQ_SCAN_BLOCK; d <<= 1) {
		u32 x = t >= d ? s[t - d] : 0;
		__syncthreads();
		s[t] += x;
		__syncthreads();
	}
	u32 incl = s[t];
	*total = s[GQ_SCAN_BLOCK - 1];
	__syncthreads();
	return incl - v;
}

// counts[b] = set bits in words [b*256, b*256+256) of mask (one block each).
// Bits past row n in the last word are ignored.
extern "C" __global__ void gq_count_words(const u32* mask, i64 nwords, i64 n, u32* counts) {
	i64 w = (i64)blockIdx.x * GQ_SCAN_BLOCK + threadIdx.x;
	u32 word = w < nwords ? mask[w] : 0;
	if (w == nwords - 1 && (n & 31)) word &= (1u << (n & 31)) - 1;
	u32 c = __popc(word);
	u32 total;
	gq_block_exscan(c, &total);
	if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// out[i] = sum of in[0..i) for i in [0, n], so out[n] is the total; one
// block of 1024 threads, each scanning a contiguous segment.
extern "C" __global__ void gq_scan_u32(const u32* in, u32* out, i64 n) {
	__shared__ u32 s[1024];
	int t = threadIdx.x;
	i64 seg = (n + 1023) / 1024;
	i64 lo = t * seg, hi = lo + seg < n ? lo + seg : n;
	u32 sum = 0;
	for (i64 i = lo; i < hi; i++) sum += in[i];
	s[t] = sum;
	__syncthreads();
	for (int d = 1; d < 1024; d <<= 1) {
		u32 x = t >= d ? s[t - d] : 0;
		__syncthreads();
		s[t] += x;
		__syncthreads();
	}
	u32 run = s[t] - sum;
	for (i64 i = lo; i < hi; i++) {
		u32 v = in[i];
		out[i] = run;
		run += v;
	}
	if (t == 1023) out[n] = s[1023];
}

// A scan of more entries than one block takes (Queue.scanLocked): tiles
// of GQ_SCAN_TILE entries, 8 per thread of 256. gq_scan_tiles writes each
// tile's sum; after gq_scan_u32 over the sums (offs), gq_scan_down writes
// out[i], the sum of in[0..i), and out[n], the total. Loads and stores go
// through shared memory so that a warp's are consecutive.
#define GQ_SCAN_TILE 2048

extern "C" __global__ void gq_scan_tiles(const u32* in, i64 n, u32* sums) {
	i64 lo = (i64)blockIdx.x * GQ_SCAN_TILE;
	u32 v = 0;
	for (int k = 0; k < GQ_SCAN_TILE / GQ_SCAN_BLOCK; k++) {
		i64 i = lo + k * GQ_SCAN_BLOCK + threadIdx.x;
		if (i < n) v += in[i];
	}
	u32 total;
	gq_block_exscan(v, &total);
	if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

extern "C" __global__ void gq_scan_down(const u32* in, i64 n, const u32* offs, u32* out, u32 tiles) {
	__shared__ u32 tile[GQ_SCAN_TILE];
	const int per = GQ_SCAN_TILE / GQ_SCAN_BLOCK;
	int t = threadIdx.x;
	i64 lo = (i64)blockIdx.x * GQ_SCAN_TILE;
	for (int k = 0; k < per; k++) {
		i64 i = lo + k * GQ_SCAN_BLOCK + t;
		tile[k * GQ_SCAN_BLOCK + t] = i < n ? in[i] : 0;
	}
	__syncthreads();
	u32 mine[GQ_SCAN_TILE / GQ_SCAN_BLOCK], sum = 0;
	for (int k = 0; k < per; k++) {
		mine[k] = tile[t * per + k];
		sum += mine[k];
	}
	u32 total;
	u32 run = offs[blockIdx.x] + gq_block_exscan(sum, &total); // its syncs order the reads above before the writes below
	for (int k = 0; k < per; k++) {
		tile[t * per + k] = run;
		run += mine[k];
	}
	__syncthreads();
	for (int k = 0; k < per; k++) {
		i64 i = lo + k * GQ_SCAN_BLOCK + t;
		if (i < n) out[i] = tile[k * GQ_SCAN_BLOCK + t];
	}
	if (blockIdx.x == tiles - 1 && t == 0) out[n] = offs[tiles];
}

// Writes the indices of set bits, ascending, at offsets[block] onwards.
extern "C" __global__ void gq_select_write(const u32* mask, i64 nwords, i64 n, const u32* offsets, i32* out) {
	i64 w = (i64)blockIdx.x * GQ_SCAN_BLOCK + threadIdx.x;
	u32 word = w < nwords ? mask[w] : 0;
	if (w == nwords - 1 && (n & 31)) word &= (1u << (n & 31)) - 1; // bits past n
	u32 total;
	u32 pos = offsets[blockIdx.x] + gq_block_exscan(__popc(word), &total);
	while (word) {
		int b = __ffs(word) - 1;
		out[pos++] = (i32)(w * 32 + b);
		word &= word - 1;
	}
}

// gq_keep_keys_i64 / _i32 clear the mask bits of rows whose key is NULL or
// not among a join filter's keys: d = key - lo must be <= span, then with a
// bitmap bit d must be set, or with a Bloom filter (bloom_mask+1 words) the
// key's four bits (exec/keyfilter.go keepIntKeys on the host: the same
// hash, gq_hash64, and pattern).
__device__ __forceinline__ bool gq_key_kept(i64 v, i64 lo, u64 span, const u64* bitmap, const u64* bloom, u64 bloom_mask) {
	u64 d = (u64)v - (u64)lo;
	if (d > span) return false;
	if (bitmap) return (bitmap[d >> 6] >> (d & 63)) & 1;
	if (bloom) {
		u64 h = gq_hash64((u64)v);
		u64 p = (1ULL << (h & 63)) | (1ULL << ((h >> 6) & 63)) | (1ULL << ((h >> 12) & 63)) | (1ULL << ((h >> 18) & 63));
		return (bloom[(h >> 32) & bloom_mask] & p) == p;
	}
	return true;
}

extern "C" __global__ void gq_keep_keys_i64(const i64* col, const u8* valid, i64 lo, u64 span, const u64* bitmap, const u64* bloom, u64 bloom_mask, u32* mask, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		i64 r = in ? i : 0;
		bool keep = in && gq_bit(valid, r) && gq_key_kept(col[r], lo, span, bitmap, bloom, bloom_mask);
		gq_and_bits_word(mask, i, keep);
	}
}

extern "C" __global__ void gq_keep_keys_i32(const i32* col, const u8* valid, i64 lo, u64 span, const u64* bitmap, const u64* bloom, u64 bloom_mask, u32* mask, i64 n) {
	GQ_FOR_WARP(i, n) {
		bool in = i < n;
		i64 r = in ? i : 0;
		bool keep = in && gq_bit(valid, r) && gq_key_kept((i64)col[r], lo, span, bitmap, bloom, bloom_mask);
		gq_and_bits_word(mask, i, keep);
	}
}
