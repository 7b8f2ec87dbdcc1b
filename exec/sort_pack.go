package exec

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
)

// packSortKeys returns keys (over n rows) in a form sortIndices orders
// faster, without changing the order they define; keys itself is left as
// it is (top-N compares its normalised values across batches, which the
// forms here are not).
//
//   - A string key with few distinct values is replaced by its values'
//     ranks: no comparison of its bytes is left (TPC-H q16's final sort
//     by p_brand and p_type compared "STANDARD…" bytes in most ties).
//   - The leading keys whose ranges fit together in 64 bits become one
//     key: their values less each one's minimum (NULLs one more value, at
//     the end they sort to), side by side. The radix sort then orders the
//     rows by all of them at once, where before only the first key was
//     radix-sorted and every run of its ties went through the comparator
//     (q16's supplier_cnt has a few dozen values over 27,840 rows).
func packSortKeys(keys sortKeys, n int) sortKeys {
	if n < 2 || len(keys) == 0 {
		return keys
	}
	out := slices.Clone(keys)
	for i := range out {
		if out[i].isStr {
			rankStrings(&out[i], n)
		}
	}
	var packed []uint64
	used, k := 0, 0
	for ; k < len(out); k++ {
		c := &out[k]
		if c.isStr {
			break
		}
		lo, span, ok := normRange(c, n)
		nulls := c.valid != nil
		if nulls {
			if span == math.MaxUint64 {
				break
			}
			span++ // one more value for NULL
		}
		width := bits.Len64(span)
		if used+width > 64 {
			break
		}
		if packed == nil {
			packed = make([]uint64, n)
		}
		used += width
		if width == 0 || !ok {
			continue // one value (or only NULLs): nothing to order by
		}
		for i := range n {
			v := c.norm[i] - lo
			switch {
			case !nulls:
			case !c.valid[i]:
				v = 0
				if !c.nullsFirst {
					v = span
				}
			case c.nullsFirst:
				v++
			}
			packed[i] = packed[i]<<width | v
		}
	}
	if k == 0 {
		return out
	}
	// Keys packed later were shifted in after earlier ones: the first
	// key's bits are the most significant, as its order comes first.
	return append(sortKeys{{norm: packed}}, out[k:]...)
}

// normRange is the smallest normalised value of c's non-NULL rows and the
// span up to the largest; ok is false when every row is NULL.
func normRange(c *sortCol, n int) (lo, span uint64, ok bool) {
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i := range n {
		if c.valid != nil && !c.valid[i] {
			continue
		}
		v := c.norm[i]
		lo, hi, ok = min(lo, v), max(hi, v), true
	}
	if !ok {
		return 0, 0, false
	}
	return lo, hi - lo, true
}

// rankSampleRows and rankMaxDistinct bound rankStrings: it looks at a
// sample of rows first and ranks only a column whose sample has few
// distinct values, and gives up past rankMaxDistinct values (a column of
// names or comments: its 8-byte prefixes mostly differ already).
const (
	rankSampleRows  = 1024
	rankMaxDistinct = 1 << 12
)

// rankStrings replaces a string key's normalised values by its values'
// ranks (complemented when descending, as norm is) when it has few
// distinct values; the key is then no longer compared by its bytes.
func rankStrings(c *sortCol, n int) {
	step := max(1, n/rankSampleRows)
	seen := make(map[string]struct{})
	for i := 0; i < n; i += step {
		if c.valid != nil && !c.valid[i] {
			continue
		}
		seen[string(c.str(int32(i)))] = struct{}{}
	}
	if len(seen) > rankSampleRows/4 {
		return
	}
	ids := make(map[string]uint32, 2*len(seen))
	codes := make([]uint32, n)
	var distinct [][]byte
	for i := range n {
		if c.valid != nil && !c.valid[i] {
			continue
		}
		s := c.str(int32(i))
		id, ok := ids[string(s)]
		if !ok {
			if len(distinct) == rankMaxDistinct {
				return
			}
			id = uint32(len(distinct))
			ids[string(s)] = id
			distinct = append(distinct, s)
		}
		codes[i] = id
	}
	order := make([]uint32, len(distinct))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return bytes.Compare(distinct[a], distinct[b]) })
	rank := make([]uint64, len(distinct))
	for r, id := range order {
		rank[id] = uint64(r)
	}
	norm := make([]uint64, n)
	for i := range n {
		if c.valid != nil && !c.valid[i] {
			continue
		}
		norm[i] = rank[codes[i]]
		if c.desc {
			norm[i] = ^norm[i]
		}
	}
	c.norm, c.isStr, c.strData, c.strOffs = norm, false, nil, nil
}
