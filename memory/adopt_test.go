package memory

import (
	"testing"

	amem "github.com/apache/arrow-go/v18/arrow/memory"
)

func TestAdopt(t *testing.T) {
	parent := NewAllocator(nil, nil)
	a := NewAllocator(nil, parent)
	b := make([]byte, 1000)
	if !a.Adopt(b) {
		t.Fatal("an allocator over the Go allocator refused to adopt")
	}
	if a.Live() != 1000 || parent.Live() != 1000 || a.Peak() != 1000 {
		t.Fatalf("adopted 1000 bytes: live %d, parent %d, peak %d", a.Live(), parent.Live(), a.Peak())
	}
	buf := amem.NewBufferWithAllocator(b, a)
	buf.Release() // a batch's buffer released: Free uncounts
	if a.Live() != 0 || parent.Live() != 0 {
		t.Fatalf("after release: live %d, parent %d", a.Live(), parent.Live())
	}
	// Over another allocator, Free would hand Go memory to it: refused.
	checked := amem.NewCheckedAllocator(amem.NewGoAllocator())
	if NewAllocator(checked, nil).Adopt(b) {
		t.Fatal("an allocator over a checked allocator adopted Go memory")
	}
}
