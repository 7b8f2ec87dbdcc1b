package catalog

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	gqmem "gq/memory"
)

// countedAllocator is the query's accounting allocator as the engine makes
// it, for scan tests: the batches a scan emits must be counted on it (the
// direct reader's buffers are adopted, see buffer) and it must return to
// zero once they are released.
func countedAllocator(t *testing.T) *gqmem.Allocator {
	t.Helper()
	mem := gqmem.NewAllocator(nil, nil)
	t.Cleanup(func() {
		if n := mem.Live(); n != 0 {
			t.Errorf("%d bytes still counted after every batch was released", n)
		}
	})
	return mem
}

// checkCounted fails unless every byte of b's buffers is counted on mem (b
// is the only batch the caller holds).
func checkCounted(t *testing.T, mem *gqmem.Allocator, b arrow.RecordBatch) {
	t.Helper()
	var n int64
	for _, c := range b.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
	}
	if live := mem.Live(); live < n {
		t.Fatalf("a batch of %d buffer bytes, only %d counted on the query's allocator", n, live)
	}
}
