package exec

import (
	"encoding/binary"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// temporalInts is the int64 view of a TIMESTAMP, TIMESTAMPTZ or TIME
// column (all int64 µs physically, ordered as their int64s), nil for any
// other array: the key, sort, min/max and take paths treat these types
// as Int64 through it.
func temporalInts(a arrow.Array) []int64 {
	switch x := a.(type) {
	case *array.Timestamp:
		return asInt64s(x.TimestampValues())
	case *array.Time64:
		return asInt64s(x.Time64Values())
	}
	return nil
}

// takeIntervals is TakeArray for an INTERVAL column (16-byte values).
func takeIntervals(mem memory.Allocator, a *array.MonthDayNanoInterval, idx []int32) arrow.Array {
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	b.Reserve(len(idx))
	for _, j := range idx {
		if j < 0 || a.IsNull(int(j)) {
			b.AppendNull()
		} else {
			b.UnsafeAppend(a.Value(int(j)))
		}
	}
	return b.NewArray()
}

// intervalSortCols are the sort columns of an INTERVAL column in
// DuckDB's order: its normal form's months, days and nanoseconds
// (expr.NormInterval), each signed, compared in turn.
func intervalSortCols(a *array.MonthDayNanoInterval, desc, nullsFirst bool) []sortCol {
	n := a.Len()
	cols := make([]sortCol, 3)
	for k := range cols {
		cols[k] = sortCol{norm: make([]uint64, n), desc: desc, nullsFirst: nullsFirst}
	}
	var valid []bool
	if a.NullN() > 0 {
		valid = make([]bool, n)
	}
	for i := range n {
		if a.IsNull(i) {
			continue // NULLs never compare by value
		}
		if valid != nil {
			valid[i] = true
		}
		m, d, ns := expr.NormInterval(a.Value(i))
		for k, v := range [3]int64{m, d, ns} {
			u := uint64(v) ^ signBit
			if desc {
				u = ^u
			}
			cols[k].norm[i] = u
		}
	}
	for k := range cols {
		cols[k].valid = valid
	}
	return cols
}

// intervalReps gives INTERVAL keys back as the values they were: a key
// is an interval's normal form (expr.NormInterval: 30 days and 1 month
// are one group, one join key), and a group shows the first value of it
// seen (DuckDB shows one of its values, not the normal form). Shared by
// the copies of a codec and the tables made from it, so by every worker.
type intervalReps struct {
	mu    sync.Mutex
	first map[[3]int64]arrow.MonthDayNanoInterval
}

func newIntervalReps() *intervalReps {
	return &intervalReps{first: map[[3]int64]arrow.MonthDayNanoInterval{}}
}

func intervalNorm(v arrow.MonthDayNanoInterval) [3]int64 {
	m, d, ns := expr.NormInterval(v)
	return [3]int64{m, d, ns}
}

// encoder is encode's writer of column x's values (24 bytes each); it
// records each normal form's first value when r is not nil (a DISTINCT
// that only counts has none).
func (r *intervalReps) encoder(x *array.MonthDayNanoInterval, enc []byte) func(i int, p int32) int32 {
	if r != nil {
		r.mu.Lock()
		for i := range x.Len() {
			if x.IsValid(i) {
				v := x.Value(i)
				if k := intervalNorm(v); !r.has(k) {
					r.first[k] = v
				}
			}
		}
		r.mu.Unlock()
	}
	return func(i int, p int32) int32 {
		k := intervalNorm(x.Value(i))
		for j, w := range k {
			binary.LittleEndian.PutUint64(enc[p+int32(8*j):], uint64(w))
		}
		return p + 24
	}
}

func (r *intervalReps) has(k [3]int64) bool {
	_, ok := r.first[k]
	return ok
}

// decode is the value a key's 24 bytes stand for.
func (r *intervalReps) decode(b []byte) arrow.MonthDayNanoInterval {
	var k [3]int64
	for j := range k {
		k[j] = int64(binary.LittleEndian.Uint64(b[8*j:]))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.first[k]
}
