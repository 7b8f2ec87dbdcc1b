package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"gq/errs"
	"gq/expr"
)

// normalizeTimeType maps a file's timestamp and time types to gq's (µs,
// expr.Timestamp and expr.Time): a timestamp with any zone is an instant,
// stored in UTC by Arrow, so it reads as TIMESTAMPTZ whatever zone the
// file names. ok is false for other types.
func normalizeTimeType(t arrow.DataType) (arrow.DataType, bool) {
	switch t := t.(type) {
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return expr.TimestampTZ, true
		}
		return expr.Timestamp, true
	case *arrow.Time32Type, *arrow.Time64Type:
		return expr.Time, true
	}
	return nil, false
}

// unitToMicros is the conversion of unit u to µs: multiply by mul, then
// divide (flooring) by div.
func unitToMicros(u arrow.TimeUnit) (mul, div int64) {
	switch u {
	case arrow.Second:
		return 1_000_000, 1
	case arrow.Millisecond:
		return 1000, 1
	case arrow.Nanosecond:
		return 1, 1000
	}
	return 1, 1
}

// normalizeTimeArray converts a timestamp or time array to µs (want is
// from normalizeTimeType); handled is false for other arrays. Nanoseconds
// are floored to the µs below (DuckDB truncates them); seconds and
// milliseconds beyond the int64 µs range are an error naming the value.
func normalizeTimeArray(arr arrow.Array, want arrow.DataType, mem memory.Allocator) (out arrow.Array, handled bool, err error) {
	if a, ok := arr.(*array.FixedSizeBinary); ok && want.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
		return intervalsFromParquet(a, mem), true, nil // Parquet's INTERVAL (isParquetInterval)
	}
	var vals []int64
	var unit arrow.TimeUnit
	switch a := arr.(type) {
	case *array.Timestamp:
		unit = a.DataType().(*arrow.TimestampType).Unit
		vals = make([]int64, a.Len())
		for i, v := range a.TimestampValues() {
			vals[i] = int64(v)
		}
	case *array.Time64:
		unit = a.DataType().(*arrow.Time64Type).Unit
		vals = make([]int64, a.Len())
		for i, v := range a.Time64Values() {
			vals[i] = int64(v)
		}
	case *array.Time32:
		unit = a.DataType().(*arrow.Time32Type).Unit
		vals = make([]int64, a.Len())
		for i, v := range a.Time32Values() {
			vals[i] = int64(v)
		}
	default:
		return nil, false, nil
	}
	mul, div := unitToMicros(unit)
	for i, v := range vals {
		switch {
		case div > 1:
			q := v / div
			if v%div != 0 && v < 0 {
				q--
			}
			vals[i] = q
		case mul > 1:
			r := v * mul
			if r/mul != v && arr.IsValid(i) {
				return nil, true, errs.New(errs.Execution, "value %d (%s) is out of the TIMESTAMP range", v, arr.DataType())
			}
			vals[i] = r
		}
	}
	return withValues(arr, want, arrow.Int64Traits.CastToBytes(vals), mem), true, nil
}

// naiveTimestamp is t, except that a TIMESTAMPTZ read from a Parquet INT96
// column or from a legacy TIMESTAMP_MILLIS/MICROS converted type (no
// logical type) is a TIMESTAMP: arrow-go marks both UTC, but neither says
// its values are instants, and DuckDB, Spark and Impala read them as
// wall-clock timestamps. The stored values are the same either way.
func naiveTimestamp(t arrow.DataType, col *schema.Column) arrow.DataType {
	if !arrow.TypeEqual(t, expr.TimestampTZ) {
		return t
	}
	if col.PhysicalType() == parquet.Types.Int96 {
		return expr.Timestamp
	}
	if lt, ok := col.LogicalType().(schema.TimestampLogicalType); ok && lt.IsFromConvertedType() {
		return expr.Timestamp
	}
	return t
}

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2_440_588

// int96Micros converts Parquet INT96 timestamps (nanoseconds of the day,
// then the Julian day, little-endian) to µs since the Unix epoch, the
// nanoseconds truncated to µs as DuckDB truncates them. The day is read
// signed (no real Julian day passes 2^31): a writer's overflowed value
// then lies outside the int64 µs range and is an error naming the column,
// not a wrapped date.
func int96Micros(out []int64, vals []parquet.Int96, column string) error {
	for i, v := range vals {
		nanos := int64(binary.LittleEndian.Uint64(v[:8]))
		days := int64(int32(binary.LittleEndian.Uint32(v[8:]))) - julianUnixEpoch
		us, ok := mulAddChecked(days, 86_400_000_000, nanos/1000)
		if !ok {
			return fmt.Errorf("column %s: an INT96 timestamp (Julian day %d) is out of the TIMESTAMP range", column, days+julianUnixEpoch)
		}
		out[i] = us
	}
	return nil
}

// mulAddChecked is a*b+c, and false when it overflows int64.
func mulAddChecked(a, b, c int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(max(a, -a)), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	p := int64(lo)
	if a < 0 {
		p = -p
	}
	r := p + c
	if (c > 0 && r < p) || (c < 0 && r > p) {
		return 0, false
	}
	return r, true
}
