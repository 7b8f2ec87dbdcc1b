package catalog

import (
	"encoding/binary"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"gq/errs"
	"gq/expr"
)

// Parquet's INTERVAL is a 12-byte FIXED_LEN_BYTE_ARRAY with the INTERVAL
// converted type: months, days and milliseconds, each a little-endian
// unsigned 32-bit word. (DuckDB writes a negative part as its two's
// complement but reads the milliseconds back unsigned, so a negative
// time comes back as some 1,193 hours.) arrow-go has no Arrow type that
// writes as it; parquetIntervalType, an extension type over the 12
// bytes, asks its Parquet writer for the INTERVAL logical type.

const nsPerMilli = 1_000_000

type parquetIntervalType struct{ arrow.ExtensionBase }

type parquetIntervalArray struct{ array.ExtensionArrayBase }

func newParquetIntervalType() *parquetIntervalType {
	return &parquetIntervalType{ExtensionBase: arrow.ExtensionBase{Storage: &arrow.FixedSizeBinaryType{ByteWidth: 12}}}
}

func (*parquetIntervalType) ArrayType() reflect.Type { return reflect.TypeOf(parquetIntervalArray{}) }
func (*parquetIntervalType) ExtensionName() string   { return "gq.parquet_interval" }
func (*parquetIntervalType) Serialize() string       { return "" }

func (*parquetIntervalType) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return newParquetIntervalType(), nil
}

func (t *parquetIntervalType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == t.ExtensionName()
}

// ParquetLogicalType makes pqarrow write the INTERVAL converted type.
func (*parquetIntervalType) ParquetLogicalType() schema.LogicalType {
	return schema.IntervalLogicalType{}
}

// parquetIntervals is an INTERVAL column as Parquet stores it; a value
// with a negative part, a fraction of a millisecond, or more
// milliseconds than 32 bits hold is an error naming the column and the
// value: Parquet's INTERVAL cannot hold it (DuckDB's writer truncates
// the fraction and wraps a negative part, both silently).
func parquetIntervals(name string, a *array.MonthDayNanoInterval, mem memory.Allocator) (arrow.Array, error) {
	bld := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 12})
	defer bld.Release()
	bld.Reserve(a.Len())
	var buf [12]byte
	for i := range a.Len() {
		if a.IsNull(i) {
			bld.AppendNull()
			continue
		}
		v := a.Value(i)
		ms := v.Nanoseconds / nsPerMilli
		if v.Months < 0 || v.Days < 0 || v.Nanoseconds < 0 || v.Nanoseconds%nsPerMilli != 0 || ms != int64(uint32(ms)) {
			return nil, errs.New(errs.Unsupported, "column %s: INTERVAL %s cannot be written to Parquet, whose INTERVAL holds months, days and whole milliseconds, none negative: cast the column to VARCHAR, or write CSV",
				name, expr.FormatInterval(v))
		}
		binary.LittleEndian.PutUint32(buf[0:], uint32(v.Months))
		binary.LittleEndian.PutUint32(buf[4:], uint32(v.Days))
		binary.LittleEndian.PutUint32(buf[8:], uint32(ms))
		bld.Append(buf[:])
	}
	storage := bld.NewArray()
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(newParquetIntervalType(), storage), nil
}

// isParquetInterval reports whether a file's column is Parquet's INTERVAL.
func isParquetInterval(f arrow.Field, col *schema.Column) bool {
	t, ok := f.Type.(*arrow.FixedSizeBinaryType)
	return ok && t.ByteWidth == 12 && col.ConvertedType() == schema.ConvertedTypes.Interval
}

// intervalsFromParquet is the gq INTERVAL column of Parquet's 12-byte
// values. Months and days are read as DuckDB reads them, signed (a
// month or day count past 2^31 is no real interval; a negative one is
// what DuckDB wrote), the milliseconds unsigned.
func intervalsFromParquet(a *array.FixedSizeBinary, mem memory.Allocator) arrow.Array {
	bld := array.NewMonthDayNanoIntervalBuilder(mem)
	defer bld.Release()
	bld.Reserve(a.Len())
	for i := range a.Len() {
		if a.IsNull(i) {
			bld.AppendNull()
			continue
		}
		b := a.Value(i)
		bld.UnsafeAppend(arrow.MonthDayNanoInterval{
			Months:      int32(binary.LittleEndian.Uint32(b[0:])),
			Days:        int32(binary.LittleEndian.Uint32(b[4:])),
			Nanoseconds: int64(binary.LittleEndian.Uint32(b[8:])) * nsPerMilli,
		})
	}
	return bld.NewArray()
}
