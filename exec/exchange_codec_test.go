package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDecodedBatchOwnsItsBytes checks what the exchange relies on when it
// releases a chunk to the receive pool right after decoding it: the
// decoded batch holds copies in the query's allocator, not slices of the
// chunk, so overwriting the chunk changes nothing.
func TestDecodedBatchOwnsItsBytes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := make([]any, 1000)
	for i := range vals {
		vals[i] = int64(i * 7)
	}
	in := mkBatch(mem, []string{"k"}, []arrow.DataType{arrow.PrimitiveTypes.Int64}, vals)
	defer in.Release()
	chunk, err := encodeBatch(in)
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(context.Background(), Options{Threads: 1, BatchSize: 1024, Alloc: mem})
	var got []arrow.RecordBatch
	err = decodeBatches(c, chunk, in.Schema(), func(b arrow.RecordBatch) bool { got = append(got, b); return true })
	if err != nil {
		t.Fatal(err)
	}
	for i := range chunk {
		chunk[i] = 0xA5
	}
	if len(got) != 1 {
		t.Fatalf("%d batches decoded, want 1", len(got))
	}
	col := got[0].Column(0).(*array.Int64)
	for i := range col.Len() {
		if col.Value(i) != int64(i*7) {
			t.Fatalf("row %d: %d after the chunk was overwritten, want %d", i, col.Value(i), i*7)
		}
	}
	got[0].Release()
}
