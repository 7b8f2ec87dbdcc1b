package exec

import (
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func concatTestSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, // NULLs in one batch
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "m", Type: &arrow.Decimal128Type{Precision: 30, Scale: 2}},
	}, nil)
}

// concatTestBatches makes batches of concatTestSchema: sliced, one empty.
func concatTestBatches(mem memory.Allocator, schema *arrow.Schema) []arrow.RecordBatch {
	var batches []arrow.RecordBatch
	row := 0
	for k, n := range []int{30000, 0, 17, 25000, 40000} {
		ib := array.NewInt64Builder(mem)
		db := array.NewDate32Builder(mem)
		sb := array.NewStringBuilder(mem)
		nb := array.NewInt32Builder(mem)
		bb := array.NewBooleanBuilder(mem)
		mb := array.NewDecimal128Builder(mem, schema.Field(5).Type.(*arrow.Decimal128Type))
		// Two extra rows at each end, sliced away below.
		for j := -2; j < n+2; j++ {
			r := row + j + 2
			ib.Append(int64(r) * 7)
			db.Append(arrow.Date32(r % 9000))
			sb.Append(fmt.Sprintf("v%04d", r%1000)[:1+r%4])
			if k == 3 && r%5 == 0 {
				nb.AppendNull()
			} else {
				nb.Append(int32(r))
			}
			bb.Append(r%3 == 0)
			mb.Append(decimal128.FromI64(int64(r)))
		}
		row += n
		cols := []arrow.Array{ib.NewArray(), db.NewArray(), sb.NewArray(), nb.NewArray(), bb.NewArray(), mb.NewArray()}
		for _, b := range []array.Builder{ib, db, sb, nb, bb, mb} {
			b.Release()
		}
		whole := array.NewRecordBatch(schema, cols, int64(n+4))
		releaseArrays(cols)
		batches = append(batches, whole.NewSlice(2, int64(n+2)))
		whole.Release()
	}
	return batches
}

// concatParallel must give what ConcatBatches gives: fixed-width and
// string columns copied batch by batch (sliced batches, empty batches and
// strings included), columns with NULLs or of other types concatenated
// whole.
func TestConcatParallelMatchesConcatBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := concatTestSchema()
	batches := concatTestBatches(mem, schema)
	defer releaseBatchList(batches)
	want, err := ConcatBatches(mem, schema, batches)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	for _, threads := range []int{1, 3, 8} {
		for _, b := range batches {
			b.Retain() // concatParallel consumes its input
		}
		got, err := concatParallel(mem, schema, batches, threads)
		if err != nil {
			t.Fatal(err)
		}
		if got.NumRows() != want.NumRows() {
			t.Fatalf("threads %d: %d rows, want %d", threads, got.NumRows(), want.NumRows())
		}
		for i := range int(want.NumCols()) {
			if !array.Equal(got.Column(i), want.Column(i)) {
				t.Errorf("threads %d: column %s differs", threads, schema.Field(i).Name)
			}
		}
		got.Release()
	}
}

// peakAllocator records the most bytes allocated at once.
type peakAllocator struct {
	*memory.CheckedAllocator
	mu   sync.Mutex
	peak int
}

func (p *peakAllocator) note() {
	p.mu.Lock()
	p.peak = max(p.peak, p.CurrentAlloc())
	p.mu.Unlock()
}

func (p *peakAllocator) Allocate(n int) []byte {
	b := p.CheckedAllocator.Allocate(n)
	p.note()
	return b
}

func (p *peakAllocator) Reallocate(n int, b []byte) []byte {
	b = p.CheckedAllocator.Reallocate(n, b)
	p.note()
	return b
}

// concatParallel releases each batch's column once copied and allocates a
// column's output when its copy starts, so that the build's input and its
// copy are not both whole at once: on one goroutine the peak stays under
// the input plus half its size (holding both would be twice the input).
func TestConcatParallelReleasesAsItCopies(t *testing.T) {
	pa := &peakAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
	defer pa.AssertSize(t, 0)
	schema := concatTestSchema()
	batches := concatTestBatches(pa, schema)
	in := pa.CurrentAlloc()
	pa.peak = 0
	got, err := concatParallel(pa, schema, batches, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.NumRows() != 95017 {
		t.Fatalf("%d rows, want 95017", got.NumRows())
	}
	if limit := in + in/2; pa.peak > limit {
		t.Errorf("peak %d bytes while concatenating %d bytes of input, want at most %d", pa.peak, in, limit)
	}
}
