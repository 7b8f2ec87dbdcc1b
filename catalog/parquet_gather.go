package catalog

import (
	"github.com/apache/arrow-go/v18/arrow"

	gqmem "gq/memory"
)

// Gathering the rows a scan's filter keeps out of a directColumn's
// decoded batch.

// take returns the rows sel (nil: all) of the decoded batch as an array.
// With handOver the scratch buffers may become the array's (the next
// decode allocates new ones): when every row is wanted, and when most are
// and the values are fixed-width, compacted where they lie — the rows
// were just decoded there, so moving them costs less than copying them
// to fresh memory (TPC-H q01's filter keeps 98% of lineitem). Otherwise
// the rows are copied into a new array.
func (dc *directColumn) take(sel []int32, handOver bool) arrow.Array {
	if dc.indexed {
		return dc.takeIndexed(sel) // parquet_columntest.go
	}
	if dc.picked {
		sel = nil // the batch is the selected rows already (decodeSome)
	}
	if handOver && sel == nil {
		valid := dc.valid
		dc.valid = nil // the array's now
		return dc.handOver(valid, dc.n, dc.nulls)
	}
	compact := handOver && len(sel)*2 >= dc.n && (dc.width == 8 || dc.width == 4) && dc.kind != directBytes
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
	if compact {
		if dc.width == 8 {
			compactRuns(arrow.Int64Traits.CastFromBytes(dc.fixed), sel)
		} else {
			compactRuns(arrow.Int32Traits.CastFromBytes(dc.fixed), sel)
		}
		dc.fixed = dc.fixed[:n*dc.width]
		return dc.handOver(valid, n, nulls)
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
func gatherRuns[T gqmem.Fixed](src []T, sel []int32) []T {
	out := gqmem.Scratch[T](len(sel))
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

// handOver returns the first n scratch values as an array with the given
// validity, and leaves the column to allocate new scratch buffers.
func (dc *directColumn) handOver(valid []byte, n, nulls int) arrow.Array {
	a := dc.array(dc.mem, valid, dc.fixed, dc.offs, dc.data, n, nulls)
	dc.fixed, dc.offs, dc.data = nil, nil, nil
	return a
}

// compactRuns moves s[sel[i]] to s[i] for every i, runs of consecutive
// rows with one copy each. sel ascends, so no row is overwritten before it
// has moved (copy handles the overlap of a run with its destination).
func compactRuns[T gqmem.Fixed](s []T, sel []int32) {
	for i := 0; i < len(sel); {
		r := int(sel[i])
		j := i + 1
		for j < len(sel) && int(sel[j]) == r+(j-i) {
			j++
		}
		if r != i {
			copy(s[i:j], s[r:r+(j-i)])
		}
		i = j
	}
}

// gatherStrings returns the offsets and data of the strings sel of a
// string column (offs, data), runs of consecutive rows copied at once.
func gatherStrings(offs []int32, data []byte, sel []int32) ([]int32, []byte) {
	out := gqmem.Scratch[int32](len(sel) + 1)
	out[0] = 0
	total := 0
	for i, r := range sel {
		total += int(offs[r+1] - offs[r])
		out[i+1] = int32(total)
	}
	od := gqmem.Scratch[byte](total)
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
