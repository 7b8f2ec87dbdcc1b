package exec

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
	gqmem "gq/memory"
)

// TakeBatch gathers rows idx of b into a new batch (same schema). An index
// of -1 yields a row of NULLs (the padding of outer joins).
func TakeBatch(mem memory.Allocator, b arrow.RecordBatch, idx []int32) arrow.RecordBatch {
	cols := make([]arrow.Array, b.NumCols())
	for i := range cols {
		cols[i] = TakeArray(mem, b.Column(i), idx)
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(len(idx)))
	for _, c := range cols {
		c.Release()
	}
	return out
}

// TakeArray gathers values idx of arr into a new array; -1 yields NULL.
func TakeArray(mem memory.Allocator, arr arrow.Array, idx []int32) arrow.Array {
	if expr.IsNested(arr.DataType()) {
		return expr.TakeNested(mem, arr, idx)
	}
	if iv, ok := arr.(*array.MonthDayNanoInterval); ok {
		return takeIntervals(mem, iv, idx)
	}
	if _, ok := arr.(*array.Null); ok {
		// Before takeValidity: a NULL column that came over a
		// communicator (IPC) has no buffers at all, not a nil bitmap.
		return array.NewNull(len(idx))
	}
	n := len(idx)
	validity, nulls := takeValidity(mem, arr, idx)
	var data arrow.ArrayData
	switch a := arr.(type) {
	case *array.Int64:
		data = takeFixed(mem, arr.DataType(), a.Int64Values(), idx, validity, nulls)
	case *array.Float64:
		data = takeFixed(mem, arr.DataType(), a.Float64Values(), idx, validity, nulls)
	case *array.Date32:
		data = takeFixed(mem, arr.DataType(), a.Date32Values(), idx, validity, nulls)
	case *array.Decimal64:
		data = takeFixed(mem, arr.DataType(), a.Values(), idx, validity, nulls)
	case *array.Decimal128:
		data = takeFixed(mem, arr.DataType(), a.Values(), idx, validity, nulls)
	case *array.Timestamp, *array.Time64:
		data = takeFixed(mem, arr.DataType(), temporalInts(a), idx, validity, nulls)
	case *array.Int32:
		data = takeFixed(mem, arr.DataType(), a.Int32Values(), idx, validity, nulls)
	case *array.Boolean:
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := buf.Bytes()
		for i, j := range idx {
			if j >= 0 && a.Value(int(j)) {
				bitutil.SetBit(bits, i)
			} else {
				bitutil.ClearBit(bits, i)
			}
		}
		data = array.NewData(arr.DataType(), n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
		buf.Release()
	case *array.String:
		data = takeString(mem, a, idx, validity, nulls)
	default:
		panic(fmt.Sprintf("exec.TakeArray: type %s is not a gq value type", arr.DataType()))
	}
	if validity != nil {
		validity.Release()
	}
	out := array.MakeFromData(data)
	data.Release()
	return out
}

// takeValidity returns the gathered validity bitmap, or nil when every
// gathered value is valid.
func takeValidity(mem memory.Allocator, arr arrow.Array, idx []int32) (*memory.Buffer, int) {
	// Read the bitmap's presence, not NullN(): NullN may lazily compute and
	// store the count, which races when workers share one build-side array.
	hasNulls := arr.Data().Buffers()[0] != nil
	if !hasNulls {
		for _, j := range idx {
			if j < 0 {
				hasNulls = true
				break
			}
		}
	}
	if !hasNulls {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
	bits := buf.Bytes()
	nulls := 0
	for i, j := range idx {
		if j >= 0 && arr.IsValid(int(j)) {
			bitutil.SetBit(bits, i)
		} else {
			bitutil.ClearBit(bits, i)
			nulls++
		}
	}
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

func takeFixed[T ~int32 | ~int64 | ~float64 | decimal128.Num](mem memory.Allocator, dt arrow.DataType, vals []T, idx []int32, validity *memory.Buffer, nulls int) arrow.ArrayData {
	var zero T
	buf := gqmem.NewBufferNoZero(mem, len(idx)*int(unsafe.Sizeof(zero))) // every row written
	out := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), len(idx))
	for i, j := range idx {
		if j >= 0 {
			out[i] = vals[j]
		} else {
			out[i] = zero
		}
	}
	data := array.NewData(dt, len(idx), []*memory.Buffer{validity, buf}, nil, nulls, 0)
	buf.Release()
	return data
}

func takeString(mem memory.Allocator, a *array.String, idx []int32, validity *memory.Buffer, nulls int) arrow.ArrayData {
	// ValueOffsets are absolute positions in the value buffer while
	// ValueBytes starts at offs[0] (the array may be a slice): rebase.
	offs := a.ValueOffsets()
	base := offs[0]
	total := 0
	for _, j := range idx {
		if j >= 0 {
			total += int(offs[j+1] - offs[j])
		}
	}
	// Both written whole below.
	offBuf := gqmem.NewBufferNoZero(mem, (len(idx)+1)*4)
	outOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	dataBuf := gqmem.NewBufferNoZero(mem, total)
	bytes := dataBuf.Bytes()
	src := a.ValueBytes()
	pos := int32(0)
	for i, j := range idx {
		outOffs[i] = pos
		if j >= 0 {
			pos += int32(copy(bytes[pos:], src[offs[j]-base:offs[j+1]-base]))
		}
	}
	outOffs[len(idx)] = pos
	data := array.NewData(a.DataType(), len(idx), []*memory.Buffer{validity, offBuf, dataBuf}, nil, nulls, 0)
	offBuf.Release()
	dataBuf.Release()
	return data
}

// ConcatBatches joins batches (all of schema) into one batch. With no
// batches it returns an empty batch.
func ConcatBatches(mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(batches) == 1 {
		batches[0].Retain()
		return batches[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	for i := range cols {
		if len(batches) == 0 {
			cols[i] = array.MakeArrayOfNull(mem, schema.Field(i).Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for k, b := range batches {
			parts[k] = b.Column(i)
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, err
		}
		cols[i] = c
	}
	out := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}
