package gpuexec

import (
	"context"
	"errors"
	"fmt"
	"runtime/trace"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/exec"
	gqmem "gq/memory"
)

// GPU is gq's handle on one GPU: the device, the pool its memory is served
// from, and the device-resident table cache (cache.go). There is one per
// process (OpenGPU): the device's memory is one resource, and columns loaded
// by one engine's query serve the next query, whichever engine runs it.
type GPU struct {
	// dv, pool and mem are set by the open (Wait), which closes opened.
	poolBytes int64
	startOnce sync.Once
	started   atomic.Bool
	opened    chan struct{}
	openErr   error
	openTime  time.Duration // how long the open took (set before opened closes)
	// poolNote says why the pool is smaller than the limit asked for
	// ("" when it is not); set before opened closes.
	poolNote  string
	poolNoted atomic.Bool
	dv        *arrowgpu.Device
	pool      *arrowgpu.Pool
	// mem accounts the pool's every byte in its DEVICE tier (limit: the
	// pool's size); a reservation that does not fit makes its spill
	// manager evict cached tables (deviceCache.Spill).
	mem   *gqmem.BufferResource
	cache *deviceCache

	mu     sync.Mutex
	queues []*arrowgpu.Queue // idle queues, reused: a queue's pinned staging is slow to allocate
	// broken is the device fault (a sticky CUDA error) that poisoned the
	// context: after it, nothing more runs on this GPU.
	broken atomic.Pointer[error]
	// groups remembers how many groups each aggregation (by kernel and
	// table) had when it last ran, so the next run sizes its hash table
	// right away instead of growing it and starting again.
	groups map[string]int
	// streamed and streamedHost count the chunks of streamed tables run
	// on the device and those it had no room for (StreamedChunks).
	streamed, streamedHost atomic.Int64
}

// groupsHint is the number of groups key had when it last ran (0: never).
func (g *GPU) groupsHint(key string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.groups[key]
}

func (g *GPU) setGroups(key string, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.groups == nil {
		g.groups = map[string]int{}
	}
	g.groups[key] = n
}

// queue returns an idle queue or a new one; putQueue gives it back.
func (g *GPU) queue() (*arrowgpu.Queue, error) {
	g.mu.Lock()
	if n := len(g.queues); n > 0 {
		q := g.queues[n-1]
		g.queues = g.queues[:n-1]
		g.mu.Unlock()
		return q, nil
	}
	g.mu.Unlock()
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return g.dv.NewQueue(g.pool, queueStaging)
}

// gpuStreams is how many chunks a GPU operator works on at once, each on
// a queue (stream) of its own, so that one chunk's round trips and
// downloads overlap another's kernels: 4, or what SetStreams gave (set
// when the GPU opens; for A/B runs on a GPU machine).
var gpuStreams = 4

// streamsSetting is SetStreams' value.
var streamsSetting atomic.Pointer[string]

// SetStreams sets how many chunks a GPU operator works on at once, as the
// binary's edge read GQ_GPU_STREAMS: "" (the default, 4) or a number from
// 1 to 64; another value fails the GPU's opening, saying so. It applies
// to a GPU opened after it.
func SetStreams(v string) { streamsSetting.Store(&v) }

// applyStreams sets gpuStreams from SetStreams' value.
func applyStreams() error {
	var v string
	if p := streamsSetting.Load(); p != nil {
		v = *p
	}
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 64 {
		return errs.New(errs.Unsupported, "GQ_GPU_STREAMS=%s: want a number of streams from 1 to 64", v)
	}
	gpuStreams = n
	return nil
}

