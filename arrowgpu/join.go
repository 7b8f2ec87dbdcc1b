package arrowgpu

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// JoinTable is a device hash table of a join's build rows by their keys
// (kernels/join.cu). When the keys are unique (Unique: a primary key) a
// probe row finds at most one build row (Probe); otherwise Expand lists
// every matching pair.
type JoinTable struct {
	nkeys    int
	widths   [2]int32
	tk0, tk1 Buffer
	trow     Buffer
	next     Buffer // per build row: the next with the same keys, or -1
	mask     uint32
	Rows     int  // build rows
	Unique   bool // no two build rows share their keys
}

// joinKeyWidth is the width of a key column the join kernels read, or 0.
func joinKeyWidth(t arrow.DataType) int32 {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64:
		return 8
	case arrow.DATE32, arrow.INT32:
		return 4
	}
	return 0
}

// JoinKeyType reports whether the join kernels take keys of type t.
func JoinKeyType(t arrow.DataType) bool { return joinKeyWidth(t) != 0 }

// BuildJoinTable builds the table of keys (one or two columns of n rows).
// With no keys it is the table of a join with a one-row side (a scalar
// subquery's): every probe row matches its one row — none when it is
// empty — and it is Unique when n <= 1.
func (q *Queue) BuildJoinTable(keys []*Column, n int) (*JoinTable, error) {
	if len(keys) == 0 {
		return &JoinTable{Rows: n, Unique: n <= 1}, nil
	}
	if len(keys) > 2 {
		return nil, errs.New(errs.Unsupported, "GPU join on %d keys (1 or 2)", len(keys))
	}
	t := &JoinTable{nkeys: len(keys), Rows: n}
	for i, k := range keys {
		if t.widths[i] = joinKeyWidth(k.Type); t.widths[i] == 0 {
			return nil, errs.New(errs.Unsupported, "GPU join on a %s key", k.Type)
		}
	}
	slots := 64
	for slots < 2*n {
		slots <<= 1
	}
	if slots > 1<<31 {
		return nil, errs.New(errs.ResourcesExhausted, "GPU join: %d build rows", n)
	}
	t.mask = uint32(slots - 1)
	ks, err := q.kernels("gq_join_build")
	if err != nil {
		return nil, err
	}
	flags, err := q.pool.Alloc(4)
	if err != nil {
		return nil, err
	}
	defer flags.Free()
	for _, b := range []*Buffer{&t.tk0, &t.tk1} {
		if *b, err = q.pool.Alloc(int64(slots) * 8); err != nil {
			t.Free()
			return nil, err
		}
	}
	if t.trow, err = q.pool.Alloc(int64(slots) * 4); err != nil {
		t.Free()
		return nil, err
	}
	if t.next, err = q.pool.Alloc(int64(max(n, 1)) * 4); err != nil {
		t.Free()
		return nil, err
	}
	k0, k1 := keyArgs(keys)
	var dup [4]byte
	err = q.dv.Do(func() error {
		if err := q.stream.memsetLocked(t.trow.Ptr, 0xff, int64(slots)*4); err != nil { // -1: empty
			return err
		}
		if err := q.stream.memsetLocked(t.tk1.Ptr, 0, int64(slots)*8); err != nil {
			return err
		}
		if err := q.stream.memsetLocked(flags.Ptr, 0, 4); err != nil {
			return err
		}
		if err := ks[0].launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0,
			k0.Data.Ptr, k0.Valid.Ptr, t.widths[0], k1.Data.Ptr, k1.Valid.Ptr, t.widths[1], int32(t.nkeys),
			int64(n), t.tk0.Ptr, t.tk1.Ptr, t.trow.Ptr, t.next.Ptr, t.mask, flags.Ptr); err != nil {
			return err
		}
		if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(dup[:], flags.Ptr)
	})
	if err != nil {
		t.Free()
		return nil, err
	}
	t.Unique = binary.LittleEndian.Uint32(dup[:]) == 0
	return t, nil
}

