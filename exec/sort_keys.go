package exec

import (
	"bytes"
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

// sortCol is one sort key over the rows of a batch, normalised so that
// comparing two rows needs no interface call and no type switch: norm is
// an order-preserving image of each value as uint64 (complemented for
// DESC). Strings keep their first 8 bytes in norm and compare in full only
// on a tie. Normalised values are a function of the value alone, so rows
// of different batches compare too (top-N relies on it).
type sortCol struct {
	norm       []uint64
	valid      []bool // nil: no NULLs
	strData    []byte // strings only
	strOffs    []int32
	isStr      bool
	desc       bool
	nullsFirst bool
}

// sortKeys are the keys of one batch, most significant first.
type sortKeys []sortCol

const signBit = uint64(1) << 63

// newSortCol normalises arr (one of gq's value types).
func newSortCol(arr arrow.Array, desc, nullsFirst bool) (sortCol, error) {
	n := arr.Len()
	c := sortCol{norm: make([]uint64, n), desc: desc, nullsFirst: nullsFirst}
	norm := c.norm
	switch a := arr.(type) {
	case *array.Int64:
		for i, v := range a.Int64Values() {
			norm[i] = uint64(v) ^ signBit
		}
	case *array.Decimal64:
		for i, v := range a.Values() {
			norm[i] = uint64(v) ^ signBit
		}
	case *array.Timestamp, *array.Time64:
		for i, v := range temporalInts(a) {
			norm[i] = uint64(v) ^ signBit
		}
	case *array.Date32:
		for i, v := range a.Date32Values() {
			norm[i] = uint64(int64(v)) ^ signBit
		}
	case *array.Float64:
		for i, v := range a.Float64Values() {
			norm[i] = normFloat(v)
		}
	case *array.Boolean:
		for i := range n {
			if a.Value(i) {
				norm[i] = 1
			}
		}
	case *array.String:
		c.isStr = true
		c.strData = a.ValueBytes()
		offs := a.ValueOffsets()
		if len(offs) > 0 && offs[0] != 0 {
			// A sliced array: ValueBytes starts at the first value, the
			// offsets at the start of the whole buffer.
			rebased := make([]int32, len(offs))
			for i, o := range offs {
				rebased[i] = o - offs[0]
			}
			offs = rebased
		}
		c.strOffs = offs
		for i := range n {
			norm[i] = strPrefix(c.strData[offs[i]:offs[i+1]])
		}
	case *array.Null:
	default:
		return sortCol{}, errs.New(errs.Internal, "cannot sort by a %s value", arr.DataType())
	}
	if arr.NullN() > 0 {
		c.valid = make([]bool, n)
		for i := range n {
			if arr.IsValid(i) {
				c.valid[i] = true
			} else {
				norm[i] = 0 // NULLs never compare by value
			}
		}
	}
	if desc {
		for i := range norm {
			norm[i] = ^norm[i]
		}
	}
	return c, nil
}

// sortColCount is how many sort columns newSortCols makes for a key of
// type t, for callers that split the columns by key (a window's partition
// keys come before its order keys).
func sortColCount(t arrow.DataType) int {
	switch t.ID() {
	case arrow.DECIMAL128:
		return 2
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return 3
	}
	return 1
}

// newSortCols normalises arr into the sort columns that order it: one,
// for a Decimal128 two (its high word signed, then its low word
// unsigned), which compared in turn order the 128-bit values, and for an
// Interval three (intervalSortCols).
func newSortCols(arr arrow.Array, desc, nullsFirst bool) ([]sortCol, error) {
	if iv, ok := arr.(*array.MonthDayNanoInterval); ok {
		return intervalSortCols(iv, desc, nullsFirst), nil
	}
	d, ok := arr.(*array.Decimal128)
	if !ok {
		c, err := newSortCol(arr, desc, nullsFirst)
		if err != nil {
			return nil, err
		}
		return []sortCol{c}, nil
	}
	n := d.Len()
	hi := sortCol{norm: make([]uint64, n), desc: desc, nullsFirst: nullsFirst}
	lo := sortCol{norm: make([]uint64, n), desc: desc, nullsFirst: nullsFirst}
	for i, v := range d.Values() {
		hi.norm[i] = uint64(v.HighBits()) ^ signBit
		lo.norm[i] = v.LowBits()
	}
	if d.NullN() > 0 {
		hi.valid = make([]bool, n)
		for i := range n {
			if d.IsValid(i) {
				hi.valid[i] = true
			} else {
				hi.norm[i], lo.norm[i] = 0, 0 // NULLs never compare by value
			}
		}
		lo.valid = hi.valid
	}
	if desc {
		for i := range n {
			hi.norm[i], lo.norm[i] = ^hi.norm[i], ^lo.norm[i]
		}
	}
	return []sortCol{hi, lo}, nil
}

// normFloat maps a float64 to a uint64 with the same order; -0 equals 0
// and every NaN sorts after +Inf (as in PostgreSQL and DuckDB).
func normFloat(v float64) uint64 {
	switch {
	case v == 0:
		v = 0
	case v != v:
		return math.MaxUint64
	}
	b := math.Float64bits(v)
	if b&signBit != 0 {
		return ^b
	}
	return b | signBit
}

// strPrefix is the first 8 bytes of s, big-endian, zero padded.
func strPrefix(s []byte) uint64 {
	if len(s) >= 8 {
		return binary.BigEndian.Uint64(s)
	}
	var buf [8]byte
	copy(buf[:], s)
	return binary.BigEndian.Uint64(buf[:])
}

func (c *sortCol) str(i int32) []byte { return c.strData[c.strOffs[i]:c.strOffs[i+1]] }

// compareRows compares row a of ka with row b of kb (same key layout),
// returning -1, 0 or 1 in sort order. Ties are the caller's to break.
func compareRows(ka sortKeys, a int32, kb sortKeys, b int32) int {
	for k := range ka {
		ca, cb := &ka[k], &kb[k]
		if ca.valid != nil || cb.valid != nil {
			va := ca.valid == nil || ca.valid[a]
			vb := cb.valid == nil || cb.valid[b]
			if va != vb {
				if va == ca.nullsFirst { // a valid and NULLs first, or a NULL and NULLs last
					return 1
				}
				return -1
			}
			if !va {
				continue
			}
		}
		x, y := ca.norm[a], cb.norm[b]
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
		if ca.isStr {
			if r := bytes.Compare(ca.str(a), cb.str(b)); r != 0 {
				if ca.desc {
					return -r
				}
				return r
			}
		}
	}
	return 0
}

// buildSortKeys evaluates and normalises keys over b.
func buildSortKeys(c *Context, keys []compiledExpr, desc, nullsFirst []bool, b arrow.RecordBatch) (sortKeys, []arrow.Array, error) {
	arrs, err := evalAll(c.Alloc, keys, b)
	if err != nil {
		return nil, nil, err
	}
	sk := make(sortKeys, 0, len(keys))
	for i, a := range arrs {
		cols, err := newSortCols(a, desc[i], nullsFirst[i])
		if err != nil {
			releaseArrays(arrs)
			return nil, nil, err
		}
		sk = append(sk, cols...)
	}
	// The string columns point into arrs, so the caller keeps them alive
	// while it uses the keys.
	return sk, arrs, nil
}

// int64View reinterprets decimal values as int64 (Decimal64 is an int64).
func int64View[T ~int64](v []T) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}
