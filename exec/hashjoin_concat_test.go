package exec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// concatParallel must give what ConcatBatches gives: fixed-width and
// string columns copied batch by batch (sliced batches, empty batches and
// strings included), columns with NULLs or of other types concatenated
// whole.
func TestConcatParallelMatchesConcatBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, // NULLs in one batch
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "m", Type: &arrow.Decimal128Type{Precision: 30, Scale: 2}},
	}, nil)
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
	defer releaseBatchList(batches)
	want, err := ConcatBatches(mem, schema, batches)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	for _, threads := range []int{1, 3, 8} {
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
