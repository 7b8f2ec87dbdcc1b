package engine

import (
	"context"
	"sync"
	"time"

	"gq/errs"
	gqmem "gq/memory"
)

// Per-query memory limit (Options.QueryMemoryLimit), for a server whose
// queries share one process: a query over its limit fails alone with a
// ResourcesExhausted error while the others go on. Two mechanisms:
//   - every query gets its own BufferResource whose host limit is
//     spillShare of the query limit, so spillable operators (sorts) spill
//     before the query reaches its limit (the rest is headroom for what
//     cannot spill: batches in flight between operators, scans' buffers);
//   - a watchdog (ServeStream) cancels a query whose live bytes — what its
//     accounting allocator holds, spillable or not — exceed the limit.
// The query's own resource does not count into the process-wide one: with
// both limits set, each query's reservations stay under min(query limit,
// process limit), but their sum is bounded by the process limit only
// through the allocations themselves.

// queryResources maps a query's allocator to its own buffer resource,
// closed (spill directory removed) when the query finishes.
var queryResources sync.Map // *gqmem.Allocator → *gqmem.BufferResource

// queryResource is the buffer resource a query reserves from: the
// engine's, or with a per-query limit, one of its own.
func (e *Engine) queryResource(qa *gqmem.Allocator) *gqmem.BufferResource {
	limit := e.opts.QueryMemoryLimit * spillShareNum / spillShareDen
	if limit <= 0 {
		return e.mem.br
	}
	if e.mem.br.Limited(gqmem.Host) {
		limit = min(limit, e.mem.br.Limit(gqmem.Host))
	}
	limits := gqmem.NoLimits()
	limits[gqmem.Host] = limit
	br := gqmem.NewBufferResource(gqmem.Options{Limits: limits, SpillDir: e.opts.SpillDir,
		SpillAlways: e.mem.br.SpillAlways(), Stats: gqmem.NewStatistics(false)})
	queryResources.Store(qa, br)
	return br
}

// spillShare (num/den) is the part of a query's memory limit its
// spillable state may reserve before it spills.
const spillShareNum, spillShareDen = 1, 2

// closeQueryResource closes the query's own resource, if it has one.
func (e *Engine) closeQueryResource(qa *gqmem.Allocator) {
	if br, ok := queryResources.LoadAndDelete(qa); ok {
		br.(*gqmem.BufferResource).Close()
	}
}

// memWatchInterval is how often the watchdog looks at a query's bytes.
const memWatchInterval = 5 * time.Millisecond

// limitedStream is QueryStream under the per-query memory limit: a query
// whose live bytes exceed it is cancelled and its error is
// ResourcesExhausted. Statements that run no query (DDL) and CREATE TABLE
// AS (which runs before QueryStream returns) are bounded by their own
// buffer resource only.
func (e *Engine) limitedStream(ctx context.Context, sql string) (*Stream, error) {
	limit := e.opts.QueryMemoryLimit
	if limit <= 0 {
		return e.QueryStream(ctx, sql)
	}
	qctx, cancel := context.WithCancelCause(ctx)
	inner, err := e.QueryStream(qctx, sql)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	if inner.Mem != nil {
		go watchMemory(inner, limit, cancel)
	}
	return wrapStream(inner, func(err error) error {
		defer cancel(nil)
		if cause := context.Cause(qctx); err != nil && ctx.Err() == nil && errs.KindOf(cause) == errs.ResourcesExhausted {
			return cause
		}
		return err
	}), nil
}

// watchMemory cancels s's query once it holds more than limit bytes.
func watchMemory(s *Stream, limit int64, cancel context.CancelCauseFunc) {
	t := time.NewTicker(memWatchInterval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
			if live := s.Mem.Live(); live > limit {
				cancel(errs.New(errs.ResourcesExhausted, "query memory limit exceeded: the query holds %s, its limit is %s",
					gqmem.FormatBytes(live), gqmem.FormatBytes(limit)))
				return
			}
		}
	}
}

// wrapStream returns a stream over inner's batches whose error is
// finish(inner's error); finish runs once inner's query has ended, before
// Err returns, and may wait (for peer ranks).
func wrapStream(inner *Stream, finish func(error) error) *Stream {
	s := &Stream{Schema: inner.Schema, RowsAffected: inner.RowsAffected, Stats: inner.Stats, Mem: inner.Mem,
		batches: inner.batches, cancel: inner.cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		<-inner.done
		s.err = finish(inner.err)
	}()
	return s
}
