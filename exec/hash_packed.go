package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// Packed group keys. Grouping by short strings (flags, codes, TPC-H q01's
// l_returnflag, l_linestatus) through the general key path serialises
// every row into bytes, hashes the bytes and compares them in the table:
// a fifth of q01. When a batch's string keys are so short that a whole
// row fits in eight bytes, the worker instead packs each row into one
// uint64 and maps it through a small integer table to a worker-local id;
// only the few distinct keys then go through the general path to get
// their group ids.
//
// Layout: column k takes width[k] bytes. A column whose values in the
// batch all have the same length L and no NULLs takes exactly L bytes (the
// characters); any other takes its longest length + 1, the first byte being
// the length + 1 (0 for NULL), then the characters, zero padded. Equal keys
// pack equally under one layout, so the local mapping is reset whenever a
// batch needs a different layout. Keys of at most two bytes (q01's two
// one-letter flags) index a direct array instead of a table.

// packCol is one column's part of a layout.
type packCol struct {
	width int
	fixed bool // no length byte: every value has length width, no NULLs
}

// packedKeys is one worker's packing state.
type packedKeys struct {
	layout []packCol
	table  *keyTable // packed key → local id (layouts over two bytes)
	direct []int32   // packed key → local id + 1 (layouts of two bytes or less)
	global []int32   // local id → group id in the worker's table
	bk     batchKeys
	lids   []int32
	rows   []int32 // first row of each new local id
	sub    batchKeys
}

// packable reports whether the codec's keys are all strings (the only
// keys the packing serves; integer keys have their own paths).
func packable(kc keyCodec) bool {
	if kc.single || kc.pair || len(kc.types) == 0 {
		return false
	}
	for _, t := range kc.types {
		if t.ID() != arrow.STRING {
			return false
		}
	}
	return true
}

// packLayout returns the layout for keys, or nil when a row does not fit
// in eight bytes.
func packLayout(keys []arrow.Array, layout []packCol) []packCol {
	layout = layout[:0]
	total := 0
	for _, a := range keys {
		s := a.(*array.String)
		so := s.ValueOffsets()
		shortest, longest := int32(1<<30), int32(0)
		for i := range s.Len() {
			l := so[i+1] - so[i]
			shortest, longest = min(shortest, l), max(longest, l)
		}
		c := packCol{width: int(longest) + 1}
		if shortest == longest && s.NullN() == 0 && longest > 0 {
			c = packCol{width: int(longest), fixed: true}
		}
		total += c.width
		if total > 8 {
			return nil
		}
		layout = append(layout, c)
	}
	return layout
}

func sameLayout(a, b []packCol) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pack writes each row's packed key into out.
func pack(keys []arrow.Array, layout []packCol, out []int64) {
	clear(out)
	shift := 0
	for k, a := range keys {
		s := a.(*array.String)
		so, data := s.ValueOffsets(), s.ValueBytes()
		base := so[0]
		c := layout[k]
		switch {
		case c.fixed && c.width == 1:
			for i := range out {
				out[i] |= int64(data[so[i]-base]) << shift
			}
		case c.fixed:
			for i := range out {
				var x uint64
				for j, ch := range data[so[i]-base : so[i+1]-base] {
					x |= uint64(ch) << (8 * j)
				}
				out[i] |= int64(x << shift)
			}
		default:
			nulls := s.NullN() > 0
			for i := range out {
				if nulls && s.IsNull(i) {
					continue // length byte 0
				}
				v := data[so[i]-base : so[i+1]-base]
				x := uint64(len(v) + 1)
				for j, ch := range v {
					x |= uint64(ch) << (8 * (j + 1))
				}
				out[i] |= int64(x << shift)
			}
		}
		shift += 8 * c.width
	}
}

// insert assigns gids for one batch through the packed path; it reports
// false (and does nothing) when the batch's keys do not pack.
func (pk *packedKeys) insert(mem memory.Allocator, kc keyCodec, keys []arrow.Array, n int, table *keyTable, gids []int32) bool {
	var buf [8]packCol
	layout := packLayout(keys, buf[:0])
	if layout == nil {
		return false
	}
	width := 0
	for _, c := range layout {
		width += c.width
	}
	if !sameLayout(layout, pk.layout) {
		pk.layout = append(pk.layout[:0], layout...)
		pk.table, pk.global = nil, pk.global[:0]
		if width <= 2 {
			pk.direct = grown(pk.direct, 1<<16)
			clear(pk.direct)
		} else {
			pk.direct = nil
			pk.table = newKeyTableFor(keyCodec{single: true}, 0)
		}
	}
	packed := grown(pk.bk.own, n)
	pk.bk.own = packed
	pack(keys, layout, packed)
	pk.lids = grown(pk.lids, n)
	known := int32(len(pk.global))
	pk.rows = pk.rows[:0]
	if pk.direct != nil {
		direct, next := pk.direct, known
		for i, v := range packed {
			l := direct[v] - 1
			if l < 0 {
				l = next
				next++
				direct[v] = l + 1
				pk.rows = append(pk.rows, int32(i))
			}
			pk.lids[i] = l
		}
	} else {
		pk.bk.n, pk.bk.ints, pk.bk.null = n, packed, nil
		pk.bk.hashes = grown(pk.bk.hashes, n)
		for i, v := range packed {
			pk.bk.hashes[i] = expr.Mix64(uint64(v))
		}
		pk.table.insert(&pk.bk, pk.lids, false)
		// New local ids first appear in increasing order.
		for i, l := range pk.lids[:n] {
			if l == known+int32(len(pk.rows)) {
				pk.rows = append(pk.rows, int32(i))
			}
		}
	}
	if added := len(pk.rows); added > 0 {
		// Group ids for the new local ids: their first rows through the
		// general path.
		sub := make([]arrow.Array, len(keys))
		for k, a := range keys {
			sub[k] = TakeArray(mem, a, pk.rows)
		}
		kc.prepare(sub, added, &pk.sub)
		pk.global = append(pk.global, make([]int32, added)...)
		table.insert(&pk.sub, pk.global[known:], true)
		releaseArrays(sub)
	}
	global := pk.global
	for i, l := range pk.lids[:n] {
		gids[i] = global[l]
	}
	return true
}
