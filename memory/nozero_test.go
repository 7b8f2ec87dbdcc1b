package memory

import (
	"runtime"
	"testing"
)

func TestNoZero(t *testing.T) {
	for _, n := range []int{0, 1, 7, 4096, 1 << 20} {
		s := noZero[int64](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("noZero(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			s[i] = int64(i)
		}
		runtime.GC() // the slice must stay valid while referenced
		for i, v := range s {
			if v != int64(i) {
				t.Fatalf("noZero(%d)[%d] = %d after a collection", n, i, v)
			}
		}
	}
	b := noZero[byte](3)
	if len(b) != 3 {
		t.Fatalf("noZero[byte](3): len %d", len(b))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("noZero(-1) did not panic")
		}
	}()
	noZero[int32](-1)
}

func TestAllocateNoZeroCounts(t *testing.T) {
	a := NewAllocator(nil, nil)
	b := a.AllocateNoZero(1 << 16)
	if len(b) != 1<<16 || a.Live() != 1<<16 || a.Allocations() != 1 {
		t.Fatalf("len %d live %d allocations %d", len(b), a.Live(), a.Allocations())
	}
	a.Free(b)
	if a.Live() != 0 {
		t.Fatalf("live %d after Free", a.Live())
	}
}
