package exec

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sync/errgroup"

	"gq/errs"
	gqmem "gq/memory"
)

// DefaultBatchSize is the number of rows per batch a scan aims for.
const DefaultBatchSize = 64 * 1024

// Options are the per-query execution settings.
type Options struct {
	Threads   int              // worker goroutines per parallel node; 0: all cores
	BatchSize int              // rows per batch; 0: DefaultBatchSize
	Alloc     memory.Allocator // nil: Go allocator
	// Mem is the process's buffer resource (limits, reservations, spill);
	// nil: an unlimited one shared by such contexts.
	Mem *gqmem.BufferResource
	// Stats collects the query's statistics (spills, peaks); nil: a fresh
	// one. Read it back from Context.Stats.
	Stats *gqmem.Statistics
}

// Context carries what nodes need while a query runs: cancellation, the
// error group every worker runs in, the allocator and the options.
type Context struct {
	context.Context
	group     *errgroup.Group
	Alloc     memory.Allocator
	Threads   int
	BatchSize int
	// Mem is never nil: operators Reserve their state in it and register
	// spillable state with Mem.SpillManager().
	Mem *gqmem.BufferResource
	// Stats is the query's own statistics (never nil). Spills record
	// rapidsmpf's event names here; the engine adds the peaks.
	Stats *gqmem.Statistics
	// inPartition marks a Context that runs one partition of a spilled
	// operator (hashjoin_grace.go, hashagg_spill.go): its nodes do not
	// partition again.
	inPartition bool
	// shared holds the runs of the plan's shared subplans (shared.go).
	shared *sharedRuns
	// queryAlloc and queryStats are the query's allocator and statistics
	// (Alloc and Stats may be one operator's over them: opmem.go).
	queryAlloc memory.Allocator
	queryStats *gqmem.Statistics
}

// forOperator is c with alloc and stats as its allocator and statistics
// (one operator's accounting, opmem.go).
func (c *Context) forOperator(alloc memory.Allocator, stats *gqmem.Statistics) *Context {
	p := *c
	p.Alloc, p.Stats = alloc, stats
	return &p
}

// partitionContext is c for running one partition of a spilled operator.
func (c *Context) partitionContext() *Context {
	p := *c
	p.inPartition = true
	return &p
}

// spillsByPartition reports whether hash operators should partition their
// input so that partitions can spill: a HOST limit is set (or every query
// spills) and c is not already running one partition.
func (c *Context) spillsByPartition() bool {
	return !c.inPartition && (c.Mem.Limited(gqmem.Host) || c.Mem.SpillAlways())
}

var (
	defaultMemOnce     sync.Once
	defaultMem         *gqmem.BufferResource
	defaultSpillAlways atomic.Bool
)

// SetDefaultSpillAlways makes the buffer resource of contexts given none
// spill at every opportunity: a test harness under GQ_SPILL_ALWAYS runs
// operators built without an engine through the spill paths with it. It
// must be called before the first such context.
func SetDefaultSpillAlways(on bool) { defaultSpillAlways.Store(on) }

// unlimitedResource is the buffer resource of contexts given none: no
// limits (SetDefaultSpillAlways still applies, so exec tests can run the
// spill paths); its spill directory is made only if something spills.
func unlimitedResource() *gqmem.BufferResource {
	defaultMemOnce.Do(func() {
		defaultMem = gqmem.NewBufferResource(gqmem.Options{Limits: gqmem.NoLimits(), SpillAlways: defaultSpillAlways.Load()})
	})
	return defaultMem
}

// NewContext returns a Context for one query run under parent.
func NewContext(parent context.Context, opts Options) *Context {
	g, ctx := errgroup.WithContext(parent)
	c := &Context{Context: ctx, group: g, Alloc: opts.Alloc, Threads: opts.Threads, BatchSize: opts.BatchSize, Mem: opts.Mem, Stats: opts.Stats,
		shared: &sharedRuns{}}
	if c.Alloc == nil {
		c.Alloc = memory.NewGoAllocator()
	}
	if c.Mem == nil {
		c.Mem = unlimitedResource()
	}
	if c.Stats == nil {
		c.Stats = gqmem.NewStatistics(true)
	}
	if c.Threads <= 0 {
		c.Threads = runtime.GOMAXPROCS(0)
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	c.queryAlloc, c.queryStats = c.Alloc, c.Stats
	return c
}

// Go runs f in the query's error group. The first error cancels the Context.
// A panic in f is a gq bug; it becomes an Internal error of the query
// (cancelling the rest of it) instead of ending the process, so a REPL or
// server survives it.
func (c *Context) Go(f func() error) {
	c.group.Go(func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errs.New(errs.Internal, "operator panicked: %v\n%s", r, debug.Stack())
			}
		}()
		return f()
	})
}

// Wait waits for every goroutine started with Go and returns the first error.
func (c *Context) Wait() error { return c.group.Wait() }

// ChanCap is the capacity of node output channels.
func (c *Context) ChanCap() int { return c.Threads + 1 }

// Send delivers b on ch, or releases it and returns false if the query was
// cancelled first. Workers return c.Err() when Send returns false.
func Send(c *Context, ch chan<- arrow.RecordBatch, b arrow.RecordBatch) bool {
	select {
	case ch <- b:
		return true
	case <-c.Done():
		b.Release()
		return false
	}
}

// Drain releases every batch still arriving on ch (used by a node that
// needs no more input, like LIMIT, so its producers can finish).
func Drain(ch <-chan arrow.RecordBatch) {
	for b := range ch {
		b.Release()
	}
}

// forward sends every batch of in to out; if the query is cancelled it
// drains in (a batch left in its buffer would never be released) and
// returns the cancellation.
func forward(c *Context, in <-chan arrow.RecordBatch, out chan<- arrow.RecordBatch) error {
	for b := range in {
		if !Send(c, out, b) {
			Drain(in)
			return c.Err()
		}
	}
	return c.Err()
}

// CancelledErr converts a context error into a Cancelled gq error.
func CancelledErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.Cancelled, err, "query cancelled")
	}
	return err
}

// QueryMemory is the query's accounting allocator (its live, peak and
// total bytes), or nil when the Context's allocator is not one (exec unit
// tests). EXPLAIN ANALYZE and --stats read the query's figures here and in
// Stats.
func (c *Context) QueryMemory() *gqmem.Allocator {
	a, _ := c.queryAlloc.(*gqmem.Allocator)
	return a
}
