package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// A sort on the device: the permutation of n rows that orders them by
// some of their columns, for the caller to gather every column by (the
// rows then come back in order). A stable LSD radix sort (kernels/sort.cu)
// of row indices by each key's u64 order key, a byte per pass, from the
// last key to the first; a key's passes are only those of the bytes in
// which its values differ (a date or a small integer: two or three), and
// a key with NULLs takes one more pass that places them. A string key is
// its length, then its bytes 8 at a time, each a key of its own; a
// DECIMAL(38) its low word, then its high word. Rows
// equal on every key keep their order.

// sortTileRounds is the fewest rounds of 256 rows a tile of a pass holds;
// more when the rows are many, so that the count array (256 per tile),
// scanned by one block, stays near sortMaxTiles × 256 entries.
const (
	sortTileRounds = 8
	sortMaxTiles   = 4096
)

// SortKeyType reports whether a sort key of type t can be ordered on the
// device.
func SortKeyType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.FLOAT64, arrow.STRING:
		return true
	}
	return false
}

// SortPerm returns the int32 row numbers of cols' rows (all of length
// Len) in the order of keys (most significant first; OrderKey.Col indexes
// cols): row perm[0] first. Equal rows keep their order.
func (q *Queue) SortPerm(cols []*Column, keys []OrderKey) (Buffer, error) {
	if len(cols) == 0 || len(keys) == 0 {
		return Buffer{}, errs.New(errs.Internal, "GPU sort without columns or keys")
	}
	n := int64(cols[0].Len)
	for _, k := range keys {
		if t := cols[k.Col].Type; !SortKeyType(t) {
			return Buffer{}, errs.New(errs.Unsupported, "GPU sort by %s", t)
		}
	}
	if n == 0 {
		return Buffer{}, nil
	}
	if n > 1<<31-1 {
		return Buffer{}, errs.New(errs.Unsupported, "GPU sort of %d rows", n)
	}
	ks, err := q.kernels("gq_sort_iota", "gq_sort_key", "gq_sort_null_key", "gq_sort_span", "gq_sort_hist", "gq_scan_u32", "gq_sort_scatter", "gq_sort_str_len", "gq_sort_str_word", "gq_sort_key128")
	if err != nil {
		return Buffer{}, err
	}
	tile := int64(256 * sortTileRounds)
	for (n+tile-1)/tile > sortMaxTiles {
		tile *= 2
	}
	tiles := (n + tile - 1) / tile
	bufs, err := q.partials(1, n*4, n*4, n*8, n*8, tiles*256*4, (tiles*256+1)*4, 16)
	if err != nil {
		return Buffer{}, err
	}
	perm, spare := &bufs[0], &bufs[1]
	okey, okeySpare := &bufs[2], &bufs[3]
	counts, offsets, spanBuf := bufs[4], bufs[5], bufs[6]
	defer func() {
		for i := range bufs[1:] {
			bufs[1+i].Free()
		}
	}()
	fail := func(err error) (Buffer, error) {
		perm.Free()
		return Buffer{}, err
	}
	// pass sorts perm by byte shift of okey (both swapped with their
	// spares); scratches are its scans', freed once the stream is synced.
	var scratches []Buffer
	defer func() { freeAll(scratches) }()
	pass := func(shift int) error {
		if err := ks[4].launchLocked(q.stream, d1(uint32(tiles)), d1(256), 0, okey.Ptr, n, int32(shift), tile, uint32(tiles), counts.Ptr); err != nil {
			return err
		}
		scratch, err := q.scanLocked(ks[5], counts.Ptr, offsets.Ptr, tiles*256)
		scratches = append(scratches, scratch)
		if err != nil {
			return err
		}
		if err := ks[6].launchLocked(q.stream, d1(uint32(tiles)), d1(256), 0, okey.Ptr, perm.Ptr, n, int32(shift), tile, uint32(tiles), offsets.Ptr, okeySpare.Ptr, spare.Ptr); err != nil {
			return err
		}
		*perm, *spare = *spare, *perm
		*okey, *okeySpare = *okeySpare, *okey
		return nil
	}
	// span returns the AND and the OR of the keys in okey (a trip to the
	// device).
	span := func() (and, or uint64, err error) {
		var init [16]byte
		binary.LittleEndian.PutUint64(init[:8], ^uint64(0))
		if err := q.putLocked(spanBuf.Ptr, init[:]); err != nil {
			return 0, 0, err
		}
		if err := ks[3].launchLocked(q.stream, q.grid(n), d1(256), 0, okey.Ptr, n, spanBuf.Ptr); err != nil {
			return 0, 0, err
		}
		if err := q.stream.syncLocked(); err != nil {
			return 0, 0, err
		}
		var got [16]byte
		if err := q.getLocked(got[:], spanBuf.Ptr); err != nil {
			return 0, 0, err
		}
		return binary.LittleEndian.Uint64(got[:8]), binary.LittleEndian.Uint64(got[8:]), nil
	}
	// sortBy sorts by the keys in okey: one pass per byte in which they
	// differ.
	sortBy := func() error {
		and, or, err := span()
		if err != nil {
			return err
		}
		differ := and ^ or
		for shift := 0; shift < 64; shift += 8 {
			if differ>>shift&0xff != 0 {
				if err := pass(shift); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err = q.dv.Do(func() error {
		if err := ks[0].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, perm.Ptr, n); err != nil {
			return err
		}
		for i := len(keys) - 1; i >= 0; i-- {
			k := keys[i]
			col := cols[k.Col]
			if col.Type.ID() == arrow.STRING {
				// The length, then each word of 8 bytes from the
				// last: the OR of the lengths bounds the longest.
				lengths := func(desc bool) error {
					return ks[7].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, col.Offsets.Ptr, col.Valid.Ptr, boolArg(desc), perm.Ptr, okey.Ptr, n)
				}
				if err := lengths(false); err != nil {
					return err
				}
				_, longest, err := span()
				if err != nil {
					return err
				}
				if k.Desc {
					if err := lengths(true); err != nil {
						return err
					}
				}
				if err := sortBy(); err != nil {
					return err
				}
				for w := int((longest+7)/8) - 1; w >= 0; w-- {
					if err := ks[8].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, col.Offsets.Ptr, col.Data.Ptr, col.Valid.Ptr, boolArg(k.Desc), int32(w), perm.Ptr, okey.Ptr, n); err != nil {
						return err
					}
					if err := sortBy(); err != nil {
						return err
					}
				}
			} else if col.Type.ID() == arrow.DECIMAL128 {
				// The low word, then the high.
				for w := int32(1); w >= 0; w-- {
					if err := ks[9].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, col.Data.Ptr, w, col.Valid.Ptr, boolArg(k.Desc), perm.Ptr, okey.Ptr, n); err != nil {
						return err
					}
					if err := sortBy(); err != nil {
						return err
					}
				}
			} else {
				isDouble := int32(0)
				if col.Type.ID() == arrow.FLOAT64 {
					isDouble = 1
				}
				if err := ks[1].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, col.Data.Ptr, int32(width(col.Type)), isDouble, col.Valid.Ptr, boolArg(k.Desc), perm.Ptr, okey.Ptr, n); err != nil {
					return err
				}
				if err := sortBy(); err != nil {
					return err
				}
			}
			if col.Valid.Ptr == 0 {
				continue
			}
			if err := ks[2].launchLocked(q.stream, q.grid(n), d1(blockSize), 0, col.Valid.Ptr, boolArg(k.NullsFirst), perm.Ptr, okey.Ptr, n); err != nil {
				return err
			}
			if err := sortBy(); err != nil {
				return err
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		return fail(err)
	}
	return *perm, nil
}

// RowNumbers returns an int32 column of 0..n-1, made on the device (a
// build side's rows numbered as group keys: no host array to upload).
func (q *Queue) RowNumbers(n int) (*Column, error) {
	ks, err := q.kernels("gq_sort_iota")
	if err != nil {
		return nil, err
	}
	col := &Column{Type: arrow.PrimitiveTypes.Int32, Len: n}
	if col.Data, err = q.pool.Alloc(int64(max(n, 1)) * 4); err != nil {
		return nil, err
	}
	err = q.dv.Do(func() error {
		if n > 0 {
			if err := ks[0].launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0, col.Data.Ptr, int64(n)); err != nil {
				return err
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		col.Free()
		return nil, err
	}
	return col, nil
}