// eachChunk runs fn for chunks 0..n-1, up to gpuStreams at once: the
// first worker on q, the others on queues of their own. It stops handing
// out chunks once fn fails or asks to stop, or c is cancelled, and
// returns the first error (c's when cancelled).
func (g *GPU) eachChunk(c *exec.Context, q *arrowgpu.Queue, n int, fn func(wq *arrowgpu.Queue, i int) (stop bool, err error)) error {
	var next atomic.Int64
	var halt atomic.Bool
	var wg sync.WaitGroup
	errc := make(chan error, gpuStreams)
	for w := range min(gpuStreams, n) {
		wq := q
		if w > 0 {
			var err error
			if wq, err = g.queue(); err != nil {
				errc <- err
				halt.Store(true)
				break
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w > 0 {
				defer g.putQueue(wq)
			}
			for !halt.Load() && c.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				stop, err := fn(wq, i)
				if err != nil {
					errc <- err
				}
				if err != nil || stop {
					halt.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return err
	}
	return c.Err()
}

// maxIdleQueues bounds the idle queues kept (each holds queueStaging bytes
// of pinned memory): enough for the scans of a many-way join, each with a
// few chunks in flight, so hot queries allocate none (cuMemAllocHost takes
// milliseconds and serialises).
const (
	maxIdleQueues = 64
	queueStaging  = 4 << 20
)

func (g *GPU) putQueue(q *arrowgpu.Queue) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queues) < maxIdleQueues {
		g.queues = append(g.queues, q)
		return
	}
	q.Close()
}

// The process's GPU is opened once, in the background: creating the
// CUDA context and reserving the pool take a few hundred milliseconds
// that a one-shot `gq -f` would otherwise wait for before it reads a
// file. ProcessGPU hands out the handle at once; Start begins opening
// it, and everything that needs the device itself (a queue, the pool)
// waits for the open (Wait) — a table load decodes its first splits
// meanwhile.
var processGPU struct {
	once sync.Once
	g    *GPU
}

// gpuPoolShare is the part of the device's free memory the pool reserves
// when no device memory limit is given: the rest is left to the driver
// (modules, streams, pinned mappings) and to other processes.
const gpuPoolShare = 0.85

// ProcessGPU returns the process's GPU handle, created on the first call
// with a pool of poolBytes (0: gpuPoolShare of the free memory), not yet
// opened: see Start and Wait.
func ProcessGPU(poolBytes int64) *GPU {
	processGPU.once.Do(func() {
		processGPU.g = &GPU{poolBytes: poolBytes, opened: make(chan struct{})}
		processGPU.g.cache = newDeviceCache(processGPU.g)
	})
	return processGPU.g
}

// OpenGPU returns the process's GPU once it is open. Without a driver,
// device or NVRTC it returns the reason, of kind errs.Unsupported.
func OpenGPU(poolBytes int64) (*GPU, error) {
	g := ProcessGPU(poolBytes)
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return g, nil
}

// Start begins opening the device in the background (once).
func (g *GPU) Start() {
	g.startOnce.Do(func() {
		g.started.Store(true)
		go func() {
			defer close(g.opened)
			t0 := time.Now()
			g.openErr = g.open()
			g.openTime = time.Since(t0)
		}()
	})
}

// OpenTime is how long opening the device took (driver, NVRTC, context,
// pool); 0 before it is open or for a device opened otherwise.
func (g *GPU) OpenTime() time.Duration {
	if !g.isOpen() {
		return 0
	}
	return g.openTime
}

// TakePoolNote says, once the device is open, why its pool is smaller
// than the device memory limit asked for: once per process, "" after
// that or when it is not.
func (g *GPU) TakePoolNote() string {
	if !g.isOpen() || g.poolNote == "" || g.poolNoted.Swap(true) {
		return ""
	}
	return g.poolNote
}

// Started reports whether Start has been called.
func (g *GPU) Started() bool { return g.started.Load() }

// Wait opens the device (Start) and returns when it is open, with the
// reason it could not be opened.
func (g *GPU) Wait() error {
	g.Start()
	<-g.opened
	return g.openErr
}

// isOpen reports whether the device is open and usable, without waiting.
func (g *GPU) isOpen() bool {
	select {
	case <-g.opened:
		return g.openErr == nil
	default:
		return false
	}
}

func (g *GPU) open() error {
	defer trace.StartRegion(context.Background(), "gpu-open").End()
	if err := applyStreams(); err != nil {
		return err
	}
	drv, err := arrowgpu.Load()
	if err != nil {
		return err
	}
	// Every GPU operator compiles kernels: without NVRTC the GPU is of no
	// use to gq, so say so now rather than at the first query.
	if _, err := arrowgpu.LoadNVRTC(); err != nil {
		return err
	}
	dv, err := drv.Open(0)
	if err != nil {
		return err
	}
	free, _, err := dv.MemInfo()
	if err != nil {
		dv.Close()
		return err
	}
	// A limit is a ceiling, not a demand: ranks that share a GPU, each
	// given a part of its memory, open one after another and the last
	// finds less free than its part once the others' contexts exist.
	// Its pool takes what is free, and says so, rather than failing.
	poolBytes, avail := g.poolBytes, int64(float64(free)*gpuPoolShare)
	if poolBytes <= 0 {
		poolBytes = avail
	} else if poolBytes > avail {
		g.poolNote = fmt.Sprintf("GPU: the device memory limit %s is more than the device has free (%s, of which the pool takes %.0f%%): the pool holds %s",
			gqmem.FormatBytes(poolBytes), gqmem.FormatBytes(int64(free)), gpuPoolShare*100, gqmem.FormatBytes(avail))
		poolBytes = avail
	}
	g.setMemory(poolBytes)
	pool, err := arrowgpu.NewPool(dv, poolBytes, arrowgpu.NewDeviceTier(g.mem))
	if err != nil {
		dv.Close()
		return err
	}
	g.dv, g.pool = dv, pool
	return nil
}

// newGPU is an open GPU on dv (nil in tests of the cache) whose memory
// resource limits the DEVICE tier to poolBytes.
func newGPU(dv *arrowgpu.Device, poolBytes int64) *GPU {
	g := &GPU{dv: dv, poolBytes: poolBytes, opened: make(chan struct{})}
	g.cache = newDeviceCache(g)
	g.setMemory(poolBytes)
	g.startOnce.Do(func() { g.started.Store(true) })
	close(g.opened)
	return g
}

// setMemory makes g's memory resource, its DEVICE tier limited to
// poolBytes, with the table cache registered as what that tier spills.
func (g *GPU) setMemory(poolBytes int64) {
	limits := gqmem.NoLimits()
	limits[gqmem.Device] = poolBytes
	g.mem = gqmem.NewBufferResource(gqmem.Options{Limits: limits})
	g.mem.SpillManager().Add(g.cache, 0)
}

// Err is the device fault that disabled the GPU, nil while it is usable.
// A sticky CUDA error (illegal address, launch failure, …) poisons the
// context for the process: later queries run on the CPU.
func (g *GPU) Err() error {
	if p := g.broken.Load(); p != nil {
		return *p
	}
	return nil
}

// noteErr disables the GPU when err is a sticky device fault.
func (g *GPU) noteErr(err error) {
	var ce *arrowgpu.CUDAError
	if errors.As(err, &ce) && ce.Sticky() {
		g.broken.CompareAndSwap(nil, &err)
	}
}

// PoolStats are the device pool's figures.
func (g *GPU) PoolStats() arrowgpu.PoolStats {
	if !g.isOpen() {
		return arrowgpu.PoolStats{}
	}
	return g.pool.Stats()
}

// SetChunkRowsForTesting makes the device cache's chunks at least n rows
// and returns what restores the default; every cached table is evicted
// first, so that the next loads chunk anew. For tests that run queries
// over several chunks of small tables; no query may be running.
func (g *GPU) SetChunkRowsForTesting(n int) (restore func()) {
	old := chunkRows
	g.cache.evict(nil)
	chunkRows = n
	return func() {
		g.cache.evict(nil)
		chunkRows = old
	}
}

// Calls is the number of device calls so far (arrowgpu Device.Calls).
// Before the device is open: 0.
func (g *GPU) Calls() int64 {
	if !g.isOpen() {
		return 0
	}
	return g.dv.Calls()
}

// ResetPoolPeak starts a new high-water mark of the pool (see PoolStats).
func (g *GPU) ResetPoolPeak() {
	if g.isOpen() {
		g.pool.ResetPeak()
	}
}

// Holds reports whether the device cache holds table t (some of its
// columns).
func (g *GPU) Holds(t catalog.Table) bool {
	dc := g.cache
	dc.mu.Lock()
	defer dc.mu.Unlock()
	dt := dc.tables[cacheKey(t)]
	return dt != nil && dt.bytes.Load() > 0
}

// Cached is the number of tables in the device cache and their bytes.
func (g *GPU) Cached() (tables int, bytes int64) {
	dc := g.cache
	dc.mu.Lock()
	defer dc.mu.Unlock()
	for _, dt := range dc.tables {
		tables++
		bytes += dt.bytes.Load()
	}
	return tables, bytes
}

// gpuFallback reports whether err means "this cannot run on the GPU, run it
// on the CPU" rather than a failure of the query: features the device code
// does not have, device memory that ran out, and a kernel NVRTC rejects
// (a generator bug or a compiler older than the generated code expects:
// the warning carries the compiler's log).
func gpuFallback(err error) bool {
	var ne *arrowgpu.NVRTCError
	return errors.Is(err, errs.Unsupported) || errors.Is(err, errs.ResourcesExhausted) || errors.As(err, &ne)
}

// freeColumns frees device columns (nil entries skipped).
func freeColumns(cols []*arrowgpu.Column) {
	for _, c := range cols {
		if c != nil {
			c.Free()
		}
	}
}
