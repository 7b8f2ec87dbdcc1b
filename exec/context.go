package exec

import (
	"context"
	"errors"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sync/errgroup"

	"gq/errs"
)

// DefaultBatchSize is the number of rows per batch a scan aims for.
const DefaultBatchSize = 64 * 1024

// Options are the per-query execution settings.
type Options struct {
	Threads   int              // worker goroutines per parallel node; 0: all cores
	BatchSize int              // rows per batch; 0: DefaultBatchSize
	Alloc     memory.Allocator // nil: Go allocator
}

// Context carries what nodes need while a query runs: cancellation, the
// error group every worker runs in, the allocator and the options.
type Context struct {
	context.Context
	group     *errgroup.Group
	Alloc     memory.Allocator
	Threads   int
	BatchSize int
}

// NewContext returns a Context for one query run under parent.
func NewContext(parent context.Context, opts Options) *Context {
	g, ctx := errgroup.WithContext(parent)
	c := &Context{Context: ctx, group: g, Alloc: opts.Alloc, Threads: opts.Threads, BatchSize: opts.BatchSize}
	if c.Alloc == nil {
		c.Alloc = memory.NewGoAllocator()
	}
	if c.Threads <= 0 {
		c.Threads = runtime.GOMAXPROCS(0)
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	return c
}

// Go runs f in the query's error group. The first error cancels the Context.
func (c *Context) Go(f func() error) { c.group.Go(f) }

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
