package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// Keys of exactly two integer-like columns (Int64, Decimal64, Date32) —
// (l_partkey, l_suppkey), (ps_partkey, ps_suppkey) — are common enough
// to skip the general path's per-row byte encoding, maphash and arena
// compares: a slot holds both values and a NULL mask (bit c: column c is
// NULL, its value then stored as 0), so NULLs still form groups of their
// own in aggregation.

type pairSlot struct {
	a, b int64
	mask uint8
	id   int32 // id+1; 0: empty
}

func pairHash(a, b int64, mask uint8) uint64 {
	return expr.Mix64(uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b) ^ uint64(mask)<<62)
}

// keyInts returns an integer-like array's values as int64, converting
// into own (grown as needed) where the array does not store int64.
func keyInts(a arrow.Array, n int, own *[]int64) []int64 {
	switch x := a.(type) {
	case *array.Int64:
		return x.Int64Values()[:n]
	case *array.Decimal64:
		return asInt64s(x.Values())[:n]
	case *array.Timestamp, *array.Time64:
		return temporalInts(x)[:n]
	case *array.Date32:
		*own = grown(*own, n)
		for i, v := range x.Date32Values()[:n] {
			(*own)[i] = int64(v)
		}
		return *own
	}
	return nil
}

// preparePair fills bk.ints, bk.ints2, bk.masks and bk.hashes.
func (kc keyCodec) preparePair(arrs []arrow.Array, n int, bk *batchKeys) {
	a := keyInts(arrs[0], n, &bk.own)
	b := keyInts(arrs[1], n, &bk.own2)
	bk.masks = nil
	if bk.null != nil {
		// Zero the values under NULLs (they are arbitrary) in copies
		// (a may already be own: copy handles that).
		na, nb := grown(bk.own, n), grown(bk.own2, n)
		copy(na, a)
		copy(nb, b)
		bk.own, bk.own2 = na, nb
		a, b = na, nb
		bk.masks = grown(bk.masks[:0:cap(bk.masks)], n)
		for i := range n {
			var m uint8
			if arrs[0].IsNull(i) {
				m |= 1
				a[i] = 0
			}
			if arrs[1].IsNull(i) {
				m |= 2
				b[i] = 0
			}
			bk.masks[i] = m
		}
	}
	bk.ints, bk.ints2 = a, b
	for i := range n {
		var m uint8
		if bk.masks != nil {
			m = bk.masks[i]
		}
		bk.hashes[i] = pairHash(a[i], b[i], m)
	}
}

func (bk *batchKeys) maskOf(i int) uint8 {
	if bk.masks == nil {
		return 0
	}
	return bk.masks[i]
}

// growPair is grow for pair keys.
func (t *keyTable) growPair() {
	old := t.pslots
	t.alloc(len(old) * 2)
	for _, sl := range old { // slot order: see grow
		if sl.id == 0 {
			continue
		}
		s := pairHash(sl.a, sl.b, sl.mask) & t.mask
		for t.pslots[s].id != 0 {
			s = (s + 1) & t.mask
		}
		t.pslots[s] = sl
	}
	pairSlotSlabs.put(old)
}

func (t *keyTable) insertPair(a, b int64, m uint8, h uint64) int32 {
	s := h & t.mask
	for {
		sl := &t.pslots[s]
		if sl.id == 0 {
			break
		}
		if sl.a == a && sl.b == b && sl.mask == m {
			return sl.id - 1
		}
		s = (s + 1) & t.mask
	}
	id := t.n
	t.pslots[s] = pairSlot{a, b, m, id + 1}
	t.ikeys = push(t.ikeys, a)
	t.ikeys2 = push(t.ikeys2, b)
	t.masks = push(t.masks, m)
	t.n++
	if int(t.n) > t.growAt {
		t.grow()
	}
	return id
}

func (t *keyTable) findPair(a, b int64, m uint8, h uint64) int32 {
	s := h & t.mask
	for {
		sl := &t.pslots[s]
		if sl.id == 0 {
			return -1
		}
		if sl.a == a && sl.b == b && sl.mask == m {
			return sl.id - 1
		}
		s = (s + 1) & t.mask
	}
}

// insertPairs is insert for pair keys; a row equal to the previous one
// reuses its id (see insertInts).
func (t *keyTable) insertPairs(bk *batchKeys, out []int32, nullGroup bool) {
	prevA, prevB, prevM, prevID := int64(0), int64(0), uint8(0), int32(-1)
	for i := range bk.n {
		if i%prefetchRows == 0 && t.wantsPrefetch() {
			bk.sink += t.touch(bk.hashes[i:min(i+prefetchRows, bk.n)])
		}
		m := bk.maskOf(i)
		if m != 0 && !nullGroup {
			out[i] = -1
			continue
		}
		a, b := bk.ints[i], bk.ints2[i]
		if prevID >= 0 && a == prevA && b == prevB && m == prevM {
			out[i] = prevID
			continue
		}
		prevA, prevB, prevM = a, b, m
		prevID = t.insertPair(a, b, m, bk.hashes[i])
		out[i] = prevID
	}
}

func (t *keyTable) pairHashOf(id int32) uint64 {
	return pairHash(t.ikeys[id], t.ikeys2[id], t.masks[id])
}

// pairArrays rebuilds the two key columns for ids 0..n-1.
func (t *keyTable) pairArrays(mem memory.Allocator, types []arrow.DataType) []arrow.Array {
	n := t.len()
	out := make([]arrow.Array, 2)
	for c, vals := range [][]int64{t.ikeys[:n], t.ikeys2[:n]} {
		var valid []bool
		for id, m := range t.masks[:n] {
			if m&(1<<c) != 0 {
				if valid == nil {
					valid = make([]bool, n)
					for i := range valid {
						valid[i] = true
					}
				}
				valid[id] = false
			}
		}
		if types[c].ID() != arrow.DATE32 {
			out[c] = aggArray(mem, types[c], vals, valid)
			continue
		}
		bld := array.NewDate32Builder(mem)
		bld.Reserve(n)
		for id, k := range vals {
			if valid != nil && !valid[id] {
				bld.AppendNull()
				continue
			}
			bld.UnsafeAppend(arrow.Date32(k))
		}
		out[c] = bld.NewArray()
		bld.Release()
	}
	return out
}