// keyArgs returns the first and second key column (the first again when
// there is one key: the kernels do not read it).
func keyArgs(keys []*Column) (*Column, *Column) {
	if len(keys) == 1 {
		return keys[0], keys[0]
	}
	return keys[0], keys[1]
}

// checkProbe checks that keys are what the table was built with.
func (t *JoinTable) checkProbe(keys []*Column) error {
	if len(keys) != t.nkeys {
		return errs.New(errs.Internal, "GPU join: probing %d keys into a table of %d", len(keys), t.nkeys)
	}
	for i, k := range keys {
		if joinKeyWidth(k.Type) != t.widths[i] {
			return errs.New(errs.Internal, "GPU join: probe key %d of type %s", i, k.Type)
		}
	}
	return nil
}

// probeLocked queues gq_join_probe (k) over keys: per row the first build
// row (or -1) and the mask of matches (anti: of rows without one).
func (t *JoinTable) probeLocked(q *Queue, k *kernel, keys []*Column, n int, anti bool) (Buffer, *Column, error) {
	mask := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
	var err error
	if mask.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
		return Buffer{}, nil, err
	}
	rows, err := q.pool.Alloc(int64(max(n, 1)) * 4)
	if err != nil {
		mask.Free()
		return Buffer{}, nil, err
	}
	k0, k1 := keyArgs(keys)
	err = k.launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0,
		k0.Data.Ptr, k0.Valid.Ptr, t.widths[0], k1.Data.Ptr, k1.Valid.Ptr, t.widths[1], int32(t.nkeys),
		int64(n), t.tk0.Ptr, t.tk1.Ptr, t.trow.Ptr, t.mask, boolArg(anti), rows.Ptr, mask.Data.Ptr)
	if err != nil {
		mask.Free()
		rows.Free()
		return Buffer{}, nil, err
	}
	return rows, mask, nil
}

