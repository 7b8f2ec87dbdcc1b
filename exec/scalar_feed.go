package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
)

// A ScalarFeed hands the row of an uncorrelated scalar subquery, as the
// NestedLoopJoin (single, no condition) that attaches it to every row has
// read it, to the GPUAggregate under that join whose HAVING compares with
// it: the device then judges each group by the subquery's value before
// the groups are read back (SetHavingFeed). TPC-H q11 compares each
// part's value with a fraction of the total: at SF10 all 304,774 groups
// came back (10.5 of the query's 16.6 ms on the H100) for a filter that
// kept none. The Filter above the join still applies the predicate: the
// device's is a pre-filter. A subquery of no row gives NULLs, as the
// join does; where it gives several (the join's error, if a group meets
// them) or the join ends first, the device keeps every group.
type ScalarFeed struct {
	_ byte // runs are found by a feed's address: two zero-size values may share one
}

// scalarFeedRun is a feed's state in one query run.
type scalarFeedRun struct {
	once   sync.Once
	given  chan struct{} // closed once params is final
	params []arrowgpu.Param
}

// scalarFeedRun returns f's run in c (created on first use).
func (c *Context) ScalarFeedRun(f *ScalarFeed) *scalarFeedRun {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	r, _ := lookupOrMake(&s.feeds, f, func() *scalarFeedRun { return &scalarFeedRun{given: make(chan struct{})} })
	return r
}

// give publishes the values of rows' columns: its row's, NULLs when it
// has none (as the join attaches them), none when it has several or rows
// is nil (the device keeps every group). Only the first call counts.
func (r *scalarFeedRun) give(rows arrow.RecordBatch) {
	r.once.Do(func() {
		switch {
		case rows == nil:
		case rows.NumRows() == 0:
			r.params = make([]arrowgpu.Param, rows.NumCols())
			for i := range r.params {
				r.params[i].Null = true
			}
		case rows.NumRows() == 1:
			r.params = scalarParams(rows)
		}
		close(r.given)
	})
}

// wait returns the published values (nil: none), or the query's error
// if it ends first.
func (r *scalarFeedRun) Wait(c *Context) ([]arrowgpu.Param, error) {
	select {
	case <-r.given:
		return r.params, nil
	case <-c.Done():
		return nil, CancelledErr(c.Err())
	}
}

// scalarParams are the device's parameters of rows' one row, nil if a
// column's type has none.
func scalarParams(rows arrow.RecordBatch) []arrowgpu.Param {
	ps := make([]arrowgpu.Param, rows.NumCols())
	for i, col := range rows.Columns() {
		var ok bool
		if ps[i], ok = arrowgpu.ParamAt(col, 0); !ok {
			return nil
		}
	}
	return ps
}
