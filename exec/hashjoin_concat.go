package exec

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// concatParallel is ConcatBatches on up to threads goroutines. A hash
// join's build concatenates its whole input before anything else can run,
// and on one goroutine that copy left the other cores idle (TPC-H q09's
// intermediate builds carry 7 and 13 columns). Columns of fixed-width
// values or of strings, without NULLs, are copied batch by batch into
// buffers sized once; any other column is one array.Concatenate, those
// running side by side.
func concatParallel(mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch, threads int) (arrow.RecordBatch, error) {
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	if threads <= 1 || len(batches) <= 1 || rows < 1<<16 || rows > 1<<31-1 {
		return ConcatBatches(mem, schema, batches)
	}
	nf := schema.NumFields()
	cols := make([]arrow.Array, nf)
	colErr := make([]error, nf)
	var jobs []func()
	var bufs []*memory.Buffer // released once the arrays hold them
	starts := make([]int, len(batches)+1)
	for k, b := range batches {
		starts[k+1] = starts[k] + int(b.NumRows())
	}
	for i := range nf {
		dt := schema.Field(i).Type
		parts := make([]arrow.Array, len(batches))
		nulls := false
		for k, b := range batches {
			parts[k] = b.Column(i)
			nulls = nulls || parts[k].NullN() > 0
		}
		if w := plainWidth(dt); w > 0 && !nulls {
			buf := memory.NewResizableBuffer(mem)
			buf.Resize(int(rows) * w)
			bufs = append(bufs, buf)
			out := buf.Bytes()
			for k, p := range parts {
				jobs = append(jobs, func() {
					d := p.Data()
					if d.Len() == 0 {
						return
					}
					src := d.Buffers()[1].Bytes()[d.Offset()*w : (d.Offset()+d.Len())*w]
					copy(out[starts[k]*w:], src)
				})
			}
			cols[i] = arrayOf(dt, int(rows), buf)
			continue
		}
		if (dt.ID() == arrow.STRING || dt.ID() == arrow.BINARY) && !nulls {
			// Each part's bytes go at the sum of the lengths before it.
			dstart := make([]int, len(parts)+1)
			for k, p := range parts {
				_, data := binView(p)
				dstart[k+1] = dstart[k] + len(data)
			}
			if dstart[len(parts)] > 1<<31-1 {
				jobs = append(jobs, concatJob(mem, parts, &cols[i], &colErr[i]))
				continue
			}
			offBuf, dataBuf := memory.NewResizableBuffer(mem), memory.NewResizableBuffer(mem)
			offBuf.Resize((int(rows) + 1) * 4)
			dataBuf.Resize(dstart[len(parts)])
			bufs = append(bufs, offBuf, dataBuf)
			outOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
			outData := dataBuf.Bytes()
			outOffs[rows] = int32(dstart[len(parts)])
			for k, p := range parts {
				jobs = append(jobs, func() {
					offs, data := binView(p)
					if len(offs) == 0 {
						return
					}
					shift := int32(dstart[k]) - offs[0]
					for j, o := range offs[:len(offs)-1] {
						outOffs[starts[k]+j] = o + shift
					}
					copy(outData[dstart[k]:], data)
				})
			}
			cols[i] = arrayOf(dt, int(rows), offBuf, dataBuf)
			continue
		}
		jobs = append(jobs, concatJob(mem, parts, &cols[i], &colErr[i]))
	}
	// Arrays made from the buffers hold their own references.
	for _, b := range bufs {
		b.Release()
	}
	var next atomic.Int64
	perr := parallel(min(threads, len(jobs)), func(int) {
		for {
			j := int(next.Add(1)) - 1
			if j >= len(jobs) {
				return
			}
			jobs[j]()
		}
	})
	err := perr
	for _, e := range colErr {
		if err == nil && e != nil {
			err = e
		}
	}
	if err != nil {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		return nil, err
	}
	out := array.NewRecordBatch(schema, cols, rows)
	releaseArrays(cols)
	return out, nil
}

// arrayOf makes an array without NULLs of n values in bufs.
func arrayOf(dt arrow.DataType, n int, bufs ...*memory.Buffer) arrow.Array {
	d := array.NewData(dt, n, append([]*memory.Buffer{nil}, bufs...), nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// concatJob concatenates parts into *dst with array.Concatenate.
func concatJob(mem memory.Allocator, parts []arrow.Array, dst *arrow.Array, err *error) func() {
	return func() { *dst, *err = array.Concatenate(parts, mem) }
}

// binView is a String or Binary array's offsets (len+1 of them, none
// when the array is empty) and the bytes from its first value's start.
func binView(a arrow.Array) ([]int32, []byte) {
	if a.Len() == 0 {
		return nil, nil
	}
	switch x := a.(type) {
	case *array.String:
		return x.ValueOffsets(), x.ValueBytes()
	case *array.Binary:
		return x.ValueOffsets(), x.ValueBytes()
	}
	return nil, nil
}

// plainWidth is the byte width of a type whose values are one buffer of
// fixed-width elements, 0 for any other.
func plainWidth(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return 1
	case arrow.INT16, arrow.UINT16:
		return 2
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32, arrow.DECIMAL32:
		return 4
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION, arrow.DECIMAL64:
		return 8
	case arrow.DECIMAL128:
		return 16
	case arrow.DECIMAL256:
		return 32
	}
	return 0
}
