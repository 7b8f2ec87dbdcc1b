package gpuexec

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/exec"
	gqmem "gq/memory"
)

// A table past the resident budget streams: acquire loads nothing, each
// hands every row once in chunks of the rows the limit sizes, a string
// column's codes index the strings published at the pass's end in every
// chunk (numbered across chunks, whichever order they came in), a column
// of more than maxDictValues strings has none, and every device byte is
// freed after the pass; a second pass numbers the strings as the first.
func TestGPUStreamView(t *testing.T) {
	g := testGPU(t)
	defer func(d int) { maxDictValues = d }(maxDictValues)
	maxDictValues = 100
	defer g.SetDeviceLimitForTesting(160 << 10)()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tb := &rowCounted{Table: loadTable("stream"), rows: func(int) int64 { return 300 }}
	c := exec.NewContext(context.Background(), exec.Options{Threads: 3, BatchSize: 128, Alloc: mem})
	before := g.PoolStats().Allocations
	v, loaded, err := g.cache.acquire(c, tb, []int{0, 1, 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.cache.releaseView(v)
	if v.stream == nil || loaded != 0 {
		t.Fatalf("a table past the budget loaded %d bytes, streamed: %v", loaded, v.stream != nil)
	}
	if v.stream.rows >= 23*300 {
		t.Fatalf("chunks of %d rows under a 160 KiB limit", v.stream.rows)
	}
	q, err := g.queue()
	if err != nil {
		t.Fatal(err)
	}
	defer g.putQueue(q)
	var ctr chunkCounters
	v.ctr = &ctr
	for pass := range 2 {
		var mu sync.Mutex
		byK := map[int64]int32{} // row k → its code of s (-1: NULL)
		wideCodes := 0
		err := v.each(c, g, q, []int{1, 2}, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
			if ch.hostErr != nil {
				return false, ch.hostErr
			}
			ka, err := wq.Download(ch.col(0), mem)
			if err != nil {
				return false, err
			}
			defer ka.Release()
			ca, err := wq.Download(ch.code(1), mem)
			if err != nil {
				return false, err
			}
			defer ca.Release()
			ks, codes := ka.(*array.Int64), ca.(*array.Int32)
			mu.Lock()
			defer mu.Unlock()
			if ch.code(2) != nil {
				wideCodes++
			}
			for i := range ks.Len() {
				code := int32(-1)
				if codes.IsValid(i) {
					code = codes.Value(i)
				}
				byK[ks.Value(i)] = code
			}
			return false, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(byK) != 23*300 {
			t.Fatalf("pass %d: %d distinct rows, want %d", pass, len(byK), 23*300)
		}
		d := v.dicts[1]
		for k, code := range byK {
			want := "NULL"
			if k%11 != 0 {
				want = loadValue(int(k))
			}
			got := "NULL"
			if code >= 0 {
				got = d.values.Value(int(code))
			}
			if got != want {
				t.Fatalf("pass %d: row %d: %q through its code, want %q", pass, k, got, want)
			}
		}
		if d.values.Len() != 9 {
			t.Errorf("pass %d: %d strings in the dictionary, want 9", pass, d.values.Len())
		}
		if wideCodes > 0 {
			t.Errorf("pass %d: column wide (6900 distinct values) has codes in %d chunks; maxDictValues is 100", pass, wideCodes)
		}
		if got := g.PoolStats().Allocations; got != before {
			t.Errorf("pass %d: %d device allocations after the pass, %d before", pass, got, before)
		}
	}
	if n := ctr.streamed.Load(); n < 4 {
		t.Errorf("%d chunks streamed over two passes, want several", n)
	}
	if txt := ctr.text(); !strings.Contains(txt, " streamed (") {
		t.Errorf("chunks text %q names no streamed chunk", txt)
	}
}

// A streamed chunk the device has no room for while the stream's other
// chunks hold it waits for them and runs on the device alone, rather than
// reaching its consumer with hostErr (which a GPUJoinRows that has sent
// rows cannot fall back from): here the first chunk's consumer holds all
// the device memory left until another chunk reaches a consumer, or for
// a while.
func TestGPUStreamChunkWaitsForRoom(t *testing.T) {
	g := testGPU(t)
	defer g.SetDeviceLimitForTesting(160 << 10)()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tb := &rowCounted{Table: loadTable("stream-room"), rows: func(int) int64 { return 300 }}
	c := exec.NewContext(context.Background(), exec.Options{Threads: 3, BatchSize: 128, Alloc: mem})
	v, _, err := g.cache.acquire(c, tb, []int{0, 1, 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.cache.releaseView(v)
	if v.stream == nil {
		t.Fatal("the table did not stream")
	}
	q, err := g.queue()
	if err != nil {
		t.Fatal(err)
	}
	defer g.putQueue(q)
	var first sync.Once
	var rows, onHost atomic.Int64
	another := make(chan struct{}, 1)
	err = v.each(c, g, q, nil, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
		rows.Add(int64(ch.rows))
		if ch.hostErr != nil {
			onHost.Add(1)
		}
		holder := false
		first.Do(func() { holder = true })
		if !holder {
			select {
			case another <- struct{}{}:
			default:
			}
			return false, nil
		}
		var hold *gqmem.Reservation
		for hold == nil {
			hold, _ = g.mem.Reserve(gqmem.Device, max(0, g.mem.Available(gqmem.Device)), false)
		}
		defer hold.Release()
		select {
		case <-another:
		case <-time.After(300 * time.Millisecond):
		}
		return false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows.Load() != 23*300 || onHost.Load() > 0 {
		t.Errorf("%d rows streamed, %d chunks without room on the device; want %d and none", rows.Load(), onHost.Load(), 23*300)
	}
}
