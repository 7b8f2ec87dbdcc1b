package gpuexec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Whatever a load's batches do with their buffers (grow and shrink small
// ones, which the allocator beneath keeps; grow past the classes; free
// before or after the load ends), the allocator beneath gets every byte
// back, and a kept buffer is handed out again zeroed.
func TestLoadAllocatorAccounts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := newLoadAllocator(mem)
	small := a.Allocate(100)
	small = a.Reallocate(120, small) // within the Go allocator's capacity
	small = a.Reallocate(50, small)
	small = a.Reallocate(70000, small) // into a class
	big := a.Allocate(200000)
	big[0] = 7
	a.Free(big)
	again := a.Allocate(190000) // the same class: the kept buffer
	if again[0] != 0 {
		t.Error("a kept buffer came back unzeroed")
	}
	again = a.Reallocate(300000, again)
	a.Free(small)
	late := a.Allocate(64 << 10)
	a.drain()
	a.Free(again)
	a.Free(late) // after the load: straight to the allocator beneath
}
