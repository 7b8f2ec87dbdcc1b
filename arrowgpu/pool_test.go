package arrowgpu

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gq/errs"
	gqmem "gq/memory"
)

// fakeBacking stands in for device memory: it hands out one address range.
type fakeBacking struct{ allocs, frees int }

func (f *fakeBacking) MemAlloc(n int64) (DevPtr, error) { f.allocs++; return 0x7f0000000000, nil }
func (f *fakeBacking) MemFree(p DevPtr) error           { f.frees++; return nil }

// fakeAcct records reservations and refuses beyond a limit.
type fakeAcct struct{ used, limit int64 }

func (a *fakeAcct) Reserve(n int64) error {
	if a.used+n > a.limit {
		return errs.New(errs.ResourcesExhausted, "device limit")
	}
	a.used += n
	return nil
}
func (a *fakeAcct) Release(n int64) { a.used -= n }

func TestPoolAllocFreeCoalesce(t *testing.T) {
	fb := &fakeBacking{}
	acct := &fakeAcct{limit: 1 << 30}
	p, err := NewPool(fb, 10*poolAlign, acct)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Alloc(1) // rounds to one poolAlign
	b, _ := p.Alloc(poolAlign + 1)
	c, _ := p.Alloc(3 * poolAlign)
	if a.Ptr%poolAlign != 0 || b.Ptr != a.Ptr+poolAlign || c.Ptr != b.Ptr+2*poolAlign {
		t.Fatalf("unexpected layout %#x %#x %#x", a.Ptr, b.Ptr, c.Ptr)
	}
	if acct.used != 6*poolAlign || p.Stats().InUse != 6*poolAlign {
		t.Fatalf("accounted %d, in use %d", acct.used, p.Stats().InUse)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	// Best fit: a 2-block request takes b's hole, not the 4-block tail.
	d, _ := p.Alloc(2 * poolAlign)
	if d.Ptr != a.Ptr+poolAlign {
		t.Errorf("best fit chose %#x, want b's hole %#x", d.Ptr, a.Ptr+poolAlign)
	}
	for _, x := range []*Buffer{&a, &c, &d} {
		if err := x.Free(); err != nil {
			t.Fatal(err)
		}
	}
	st := p.Stats()
	if st.FreeSpans != 1 || st.LargestFree != 10*poolAlign || st.InUse != 0 || acct.used != 0 {
		t.Fatalf("not coalesced back to one span: %v, accounted %d", st, acct.used)
	}
	if st.Peak != 6*poolAlign {
		t.Errorf("peak %d", st.Peak)
	}
	if err := p.Close(); err != nil || fb.frees != 1 {
		t.Fatalf("close: %v, frees %d", err, fb.frees)
	}
}

func TestPoolErrors(t *testing.T) {
	acct := &fakeAcct{limit: 4 * poolAlign}
	p, _ := NewPool(&fakeBacking{}, 8*poolAlign, acct)
	if _, err := p.Alloc(5 * poolAlign); !errors.Is(err, errs.ResourcesExhausted) {
		t.Errorf("accountant refusal: got %v", err)
	}
	acct.limit = 1 << 30
	if _, err := p.Alloc(9 * poolAlign); !errors.Is(err, errs.ResourcesExhausted) || acct.used != 0 {
		t.Errorf("pool full: got %v, accounted %d (must be released)", err, acct.used)
	}
	z, err := p.Alloc(0)
	if err != nil || z.Ptr != 0 || z.Free() != nil {
		t.Errorf("zero allocation: %v %v", z, err)
	}
	b, _ := p.Alloc(10)
	dup := b
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := dup.Free(); !errors.Is(err, errs.Internal) {
		t.Errorf("double free: got %v", err)
	}
	live, _ := p.Alloc(10)
	if err := p.Close(); !errors.Is(err, errs.Internal) {
		t.Errorf("close with live allocation: got %v", err)
	}
	_ = live
}

// Random allocations and frees never overlap and always coalesce back.
func TestPoolRandom(t *testing.T) {
	acct := &fakeAcct{limit: 1 << 40}
	const blocks = 1024
	p, _ := NewPool(&fakeBacking{}, blocks*poolAlign, acct)
	r := rand.New(rand.NewPCG(1, 2))
	var live []Buffer
	owner := make([]int, blocks) // block → 1 + index into live, 0 free
	for step := 0; step < 5000; step++ {
		if len(live) > 0 && r.IntN(2) == 0 {
			i := r.IntN(len(live))
			b := live[i]
			for k := int64(0); k < alignUp(b.Size)/poolAlign; k++ {
				owner[int64(b.Ptr-p.base)/poolAlign+k] = 0
			}
			if err := b.Free(); err != nil {
				t.Fatal(err)
			}
			live = append(live[:i], live[i+1:]...)
			continue
		}
		n := int64(r.IntN(16*poolAlign) + 1)
		b, err := p.Alloc(n)
		if err != nil {
			if !errors.Is(err, errs.ResourcesExhausted) {
				t.Fatal(err)
			}
			continue
		}
		for k := int64(0); k < alignUp(n)/poolAlign; k++ {
			blk := int64(b.Ptr-p.base)/poolAlign + k
			if owner[blk] != 0 {
				t.Fatalf("step %d: block %d handed out twice", step, blk)
			}
			owner[blk] = 1
		}
		live = append(live, b)
	}
	for i := range live {
		live[i].Free()
	}
	if st := p.Stats(); st.FreeSpans != 1 || st.InUse != 0 || acct.used != 0 {
		t.Fatalf("after freeing all: %v, accounted %d", st, acct.used)
	}
}

// The memory manager's DEVICE tier limits the pool through DeviceTier.
func TestPoolWithDeviceTier(t *testing.T) {
	lim := gqmem.NoLimits()
	lim[gqmem.Device] = 4 * poolAlign
	br := gqmem.NewBufferResource(gqmem.Options{Limits: lim})
	defer br.Close()
	p, _ := NewPool(&fakeBacking{}, 16*poolAlign, NewDeviceTier(br))
	a, err := p.Alloc(3 * poolAlign)
	if err != nil || br.Reserved(gqmem.Device) != 3*poolAlign {
		t.Fatalf("alloc: %v, DEVICE reserved %d", err, br.Reserved(gqmem.Device))
	}
	if _, err := p.Alloc(2 * poolAlign); !errors.Is(err, errs.ResourcesExhausted) || !strings.Contains(err.Error(), "DEVICE") {
		t.Errorf("over the DEVICE limit: got %v", err)
	}
	a.Free()
	if br.Reserved(gqmem.Device) != 0 || p.Stats().InUse != 0 {
		t.Errorf("after free: DEVICE reserved %d, pool %v", br.Reserved(gqmem.Device), p.Stats())
	}
}

// roomAcct is a fakeAcct whose MakeRoom frees what others hold (cached
// tables, in the DEVICE tier), one buffer a call.
type roomAcct struct {
	fakeAcct
	held  []Buffer
	calls int
}

func (a *roomAcct) MakeRoom(n int64) int64 {
	a.calls++
	if len(a.held) == 0 {
		return 0
	}
	b := a.held[0]
	a.held = a.held[1:]
	sz := alignUp(b.Size)
	b.Free()
	return sz
}

// With its free bytes in pieces too small, the pool asks its accountant
// for room (what others hold and can give back) before it fails: the
// spans given back join the pieces.
func TestPoolMakesRoomWhenFragmented(t *testing.T) {
	acct := &roomAcct{fakeAcct: fakeAcct{limit: 1 << 30}}
	p, err := NewPool(&fakeBacking{}, 8*poolAlign, acct)
	if err != nil {
		t.Fatal(err)
	}
	var bs []Buffer
	for range 8 {
		b, err := p.Alloc(poolAlign)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	// Free every other block: 4 free blocks, none adjacent. Blocks 1
	// and 3 are a cached table's, given back on request.
	for i := 0; i < 8; i += 2 {
		bs[i].Free()
	}
	acct.held = []Buffer{bs[1], bs[3]}
	got, err := p.Alloc(3 * poolAlign)
	if err != nil {
		t.Fatalf("fragmented pool with room to give: %v (%v)", err, p.Stats())
	}
	if acct.calls == 0 || p.Stats().InUse != 3*poolAlign+3*poolAlign {
		t.Errorf("MakeRoom called %d times; pool %v", acct.calls, p.Stats())
	}
	got.Free()
	// Nothing left to give (block 3 stays another's): a request no span
	// holds fails, naming the largest free block.
	acct.held = nil
	if _, err := p.Alloc(6 * poolAlign); !errors.Is(err, errs.ResourcesExhausted) || !strings.Contains(err.Error(), "largest free block") {
		t.Errorf("nothing to give: got %v", err)
	}
	for _, i := range []int{3, 5, 7} {
		if err := bs[i].Free(); err != nil {
			t.Fatal(err)
		}
	}
	if st := p.Stats(); st.InUse != 0 || st.FreeSpans != 1 || acct.used != 0 {
		t.Errorf("after freeing all: %v, accounted %d", st, acct.used)
	}
}
