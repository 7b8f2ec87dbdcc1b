package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// HashInt64 is the partition hash of an int64-like key (murmur3 fmix64),
// identical to the kernels' gq_hash64 and to exec's hashMix; NULL hashes
// as 0. Partition of a row = HashInt64(key) % nparts.
func HashInt64(v int64) uint64 {
	x := uint64(v)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// MaxPartitions bounds HashPartition's fan-out (its histogram lives in
// shared memory).
const MaxPartitions = 8192

// HashPartition hashes key (Int64, Decimal64 or Date32) and returns a
// permutation of row indices grouping rows by partition (gather columns
// with it) and nparts+1 offsets: partition p is perm[offsets[p]:offsets[p+1]].
// Row order inside a partition is not defined.
func (q *Queue) HashPartition(key *Column, nparts int) (Buffer, []uint32, error) {
	if nparts < 1 || nparts > MaxPartitions {
		return Buffer{}, nil, errs.New(errs.Unsupported, "GPU: hash partitioning into %d partitions (1..%d)", nparts, MaxPartitions)
	}
	var hashName string
	switch key.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		hashName = "gq_hash_i64"
	case arrow.DATE32:
		hashName = "gq_hash_i32"
	default:
		return Buffer{}, nil, errs.New(errs.Unsupported, "GPU: hash partitioning on %s keys", key.Type)
	}
	offsets := make([]uint32, nparts+1)
	n := int64(key.Len)
	if n == 0 {
		return Buffer{}, offsets, nil
	}
	ks, err := q.kernels(hashName, "gq_partition_count", "gq_partition_scatter")
	if err != nil {
		return Buffer{}, nil, err
	}
	tmp, err := q.partials(1, n*8, n*4, int64(nparts)*4)
	if err != nil {
		return Buffer{}, nil, err
	}
	defer freeAll(tmp)
	hash, pid, counts := tmp[0], tmp[1], tmp[2]
	perm, err := q.pool.Alloc(n * 4)
	if err != nil {
		return Buffer{}, nil, err
	}
	g := q.grid(n)
	err = q.dv.Do(func() error {
		if err := q.stream.memsetLocked(counts.Ptr, 0, int64(nparts)*4); err != nil {
			return err
		}
		if err := ks[0].launchLocked(q.stream, g, D1(blockSize), 0, key.Data.Ptr, key.Valid.Ptr, hash.Ptr, n); err != nil {
			return err
		}
		if err := ks[1].launchLocked(q.stream, g, D1(blockSize), uint32(nparts*4), hash.Ptr, n, uint32(nparts), pid.Ptr, counts.Ptr); err != nil {
			return err
		}
		h, err := q.readPartialsLocked([]Buffer{counts}, int64(nparts), 4)
		if err != nil {
			return err
		}
		cursor := make([]byte, 4*nparts)
		for p := range nparts {
			binary.LittleEndian.PutUint32(cursor[4*p:], offsets[p])
			offsets[p+1] = offsets[p] + binary.LittleEndian.Uint32(h[0][4*p:])
		}
		if err := q.putLocked(counts.Ptr, cursor); err != nil { // counts becomes the cursor
			return err
		}
		if err := ks[2].launchLocked(q.stream, g, D1(blockSize), 0, pid.Ptr, n, counts.Ptr, perm.Ptr); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		perm.Free()
		return Buffer{}, nil, err
	}
	return perm, offsets, nil
}
