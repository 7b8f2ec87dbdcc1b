package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// hashInt64 is the partition hash of an integer key (HashPartition).
func hashInt64(v int64) uint64 { return expr.Mix64(uint64(v)) }

// maxPartitions bounds HashPartition's fan-out (its histogram lives in
// shared memory).
const maxPartitions = 8192

// PartitionKeyType reports whether HashPartition hashes keys of type t.
func PartitionKeyType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.INT32, arrow.FLOAT64, arrow.BOOL, arrow.STRING:
		return true
	}
	return false
}

// HashPartition hashes the key columns as the CPU partitioner does
// (exec/exchange_hash.go: the same partition for a row on the device and
// on the host, so ranks that fell back to the CPU meet the others) and
// returns a permutation of row numbers grouping the rows by partition
// (gather columns with it) and nparts+1 offsets: partition p is
// perm[offsets[p]:offsets[p+1]]. The rows are idx's n (row numbers of the
// columns, a selection), or the columns' first n without idx. Row order
// inside a partition is not defined.
func (q *Queue) HashPartition(keys []*Column, idx Buffer, n, nparts int) (Buffer, []uint32, error) {
	kinds := make([]int32, len(keys))
	for k, key := range keys {
		if !PartitionKeyType(key.Type) {
			return Buffer{}, nil, errs.New(errs.Unsupported, "GPU: hash partitioning on %s keys", key.Type)
		}
		switch key.Type.ID() {
		case arrow.INT64, arrow.DECIMAL64:
			kinds[k] = 0
		case arrow.DATE32, arrow.INT32:
			kinds[k] = 1
		case arrow.FLOAT64:
			kinds[k] = 2
		case arrow.BOOL:
			kinds[k] = 3
		case arrow.STRING:
			kinds[k] = 4
		}
	}
	hashKernel, err := q.kernels("gq_part_hash")
	if err != nil {
		return Buffer{}, nil, err
	}
	return q.partition(idx, n, nparts, func(hash Buffer) error {
		for k, key := range keys {
			if err := hashKernel[0].launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0, key.Data.Ptr, key.Offsets.Ptr, kinds[k], key.Valid.Ptr, idx.Ptr, hash.Ptr, int64(n)); err != nil {
				return err
			}
		}
		return nil
	})
}

// partition is HashPartition once fold (inside Do) has queued the kernels
// that fold the keys into hash (n words, zeroed).
func (q *Queue) partition(idx Buffer, n, nparts int, fold func(hash Buffer) error) (Buffer, []uint32, error) {
	if nparts < 1 || nparts > maxPartitions {
		return Buffer{}, nil, errs.New(errs.Unsupported, "GPU: hash partitioning into %d partitions (1..%d)", nparts, maxPartitions)
	}
	offsets := make([]uint32, nparts+1)
	if n == 0 {
		return Buffer{}, offsets, nil
	}
	ks, err := q.kernels("gq_partition_count", "gq_partition_scatter")
	if err != nil {
		return Buffer{}, nil, err
	}
	rows := int64(n)
	tmp, err := q.partials(1, rows*8, rows*4, int64(nparts)*4)
	if err != nil {
		return Buffer{}, nil, err
	}
	defer freeAll(tmp)
	hash, pid, counts := tmp[0], tmp[1], tmp[2]
	perm, err := q.pool.Alloc(rows * 4)
	if err != nil {
		return Buffer{}, nil, err
	}
	g := q.grid(rows)
	err = q.dv.Do(func() error {
		if err := q.stream.memsetLocked(hash.Ptr, 0, rows*8); err != nil {
			return err
		}
		if err := q.stream.memsetLocked(counts.Ptr, 0, int64(nparts)*4); err != nil {
			return err
		}
		if err := fold(hash); err != nil {
			return err
		}
		if err := ks[0].launchLocked(q.stream, g, d1(blockSize), uint32(nparts*4), hash.Ptr, rows, uint32(nparts), pid.Ptr, counts.Ptr); err != nil {
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
		if err := ks[1].launchLocked(q.stream, g, d1(blockSize), 0, pid.Ptr, idx.Ptr, rows, counts.Ptr, perm.Ptr); err != nil {
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

// StringHashes returns the FNV-1a hash of each of col's strings (a
// GroupPartition's Lookup of a string key whose codes are row numbers).
func (q *Queue) StringHashes(col *Column) (Buffer, error) {
	if col.Type.ID() != arrow.STRING {
		return Buffer{}, errs.New(errs.Internal, "arrowgpu: string hashes of %s", col.Type)
	}
	ks, err := q.kernels("gq_part_fnv")
	if err != nil {
		return Buffer{}, err
	}
	out, err := q.pool.Alloc(int64(col.Len) * 8)
	if err != nil {
		return Buffer{}, err
	}
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, q.grid(int64(col.Len)), d1(blockSize), 0, col.Offsets.Ptr, col.Data.Ptr, int64(col.Len), out.Ptr); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		out.Free()
		return Buffer{}, err
	}
	return out, nil
}