// Lookup joins rows of keys (n rows) with a Unique table in one trip to
// the device: idx are the rows with a match (ascending) and build their
// build rows, m of them. With left every row is kept once, in order (idx
// is none, m = n) and build is -1 where there is no match. When every row
// matches (a foreign key's join: TPC-H's lineitem with supplier or part)
// idx is none too: the caller keeps its rows as they are instead of
// gathering them all.
func (t *JoinTable) Lookup(q *Queue, keys []*Column, n int, left bool) (idx, build Buffer, m int, err error) {
	if err := t.checkProbe(keys); err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	if !t.Unique {
		return Buffer{}, Buffer{}, 0, errs.New(errs.Internal, "GPU join: a lookup in a table whose keys are not unique")
	}
	if t.nkeys == 0 {
		return t.lookupOne(q, n, left)
	}
	ks, err := q.kernels(append([]string{"gq_join_probe", "gq_gather_32"}, selectKernels...)...)
	if err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	err = q.dv.Do(func() error {
		rows, mask, err := t.probeLocked(q, ks[0], keys, n, false)
		if err != nil {
			return err
		}
		defer mask.Free()
		if left {
			build, m = rows, n
			return q.stream.syncLocked()
		}
		if idx, m, err = q.selectLocked(ks[2:], mask, nil); err != nil || m == 0 || m == n {
			if m == n && err == nil {
				idx.Free() // every row, in order: no index
				idx, build = Buffer{}, rows
				return nil
			}
			rows.Free()
			return err
		}
		defer rows.Free()
		if build, err = q.pool.Alloc(int64(m) * 4); err != nil {
			return err
		}
		if err := ks[1].launchLocked(q.stream, q.grid(int64(m)), d1(blockSize), 0, rows.Ptr, idx.Ptr, build.Ptr, int64(m)); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		idx.Free()
		build.Free()
		return Buffer{}, Buffer{}, 0, err
	}
	return idx, build, m, nil
}

// MatchRows returns the rows of keys (n rows) with a matching build row —
// without one for anti — ascending, in one trip to the device.
func (t *JoinTable) MatchRows(q *Queue, keys []*Column, n int, anti bool) (idx Buffer, m int, err error) {
	if err := t.checkProbe(keys); err != nil {
		return Buffer{}, 0, err
	}
	ks, err := q.kernels(append([]string{"gq_join_probe"}, selectKernels...)...)
	if err != nil {
		return Buffer{}, 0, err
	}
	err = q.dv.Do(func() error {
		rows, mask, err := t.probeLocked(q, ks[0], keys, n, anti)
		if err != nil {
			return err
		}
		defer rows.Free()
		defer mask.Free()
		idx, m, err = q.selectLocked(ks[1:], mask, nil)
		return err
	})
	return idx, m, err
}

// maxJoinPairs bounds the pairs one Expand writes (int32 row indices).
const maxJoinPairs = 1<<31 - 1

// Expand joins rows of keys (columns of n rows) with the table: it returns
// the m matching pairs as two int32 index arrays, the probe row and the
// build row of each (probe rows ascending). left adds one pair with build
// row -1 for each row without a match (a left outer join).
func (t *JoinTable) Expand(q *Queue, keys []*Column, n int, left bool) (probe, build Buffer, m int, err error) {
	if err := t.checkProbe(keys); err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	if n == 0 {
		return Buffer{}, Buffer{}, 0, nil
	}
	ks, err := q.kernels("gq_join_count", "gq_scan_u32", "gq_join_expand")
	if err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	tmp, err := q.partials(1, int64(n)*4, int64(n+1)*4, 8)
	if err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	defer freeAll(tmp)
	counts, offsets, total := tmp[0], tmp[1], tmp[2]
	k0, k1 := keyArgs(keys)
	args := []any{k0.Data.Ptr, k0.Valid.Ptr, t.widths[0], k1.Data.Ptr, k1.Valid.Ptr, t.widths[1], int32(t.nkeys),
		int64(n), t.tk0.Ptr, t.tk1.Ptr, t.trow.Ptr, t.next.Ptr, t.mask, boolArg(left)}
	var sum [8]byte
	err = q.dv.Do(func() error {
		if err := q.stream.memsetLocked(total.Ptr, 0, 8); err != nil {
			return err
		}
		if err := ks[0].launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0, append(args, counts.Ptr, total.Ptr)...); err != nil {
			return err
		}
		if err := q.stream.syncLocked(); err != nil {
			return err
		}
		return q.getLocked(sum[:], total.Ptr)
	})
	if err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	pairs := binary.LittleEndian.Uint64(sum[:])
	if pairs > maxJoinPairs {
		return Buffer{}, Buffer{}, 0, errs.New(errs.ResourcesExhausted, "GPU join: %d rows join to %d pairs (at most %d at once)", n, pairs, maxJoinPairs)
	}
	if m = int(pairs); m == 0 {
		return Buffer{}, Buffer{}, 0, nil
	}
	if probe, err = q.pool.Alloc(int64(m) * 4); err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	if build, err = q.pool.Alloc(int64(m) * 4); err != nil {
		probe.Free()
		return Buffer{}, Buffer{}, 0, err
	}
	err = q.dv.Do(func() error {
		scratch, err := q.scanLocked(ks[1], counts.Ptr, offsets.Ptr, int64(n))
		defer scratch.Free() // after the sync below
		if err != nil {
			return err
		}
		if err := ks[2].launchLocked(q.stream, q.grid(int64(n)), d1(blockSize), 0, append(args, offsets.Ptr, probe.Ptr, build.Ptr)...); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		probe.Free()
		build.Free()
		return Buffer{}, Buffer{}, 0, err
	}
	return probe, build, m, nil
}

// boolArg is a kernel's int flag.
func boolArg(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// lookupOne is Lookup in a table without keys (of at most one row): every
// row matches row 0, or none when the table is empty (then only a left
// join keeps them, with -1).
func (t *JoinTable) lookupOne(q *Queue, n int, left bool) (idx, build Buffer, m int, err error) {
	if t.Rows == 0 && !left {
		return Buffer{}, Buffer{}, 0, nil
	}
	if n == 0 {
		return Buffer{}, Buffer{}, 0, nil
	}
	if build, err = q.pool.Alloc(int64(n) * 4); err != nil {
		return Buffer{}, Buffer{}, 0, err
	}
	fill := byte(0) // row 0
	if t.Rows == 0 {
		fill = 0xff // -1
	}
	err = q.dv.Do(func() error { return q.stream.memsetLocked(build.Ptr, fill, int64(n)*4) })
	if err != nil {
		build.Free()
		return Buffer{}, Buffer{}, 0, err
	}
	if left {
		return Buffer{}, build, n, nil
	}
	// Every row matches: idx is none only for a left join, so spell it out.
	build.Free()
	return Buffer{}, Buffer{}, 0, errs.New(errs.Internal, "GPU join: an inner join with a one-row side")
}

// Free returns the table's memory to the pool.
func (t *JoinTable) Free() {
	t.tk0.Free()
	t.tk1.Free()
	t.trow.Free()
	t.next.Free()
}

// MarkRows returns the mask of n rows in which row rows[r] is set for
// each of the m pairs r that keep has set (invert: the rows left unset) —
// the rows of a semi (anti) join whose pairs pass the join's condition.
func (q *Queue) MarkRows(rows Buffer, keep *Column, m, n int, invert bool) (*Column, error) {
	ks, err := q.kernels("gq_mark_rows", "gq_not_bits")
	if err != nil {
		return nil, err
	}
	var out *Column
	err = q.dv.Do(func() error {
		var err error
		if out, err = q.maskLocked(n); err != nil {
			return err
		}
		if err := q.markLocked(ks[0], out, rows, keep, m); err != nil {
			return err
		}
		if invert {
			if err := q.notLocked(ks[1], out); err != nil {
				return err
			}
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		if out != nil {
			out.Free()
		}
		return nil, err
	}
	return out, nil
}

// MarkRowsInto is MarkRows into an existing mask (NewMask), adding to
// what it holds, and keep may be nil (every pair): the matches of a
// semi or anti join gathered over several batches of pairs, on several
// queues at once (exec's joins run from their build side).
func (q *Queue) MarkRowsInto(mask *Column, rows Buffer, keep *Column, m int) error {
	ks, err := q.kernels("gq_mark_rows")
	if err != nil {
		return err
	}
	return q.dv.Do(func() error {
		if err := q.markLocked(ks[0], mask, rows, keep, m); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
}

// NewMask returns a mask of n rows, all unset.
func (q *Queue) NewMask(n int) (*Column, error) {
	var out *Column
	err := q.dv.Do(func() error {
		var err error
		if out, err = q.maskLocked(n); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
	if err != nil {
		if out != nil {
			out.Free()
		}
		return nil, err
	}
	return out, nil
}

// maskLocked allocates a mask of n rows and queues its zeroing; nil when
// the allocation fails.
func (q *Queue) maskLocked(n int) (*Column, error) {
	out := &Column{Type: arrow.FixedWidthTypes.Boolean, Len: n}
	var err error
	if out.Data, err = q.pool.Alloc(bitmapBytes(n)); err != nil {
		return nil, err
	}
	if err := q.stream.memsetLocked(out.Data.Ptr, 0, out.Data.Size); err != nil {
		out.Free()
		return nil, err
	}
	return out, nil
}

// Invert flips every row of a mask in place.
func (q *Queue) Invert(mask *Column) error {
	ks, err := q.kernels("gq_not_bits")
	if err != nil {
		return err
	}
	return q.dv.Do(func() error {
		if err := q.notLocked(ks[0], mask); err != nil {
			return err
		}
		return q.stream.syncLocked()
	})
}

func (q *Queue) markLocked(mark *kernel, mask *Column, rows Buffer, keep *Column, m int) error {
	if m == 0 {
		return nil
	}
	var keepBits DevPtr
	if keep != nil {
		keepBits = keep.Data.Ptr
	}
	return mark.launchLocked(q.stream, q.grid(int64(m)), d1(blockSize), 0, rows.Ptr, keepBits, int64(m), mask.Data.Ptr)
}

func (q *Queue) notLocked(not *kernel, mask *Column) error {
	nw := bitmapBytes(mask.Len) / 4
	return not.launchLocked(q.stream, q.grid(nw), d1(blockSize), 0, mask.Data.Ptr, nw)
}
