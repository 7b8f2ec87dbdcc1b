package memory

import (
	"testing"
	"unsafe"
)

func allPoison(b []byte) bool {
	for _, v := range b {
		if v != poisonByte {
			return false
		}
	}
	return true
}

// TestRecycleOnlyOwn checks which freed buffers are recycled (poisoned,
// under SetPoisonFreed): AllocateNoZero's and adopted Scratch buffers,
// not Allocate's (arrow-go's) nor adopted memory of other capacities.
func TestRecycleOnlyOwn(t *testing.T) {
	defer SetPoisonFreed(SetPoisonFreed(true))
	a := NewAllocator(nil, nil)
	fill := func(b []byte) {
		for i := range b {
			b[i] = 1
		}
	}

	nz := a.AllocateNoZero(100_000)
	if cap(nz) != 1<<17 {
		t.Fatalf("AllocateNoZero(100000) capacity %d, want its class's 131072", cap(nz))
	}
	fill(nz)
	a.Free(nz)
	if !allPoison(nz[:cap(nz)]) {
		t.Errorf("a freed AllocateNoZero buffer was not recycled")
	}

	z := a.Allocate(1 << 17)
	fill(z)
	a.Free(z)
	if allPoison(z) {
		t.Errorf("a freed Allocate buffer was recycled: arrow-go's buffers must be left to the collector")
	}

	s := Scratch[int64](20_000)
	if len(s) != 20_000 || cap(s) != 1<<15 {
		t.Fatalf("Scratch[int64](20000) len %d cap %d, want 20000 and 32768", len(s), cap(s))
	}
	sb := bytesOf(s)
	fill(sb)
	if !a.Adopt(sb) {
		t.Fatal("Adopt refused Go memory")
	}
	a.Free(sb)
	if !allPoison(sb) {
		t.Errorf("a freed adopted Scratch buffer was not recycled")
	}

	odd := make([]byte, 100_000)
	fill(odd)
	a.Adopt(odd)
	a.Free(odd)
	if allPoison(odd) {
		t.Errorf("adopted memory of a capacity no class has was recycled")
	}
	if a.Live() != 0 {
		t.Errorf("live %d bytes after every buffer was freed", a.Live())
	}

	// A buffer freed twice (a double release) is recycled once: the
	// second Free finds it no longer owned.
	d := a.AllocateNoZero(1 << 16)
	a.Free(d)
	if disown(d) {
		t.Errorf("a freed buffer is still owned")
	}
}

// TestReallocateZeroesGrowth checks that growing a recycled buffer within
// its capacity exposes zeros, not an earlier batch's bytes, as growing
// Go's zeroed allocations does.
func TestReallocateZeroesGrowth(t *testing.T) {
	a := NewAllocator(nil, nil)
	b := a.AllocateNoZero(1 << 16)
	for i := range b[:cap(b)] {
		b[:cap(b)][i] = 7
	}
	b = a.Reallocate(100, b)
	b = a.Reallocate(1<<16, b)
	for i, v := range b[100:] {
		if v != 0 {
			t.Fatalf("byte %d after growing is %d, want 0", 100+i, v)
		}
	}
	if got := a.Live(); got != 1<<16 {
		t.Errorf("live %d, want %d", got, 1<<16)
	}
	a.Free(b)
}

func bytesOf(s []int64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*8)
}
