package exec

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// Join filters (sideways information passing). Once a hash join has built
// its table, a scan below its probe side can drop the rows whose keys the
// table lacks while it decodes: the columns it has not decoded yet are
// then gathered only for the rows that can still match, and the operators
// between scan and join see fewer rows. TPC-H q17 probes 6M lineitem rows
// for 204 parts. physical.AttachJoinFilters pairs a HashJoin (Publish) with
// the scan (JoinFilters) and maps the probe keys down to the scan's
// columns; it only does so where dropping those rows cannot change the
// join's result.
//
// The scan does not wait for the table: a wait would take away the overlap
// of build and probe (measured: no faster on TPC-H) and could deadlock
// where the build side needs the probe side to progress. Rows read before
// the table is built are not filtered. A filter that keeps most rows costs more than it
// saves, so a scan stops applying one that has kept over half of the
// first rows it saw.

// JoinFilter links one HashJoin with the scans it filters.
type JoinFilter struct {
	ID int // for EXPLAIN
	// Keys are the positions of the join keys the scan tests, when only
	// some of them reach it; nil: all. The join then builds a table of
	// just those keys for the scan.
	Keys []int
}

func (f *JoinFilter) String() string { return "jf#" + strconv.Itoa(f.ID) }

// ScanJoinFilter is a filter applied by a scan: Keys are the join's probe
// keys as columns of the scan's output.
type ScanJoinFilter struct {
	Filter *JoinFilter
	Keys   []expr.Expr
}

// joinFilterRun is a filter's state in one query run.
type joinFilterRun struct {
	mu    sync.RWMutex
	table *joinTable // nil until published, and again once released
	codec keyCodec
	own   bool // table is the filter's own (a subset of the keys)
}

// joinFilterRun returns f's run in c (created on first use).
func (c *Context) joinFilterRun(f *JoinFilter) *joinFilterRun {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.filters[f]; ok {
		return r
	}
	if s.filters == nil {
		s.filters = map[*JoinFilter]*joinFilterRun{}
	}
	r := &joinFilterRun{}
	s.filters[f] = r
	return r
}

func (r *joinFilterRun) publish(bt *joinTable, codec keyCodec) {
	r.mu.Lock()
	r.table, r.codec = bt, codec
	r.mu.Unlock()
}

// withdraw stops the filter before its table is released.
func (r *joinFilterRun) withdraw() {
	r.mu.Lock()
	if r.own && r.table != nil {
		r.table.release()
	}
	r.table = nil
	r.mu.Unlock()
}

// publishFor offers the join's table, or for a filter on some of the keys
// a table of those keys built from the join's rows.
func (r *joinFilterRun) publishFor(c *Context, f *JoinFilter, bt *joinTable, codec keyCodec, rkeys []compiledExpr, types []arrow.DataType) error {
	if f.Keys == nil {
		r.publish(bt, codec)
		return nil
	}
	keys := make([]compiledExpr, len(f.Keys))
	kt := make([]arrow.DataType, len(f.Keys))
	for i, p := range f.Keys {
		keys[i], kt[i] = rkeys[p], types[p]
	}
	sub, err := newKeyCodec(kt)
	if err != nil {
		return err
	}
	karr, err := evalAll(c.Alloc, keys, bt.rows)
	if err != nil {
		return err
	}
	defer releaseArrays(karr)
	n := int(bt.rows.NumRows())
	var bk batchKeys
	sub.prepare(karr, n, &bk)
	t := newKeyTableFor(sub, 0)
	t.insert(&bk, make([]int32, n), false)
	r.mu.Lock()
	r.table, r.codec, r.own = &joinTable{tables: []*keyTable{t}, base: []int32{0, int32(t.len())}}, sub, true
	r.mu.Unlock()
	return nil
}

// joinFilterMinRows rows are filtered before a scan judges a filter.
const joinFilterMinRows = 1 << 17

// scanJoinFilter is a ScanJoinFilter while a scan runs.
type scanJoinFilter struct {
	run          *joinFilterRun
	keys         []compiledExpr
	tested, kept atomic.Int64
	off          atomic.Bool
	scratch      sync.Pool // *joinFilterScratch
}

type joinFilterScratch struct {
	bk  batchKeys
	ids []int32
}

func newScanJoinFilter(c *Context, f ScanJoinFilter) (*scanJoinFilter, error) {
	keys, err := compileExprs(f.Keys)
	if err != nil {
		return nil, err
	}
	return &scanJoinFilter{run: c.joinFilterRun(f.Filter), keys: keys}, nil
}

// apply keeps the rows in sel (ascending rows of b) whose keys are in the
// join's table; with the table not built yet, or the filter switched
// off, it keeps them all.
func (f *scanJoinFilter) apply(c *Context, b arrow.RecordBatch, sel []int32) ([]int32, error) {
	if f.off.Load() || len(sel) == 0 {
		return sel, nil
	}
	f.run.mu.RLock()
	defer f.run.mu.RUnlock()
	bt := f.run.table
	if bt == nil {
		return sel, nil
	}
	karr, err := evalAll(c.Alloc, f.keys, b)
	if err != nil {
		return nil, err
	}
	n := int(b.NumRows())
	if len(sel) < n { // look up only the rows still selected
		for i, a := range karr {
			karr[i] = TakeArray(c.Alloc, a, sel)
			a.Release()
		}
		n = len(sel)
	}
	defer releaseArrays(karr)
	s, _ := f.scratch.Get().(*joinFilterScratch)
	if s == nil {
		s = &joinFilterScratch{}
	}
	defer f.scratch.Put(s)
	f.run.codec.prepare(karr, n, &s.bk)
	s.ids = grown(s.ids, n)
	bt.lookup(&s.bk, s.ids)
	before := len(sel)
	// s.ids[k] belongs to sel[k]; keep the matched entries in place.
	matched := sel[:0]
	for k, row := range sel {
		if s.ids[k] >= 0 {
			matched = append(matched, row)
		}
	}
	sel = matched
	tested, kept := f.tested.Add(int64(before)), f.kept.Add(int64(len(sel)))
	if tested >= joinFilterMinRows && kept*2 > tested {
		f.off.Store(true)
	}
	return sel, nil
}
