package gpuexec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	gqmem "gq/memory"
)

// fakeDeviceMemory stands in for the device behind a pool: one range.
type fakeDeviceMemory struct{}

func (fakeDeviceMemory) MemAlloc(n int64) (arrowgpu.DevPtr, error) { return 0x7f0000000000, nil }
func (fakeDeviceMemory) MemFree(arrowgpu.DevPtr) error             { return nil }

// The device table cache is the DEVICE tier's spillable: a reservation
// over the limit evicts the least recently used tables no scan has pinned,
// and only as many as it needs. Runs without a GPU (the pool's memory is a
// fake; nothing reads it).
func TestDeviceCacheSpills(t *testing.T) {
	const limit = 1 << 20
	g := newGPU(nil, limit)
	pool, err := arrowgpu.NewPool(fakeDeviceMemory{}, limit, arrowgpu.NewDeviceTier(g.mem))
	if err != nil {
		t.Fatal(err)
	}
	g.pool = pool
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	var tables []*devTable
	for i := range 3 {
		buf, err := pool.Alloc(300 << 10)
		if err != nil {
			t.Fatal(err)
		}
		tb := catalog.NewMemTable(fmt.Sprintf("t%d", i), schema, nil)
		dt := &devTable{table: tb, cols: map[int][]*arrowgpu.Column{0: {{Type: arrow.PrimitiveTypes.Int64, Data: buf}}},
			dicts: map[int]*devDict{}, used: int64([]int{0, 2, 1}[i])}
		dt.bytes.Store(300 << 10)
		g.cache.tables[tb] = dt
		tables = append(tables, dt)
	}
	tables[0].pins = 1 // the oldest, but a scan is reading it
	if got := g.mem.Reserved(gqmem.Device); got != 900<<10 {
		t.Fatalf("DEVICE reserved %d, want %d", got, 900<<10)
	}
	// 400 KiB more does not fit in 1 MiB: t2 (least recently used of the
	// unpinned; its block borders the free tail, so the space is one span)
	// goes, t1 stays.
	b, err := pool.Alloc(400 << 10)
	if err != nil {
		t.Fatalf("allocation that eviction makes room for: %v", err)
	}
	if len(tables[2].cols) != 0 || len(tables[1].cols) != 1 || len(tables[0].cols) != 1 {
		t.Errorf("after eviction: t0 %d, t1 %d, t2 %d columns; want 1, 1, 0", len(tables[0].cols), len(tables[1].cols), len(tables[2].cols))
	}
	if got := g.mem.Reserved(gqmem.Device); got != 1000<<10 {
		t.Errorf("DEVICE reserved %d, want %d", got, 1000<<10)
	}
	// More than the unpinned tables hold: the allocation fails, as a
	// resources-exhausted error that GPU operators fall back on.
	if _, err := pool.Alloc(800 << 10); err == nil || !gpuFallback(err) {
		t.Errorf("allocation beyond what eviction frees: %v", err)
	}
	if len(tables[0].cols) != 1 {
		t.Error("the pinned table was evicted")
	}
	b.Free()
	tables[0].pins = 0
	g.cache.evict(nil)
	if got := g.mem.Reserved(gqmem.Device); got != 0 || len(g.cache.tables) != 0 {
		t.Errorf("after evicting all: DEVICE reserved %d, %d tables", got, len(g.cache.tables))
	}
	if err := pool.Close(); err != nil {
		t.Error(err)
	}
}

// A sticky device fault disables the GPU for the process; other errors,
// an out-of-memory included, do not.
func TestGPUDisabledBySticky(t *testing.T) {
	g := newGPU(nil, 1<<20)
	g.noteErr(nil)
	g.noteErr(&arrowgpu.CUDAError{Call: "cuMemAlloc", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY"})
	if g.Err() != nil {
		t.Fatalf("disabled by a non-sticky error: %v", g.Err())
	}
	fault := fmt.Errorf("GPU scan of t: %w", &arrowgpu.CUDAError{Call: "cuStreamSynchronize", Code: 700, Name: "CUDA_ERROR_ILLEGAL_ADDRESS"})
	g.noteErr(fault)
	if g.Err() != fault {
		t.Errorf("after an illegal address: Err() = %v", g.Err())
	}
}

// What the GPU operators fall back to the CPU on, and what fails a query.
func TestGPUFallbackKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		back bool
	}{
		{errs.New(errs.Unsupported, "GPU expressions: function upper of strings"), true},
		{errs.New(errs.ResourcesExhausted, "GPU memory pool: 1 bytes requested"), true},
		{fmt.Errorf("GPU scan of t: %w", &arrowgpu.NVRTCError{Call: "nvrtcCompileProgram", Code: 6, Log: "error: identifier undefined"}), true},
		{errs.New(errs.Execution, "overflow or value out of range in mul(a, b)"), false},
		{fmt.Errorf("GPU scan of t: %w", &arrowgpu.CUDAError{Call: "cuStreamSynchronize", Code: 700}), false},
	} {
		if got := gpuFallback(tc.err); got != tc.back {
			t.Errorf("%v: fallback %v, want %v", tc.err, got, tc.back)
		}
	}
}

// A load whose dictionary codes fail to upload part-way (the device limit
// reached on the third chunk, say) frees a dictionary whose later chunks
// have no codes: that frees what there is, not a nil column.
func TestDevDictFreeAfterPartialLoad(t *testing.T) {
	g := testGPU(t)
	q, err := g.queue()
	if err != nil {
		t.Fatal(err)
	}
	defer g.putQueue(q)
	before := g.PoolStats().Allocations
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{0, 1, 0}, nil)
	codes := b.NewArray()
	defer codes.Release()
	b.Release()
	col, err := q.UploadArray(codes)
	if err != nil {
		t.Fatal(err)
	}
	d := &devDict{codes: []*arrowgpu.Column{col, nil, nil}}
	d.free()
	if got := g.PoolStats().Allocations; got != before {
		t.Errorf("%d device allocations after free, %d before", got, before)
	}
}
