package exec

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// concatParallel is ConcatBatches on up to threads goroutines, and it
// consumes batches: each batch's column is released as soon as it has
// been copied, and a column's output buffer is allocated when its first
// copy starts. A hash join's build concatenates its whole input before
// anything else can run, so copying it whole while holding all of it
// doubled the join's memory at its peak; this way the input and the copy
// overlap by the columns in flight. On one goroutine that copy also left
// the other cores idle (joins whose builds carry 7 and 13 columns).
// Columns of fixed-width values or of strings, without NULLs, are copied
// batch by batch into buffers sized once; any other column is one
// array.Concatenate, those running side by side.
func concatParallel(mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch, threads int) (arrow.RecordBatch, error) {
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	if len(batches) == 1 {
		return batches[0], nil
	}
	if len(batches) == 0 || rows > 1<<31-1 {
		defer releaseBatchList(batches)
		return ConcatBatches(mem, schema, batches)
	}
	if rows < 1<<16 {
		threads = 1
	}
	nf := schema.NumFields()
	starts := make([]int, len(batches)+1)
	for k, b := range batches {
		starts[k+1] = starts[k] + int(b.NumRows())
	}
	// parts[i][k] is batch k's column i, held on its own so that it can be
	// released when copied while the batch's other columns wait.
	parts := make([][]arrow.Array, nf)
	for i := range nf {
		parts[i] = make([]arrow.Array, len(batches))
		for k, b := range batches {
			parts[i][k] = b.Column(i)
			parts[i][k].Retain()
		}
	}
	releaseBatchList(batches)
	cols := make([]arrow.Array, nf)
	colErr := make([]error, nf)
	allocs := make([]sync.Once, nf)
	var jobs []func()
	for i := range nf {
		dt := schema.Field(i).Type
		nulls := false
		for _, p := range parts[i] {
			nulls = nulls || p.NullN() > 0
		}
		if w := plainWidth(dt); w > 0 && !nulls {
			var out []byte
			alloc := func() {
				buf := memory.NewResizableBuffer(mem)
				buf.Resize(int(rows) * w)
				out = buf.Bytes()
				cols[i] = arrayOf(dt, int(rows), buf)
				buf.Release() // the array holds it
			}
			for k := range parts[i] {
				jobs = append(jobs, func() {
					allocs[i].Do(alloc)
					p := parts[i][k]
					if d := p.Data(); d.Len() > 0 {
						src := d.Buffers()[1].Bytes()[d.Offset()*w : (d.Offset()+d.Len())*w]
						copy(out[starts[k]*w:], src)
					}
					p.Release()
					parts[i][k] = nil
				})
			}
			continue
		}
		if (dt.ID() == arrow.STRING || dt.ID() == arrow.BINARY) && !nulls {
			// Each part's bytes go at the sum of the lengths before it.
			dstart := make([]int, len(parts[i])+1)
			for k, p := range parts[i] {
				_, data := binView(p)
				dstart[k+1] = dstart[k] + len(data)
			}
			if dstart[len(parts[i])] > 1<<31-1 {
				jobs = append(jobs, concatJob(mem, parts[i], &cols[i], &colErr[i]))
				continue
			}
			var outOffs []int32
			var outData []byte
			alloc := func() {
				offBuf, dataBuf := memory.NewResizableBuffer(mem), memory.NewResizableBuffer(mem)
				offBuf.Resize((int(rows) + 1) * 4)
				dataBuf.Resize(dstart[len(parts[i])])
				outOffs = arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
				outData = dataBuf.Bytes()
				outOffs[rows] = int32(dstart[len(parts[i])])
				cols[i] = arrayOf(dt, int(rows), offBuf, dataBuf)
				offBuf.Release()
				dataBuf.Release()
			}
			for k := range parts[i] {
				jobs = append(jobs, func() {
					allocs[i].Do(alloc)
					p := parts[i][k]
					if offs, data := binView(p); len(offs) > 0 {
						shift := int32(dstart[k]) - offs[0]
						for j, o := range offs[:len(offs)-1] {
							outOffs[starts[k]+j] = o + shift
						}
						copy(outData[dstart[k]:], data)
					}
					p.Release()
					parts[i][k] = nil
				})
			}
			continue
		}
		jobs = append(jobs, concatJob(mem, parts[i], &cols[i], &colErr[i]))
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
	// Parts a failed job left behind.
	for _, ps := range parts {
		releaseArrays(ps)
	}
	err := perr
	for _, e := range colErr {
		if err == nil && e != nil {
			err = e
		}
	}
	if err != nil {
		releaseArrays(cols)
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

// concatJob concatenates parts into *dst with array.Concatenate, then
// releases them.
func concatJob(mem memory.Allocator, parts []arrow.Array, dst *arrow.Array, err *error) func() {
	return func() {
		*dst, *err = array.Concatenate(parts, mem)
		releaseArrays(parts)
		clear(parts)
	}
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
