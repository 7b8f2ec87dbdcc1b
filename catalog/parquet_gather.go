package catalog

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Gathering the rows a scan's filter keeps out of a directColumn's
// decoded batch.

// take returns the rows sel of the decoded batch as a new array, or every
// row when sel is nil or handOver is set. With handOver the scratch
// buffers become the array's and the next decode allocates new ones.
func (dc *directColumn) take(sel []int32, handOver bool) arrow.Array {
	if dc.indexed {
		return dc.takeIndexed(sel) // parquet_tests.go
	}
	if sel == nil && handOver {
		a := dc.array(dc.mem, dc.valid, dc.fixed, dc.offs, dc.data, dc.n, dc.nulls)
		dc.fixed, dc.offs, dc.data, dc.valid = nil, nil, nil, nil
		return a
	}
	n := len(sel)
	if sel == nil {
		n = dc.n
	}
	var valid []byte
	nulls := 0
	if dc.valid != nil {
		valid = make([]byte, (n+7)/8)
		for i := 0; i < n; i++ {
			r := i
			if sel != nil {
				r = int(sel[i])
			}
			if dc.valid[r>>3]&(1<<(r&7)) != 0 {
				valid[i>>3] |= 1 << (i & 7)
			} else {
				nulls++
			}
		}
		if nulls == 0 {
			valid = nil
		}
	}
	if sel == nil {
		sel = identity(n)
	}
	switch {
	case dc.kind == directBytes:
		offs, data := gatherStrings(dc.offs, dc.data, sel)
		return dc.array(dc.mem, valid, nil, offs, data, n, nulls)
	case dc.kind == directBool:
		bits := make([]byte, (n+7)/8)
		for i, r := range sel {
			if dc.fixed[r>>3]&(1<<(r&7)) != 0 {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
		return dc.array(dc.mem, valid, bits, nil, nil, n, nulls)
	case dc.width == 8:
		out := gatherRuns(arrow.Int64Traits.CastFromBytes(dc.fixed), sel)
		return dc.array(dc.mem, valid, arrow.Int64Traits.CastToBytes(out), nil, nil, n, nulls)
	default: // width 4
		out := gatherRuns(arrow.Int32Traits.CastFromBytes(dc.fixed), sel)
		return dc.array(dc.mem, valid, arrow.Int32Traits.CastToBytes(out), nil, nil, n, nulls)
	}
}

// gatherRuns returns src[sel[i]] for every i, copying runs of consecutive
// rows with one copy each: a filter that keeps most rows (Q1 keeps 98%)
// selects long runs, which copy faster than element by element.
func gatherRuns[T any](src []T, sel []int32) []T {
	out := make([]T, len(sel))
	if len(sel) == 0 {
		return out
	}
	// Runs pay only when they are long: with a fifth or more of the span
	// missing they are short (a random filter keeping 63% of the rows has
	// runs under three long), and a plain gather beats a copy call per run.
	if span := int(sel[len(sel)-1]-sel[0]) + 1; len(sel)*5 < span*4 {
		for i, r := range sel {
			out[i] = src[r]
		}
		return out
	}
	for i := 0; i < len(sel); {
		r := int(sel[i])
		j := i + 1
		for j < len(sel) && int(sel[j]) == r+(j-i) {
			j++
		}
		if j-i == 1 {
			out[i] = src[r]
		} else {
			copy(out[i:j], src[r:r+(j-i)])
		}
		i = j
	}
	return out
}

// gatherStrings returns the offsets and data of the strings sel of a
// string column (offs, data), runs of consecutive rows copied at once.
func gatherStrings(offs []int32, data []byte, sel []int32) ([]int32, []byte) {
	out := make([]int32, len(sel)+1)
	total := 0
	for i, r := range sel {
		total += int(offs[r+1] - offs[r])
		out[i+1] = int32(total)
	}
	od := make([]byte, total)
	for i := 0; i < len(sel); {
		r := int(sel[i])
		j := i + 1
		for j < len(sel) && int(sel[j]) == r+(j-i) {
			j++
		}
		copy(od[out[i]:out[j]], data[offs[r]:offs[r+(j-i)]])
		i = j
	}
	return out, od
}

func identity(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}
