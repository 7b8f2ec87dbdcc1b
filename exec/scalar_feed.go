package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// A ScalarFeed hands the row of an uncorrelated scalar subquery, as the
// NestedLoopJoin (single, no condition) that attaches it to every row has
// read it, to the GPUAggregate under that join whose HAVING compares with
// it: the device then judges each group by the subquery's value before
// the groups are read back (WithHavingFeed). TPC-H q11 compares each
// part's value with a fraction of the total: at SF10 all 304,774 groups
// came back (10.5 of the query's 16.6 ms on the H100) for a filter that
// kept none. The Filter above the join still applies the predicate: the
// device's is a pre-filter. A subquery of no row gives NULLs, as the
// join does; where it gives several (the join's error, if a group meets
// them) or the join ends first, the device keeps every group.
type ScalarFeed struct {
	_ byte // runs are found by a feed's address: two zero-size values may share one
}

// ScalarFeedRun is a feed's state in one query run.
type ScalarFeedRun struct {
	once  sync.Once
	given chan struct{} // closed once row is final
	// row is the subquery's rows when they are at most one (retained
	// until the query ends); nil when they are several or the join
	// ended without them.
	row arrow.RecordBatch
}

// FeedRun returns f's run in c (created on first use).
func (c *Context) FeedRun(f *ScalarFeed) *ScalarFeedRun {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	r, _ := lookupOrMake(&s.feeds, f, func() *ScalarFeedRun { return &ScalarFeedRun{given: make(chan struct{})} })
	return r
}

// give publishes rows when they are at most one row (nil: the join ended
// without them). Only the first call counts.
func (r *ScalarFeedRun) give(c *Context, rows arrow.RecordBatch) {
	r.once.Do(func() {
		if rows != nil && rows.NumRows() <= 1 {
			rows.Retain()
			r.row = rows
			c.atEnd(rows.Release)
		}
		close(r.given)
	})
}

// Wait returns the subquery's row, or no row when it has none (NULLs to
// the device, as the join attaches them); nil when it has several or the
// join ended first (the device keeps every group); or the query's error
// if it ends first. The batch is the query's until it ends: the caller
// neither keeps nor releases it.
func (r *ScalarFeedRun) Wait(c *Context) (arrow.RecordBatch, error) {
	select {
	case <-r.given:
		return r.row, nil
	case <-c.Done():
		return nil, CancelledErr(c.Err())
	}
}
