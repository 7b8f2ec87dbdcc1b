package engine

import (
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	amem "github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/exec"
	gqmem "gq/memory"
)

// memState is an engine's memory manager: one BufferResource for every
// query (the limit is the process's, not a query's) and a process-wide
// accounting allocator that every query's own allocator also counts into.
type memState struct {
	last  *atomic.Pointer[gqmem.Allocator] // the latest query's allocator
	br    *gqmem.BufferResource
	alloc *gqmem.Allocator
	stats *gqmem.Statistics
}

// spillCheckInterval is the pause of the periodic spill check (rapidsmpf's
// periodic_spill_check) when a limit is set.
const spillCheckInterval = 50 * time.Millisecond

func newMemState(opts Options) memState {
	limits := gqmem.NoLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	if opts.MemoryLimit > 0 {
		limits[gqmem.Host] = opts.MemoryLimit
	}
	if opts.DeviceMemoryLimit > 0 {
		limits[gqmem.Device] = opts.DeviceMemoryLimit
	}
	st := opts.Stats
	if st == nil {
		st = gqmem.NewStatistics(true)
	}
	br := gqmem.NewBufferResource(gqmem.Options{
		Limits:      limits,
		SpillDir:    opts.SpillDir,
		SpillAlways: opts.SpillAlways,
		Stats:       gqmem.NewStatistics(false), // spills are counted per query
	})
	if br.Limited(gqmem.Host) || br.SpillAlways() {
		br.SpillManager().StartPeriodicCheck(spillCheckInterval)
	}
	return memState{last: new(atomic.Pointer[gqmem.Allocator]), br: br, alloc: gqmem.NewAllocator(nil, nil), stats: st}
}

// Close stops the memory manager and removes the spill directory the
// engine made. The engine must not run queries afterwards.
func (e *Engine) Close() error { return e.mem.br.Close() }

// Memory is the engine's buffer resource (limits, reservations, spills).
func (e *Engine) Memory() *gqmem.BufferResource { return e.mem.br }

// HeldBytes is the host memory allocated by queries and not yet freed:
// results not yet released. Zero when every result has been released.
func (e *Engine) HeldBytes() int64 { return e.mem.alloc.Live() }

// LastQueryMemory is the accounting allocator of the latest query the
// engine started (nil before the first): tests check its Live() is 0 once
// the query has failed or its result was released.
func (e *Engine) LastQueryMemory() *gqmem.Allocator { return e.mem.last.Load() }

// Statistics is the sum of every query's statistics so far.
func (e *Engine) Statistics() *gqmem.Statistics { return e.mem.stats }

// queryContext returns the exec.Context of one query: its own accounting
// allocator and statistics over the engine's buffer resource.
func (e *Engine) queryContext(ctx exec.Options) (exec.Options, *gqmem.Allocator, *gqmem.Statistics) {
	qa := gqmem.NewAllocator(nil, e.mem.alloc)
	e.mem.last.Store(qa)
	qs := gqmem.NewStatistics(true)
	ctx.Alloc, ctx.Mem, ctx.Stats = qa, e.queryResource(qa), qs
	return ctx, qa, qs
}

// finishQuery records a query's memory figures in its statistics and adds
// them to the engine's.
func (e *Engine) finishQuery(qa *gqmem.Allocator, qs *gqmem.Statistics) {
	defer e.closeQueryResource(qa)
	qs.SetMax(gqmem.StatPeakHostBytes, float64(qa.Peak()))
	qs.SetMax(gqmem.StatPeakReservedBytes, float64(e.mem.br.PeakReserved(gqmem.Host)))
	qs.AddStat(gqmem.StatAllocatedBytes, float64(qa.Total()))
	if e.gpu != nil {
		if p := e.gpu.PoolStats().Peak; p > 0 {
			qs.SetMax(gqmem.StatPeakDeviceBytes, float64(p))
		}
	}
	e.mem.stats.Merge(qs)
	if e.opts.AfterQuery != nil {
		e.opts.AfterQuery(qs)
	}
}

// detach copies batches into memory the query does not account for (a
// table created by CREATE TABLE AS outlives its query) and releases the
// originals.
func detach(schema *arrow.Schema, batches []arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	mem := amem.NewGoAllocator()
	out := make([]arrow.RecordBatch, 0, len(batches))
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for _, b := range batches {
		cols := make([]arrow.Array, b.NumCols())
		for i, c := range b.Columns() {
			cp, err := array.Concatenate([]arrow.Array{c}, mem)
			if err != nil {
				for _, d := range cols[:i] {
					d.Release()
				}
				for _, o := range out {
					o.Release()
				}
				return nil, errs.Wrap(errs.Internal, err, "copying a CREATE TABLE AS result")
			}
			cols[i] = cp
		}
		out = append(out, array.NewRecordBatch(schema, cols, b.NumRows()))
		for _, c := range cols {
			c.Release()
		}
	}
	return out, nil
}
