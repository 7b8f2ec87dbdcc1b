package exec

import (
	"math"

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

// intervalOrder is an interval's place in ORDER BY, DuckDB's: a month
// counts 30 days, a day 24 hours (saturating far outside any real use).
func intervalOrder(v arrow.MonthDayNanoInterval) int64 {
	const day = int64(86_400_000_000)
	us := float64(v.Months)*30*float64(day) + float64(v.Days)*float64(day) + float64(v.Nanoseconds/1000)
	switch {
	case us >= 9.2e18:
		return math.MaxInt64
	case us <= -9.2e18:
		return math.MinInt64
	}
	return int64(v.Months)*30*day + int64(v.Days)*day + v.Nanoseconds/1000
}
