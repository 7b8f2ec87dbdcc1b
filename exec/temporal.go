package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
