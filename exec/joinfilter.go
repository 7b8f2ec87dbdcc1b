package exec

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
	gqmem "gq/memory"
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
// A scan waits a little (joinFilterWait) for its filters before it reads:
// a probe side can only run ahead of the join by its channel's few
// batches anyway, and while it does it takes cores from the build side and
// sends rows the filter would have dropped (TPC-H q09's lineitem scan ran
// beside the part scan that its filter waits for). The wait is bounded
// because a build side may need the probe side to progress; rows read
// before a filter arrives are not filtered. A filter that keeps most rows
// costs more than it saves, so a scan stops applying one that has kept
// over half of the first rows it saw.

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
	mu     sync.RWMutex
	filter *keyFilter // nil until published, and again once withdrawn
	res    *gqmem.Reservation
	// settled is closed once the join has published its filter or will
	// not (it spills, or was short of memory, or is done).
	settled chan struct{}
	once    sync.Once
	// direct: the publishing join reads its probe side straight from the
	// filtered scan (through Filter and Project only) and starts reading
	// it only once it has published; set before the scan opens.
	direct bool
}

// joinFilterWait bounds how long a scan waits for its join filters: long
// enough for a small build side (q09's part, q17's part: ~25 ms), short
// enough that a probe waiting on a large build (q09's partsupp, 250 ms)
// loses little of its head start (200 ms made q09 6% slower; 50 ms: 8%
// faster than not waiting).
const joinFilterWait = 50 * time.Millisecond

// settle marks the filter published or abandoned.
func (r *joinFilterRun) settle() { r.once.Do(func() { close(r.settled) }) }

// awaitJoinFilters waits until every filter of a scan has settled, or the
// query ends: at most joinFilterWait in all for the filters of joins above
// the scan's consumer, which may be reading already, and without a bound
// for the filter of the join the scan feeds directly (direct). That join
// reads nothing before it publishes, so rows read earlier would only wait
// in the channel, unfiltered, holding memory (TPC-H q18's orders and
// lineitem probe scans read ahead through its 1.5M-group aggregation).
func awaitJoinFilters(c *Context, jfs []*RunningJoinFilter) {
	if len(jfs) == 0 {
		return
	}
	t := time.NewTimer(joinFilterWait)
	defer t.Stop()
	timeout := t.C
	for _, jf := range jfs {
		if jf.run.direct {
			select {
			case <-jf.run.settled:
			case <-c.Done():
				return
			}
			continue
		}
		select {
		case <-jf.run.settled:
		case <-timeout:
			timeout = nil // waits only for the direct filters from now on
		case <-c.Done():
			return
		}
	}
}

// markDirectProbe marks the filter f as direct (joinFilterRun.direct) when
// probe, the probe side of its join, is a scan that applies it, under
// Filter, Project and Analyzed nodes only: nodes that pass batches on as
// they come, so the scan's rows reach nothing before the join reads them.
func (c *Context) markDirectProbe(f *JoinFilter, probe Node) {
	for {
		switch n := probe.(type) {
		case *Filter:
			probe = n.Input
			continue
		case *Project:
			probe = n.Input
			continue
		case *Analyzed: // run figures and progress wrap nodes
			probe = n.Inner
			continue
		case *Scan:
			for _, sf := range n.JoinFilters {
				if sf.Filter == f {
					c.joinFilterRun(f).direct = true
				}
			}
		}
		return
	}
}

// joinFilterRun returns f's run in c (created on first use).
func (c *Context) joinFilterRun(f *JoinFilter) *joinFilterRun {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	r, _ := lookupOrMake(&s.filters, f, func() *joinFilterRun { return &joinFilterRun{settled: make(chan struct{})} })
	return r
}

// withdraw stops the filter and gives back its memory.
func (r *joinFilterRun) withdraw() {
	r.mu.Lock()
	r.filter = nil
	r.res.Release()
	r.res = nil
	r.mu.Unlock()
	r.settle()
}

// publishFor builds the filter of f's keys (all of the join's keys, whose
// prepared form the build kept in bt, or the subset f.Keys) from the
// built table's rows and offers it to the scans. Where memory is short
// the filter is simply not built: it only saves work.
func (r *joinFilterRun) publishFor(c *Context, f *JoinFilter, bt *joinTable, rkeys []compiledExpr, jcodec keyCodec) error {
	defer r.settle()
	codec, bk := jcodec, bt.built
	keys := rkeys
	if f.Keys != nil {
		keys = make([]compiledExpr, len(f.Keys))
		kt := make([]arrow.DataType, len(f.Keys))
		for i, p := range f.Keys {
			keys[i], kt[i] = rkeys[p], jcodec.types[p]
		}
		var err error
		if codec, err = newKeyCodec(kt); err != nil {
			return err
		}
		bk = nil
	}
	n := int(bt.rows.NumRows())
	need := keyFilterBytes(n)
	if c.Mem.Limited(gqmem.Host) && c.Mem.Available(gqmem.Host) < 2*need {
		return nil
	}
	res, err := c.Mem.Reserve(gqmem.Host, need, false)
	if err != nil {
		return nil //nolint:nilerr // no room: run without the filter
	}
	if bk == nil {
		karr, err := evalAll(c.Alloc, keys, bt.rows)
		if err != nil {
			res.Release()
			return err
		}
		defer releaseArrays(karr)
		bk = &batchKeys{}
		if err := codec.prepareRows(karr, n, bk, c.Threads); err != nil {
			res.Release()
			return err
		}
	}
	kf, err := newKeyFilter(codec, bk, c.Threads)
	if err != nil {
		res.Release()
		return err
	}
	r.mu.Lock()
	r.filter, r.res = kf, res
	r.mu.Unlock()
	return nil
}

// joinFilterMinRows rows are filtered before a scan judges a filter.
const joinFilterMinRows = 1 << 17

// RunningJoinFilter is a ScanJoinFilter while a scan runs (a CPU scan's or
// a GPU scan's: gpuexec applies it to the rows it downloads, or on the
// device through IntKeys).
type RunningJoinFilter struct {
	run          *joinFilterRun
	keys         []compiledExpr
	tested, kept atomic.Int64
	off          atomic.Bool
	scratch      sync.Pool // *joinFilterScratch
}

type joinFilterScratch struct {
	bk batchKeys
}

func NewRunningJoinFilter(c *Context, f ScanJoinFilter) (*RunningJoinFilter, error) {
	keys, err := compileExprs(f.Keys)
	if err != nil {
		return nil, err
	}
	return &RunningJoinFilter{run: c.joinFilterRun(f.Filter), keys: keys}, nil
}

// apply keeps the rows in sel (ascending rows of b) whose keys may be
// in the join's table; with the filter not built yet, or switched off, it
// keeps them all. The filter may keep a row whose key the table lacks
// (the join drops it), never the other way round.
func (f *RunningJoinFilter) Apply(c *Context, b arrow.RecordBatch, sel []int32) ([]int32, error) {
	if f.off.Load() || len(sel) == 0 {
		return sel, nil
	}
	f.run.mu.RLock()
	defer f.run.mu.RUnlock()
	kf := f.run.filter
	if kf == nil {
		return sel, nil
	}
	karr, err := evalAll(c.Alloc, f.keys, b)
	if err != nil {
		return nil, err
	}
	before := len(sel)
	if kf.single {
		// One integer key: test the values in place, no gather.
		sel = kf.keepInts(karr[0], sel)
		releaseArrays(karr)
	} else {
		n := int(b.NumRows())
		if len(sel) < n { // hash only the rows still selected
			for i, a := range karr {
				karr[i] = TakeArray(c.Alloc, a, sel)
				a.Release()
			}
			n = len(sel)
		}
		s, _ := f.scratch.Get().(*joinFilterScratch)
		if s == nil {
			s = &joinFilterScratch{}
		}
		kf.codec.prepare(karr, n, &s.bk)
		sel = kf.keepHashed(&s.bk, sel)
		releaseArrays(karr)
		f.scratch.Put(s)
	}
	tested, kept := f.tested.Add(int64(before)), f.kept.Add(int64(len(sel)))
	if tested >= joinFilterMinRows && kept*2 > tested {
		f.off.Store(true)
	}
	return sel, nil
}

// Settled is closed once the join has published its filter or will not.
func (f *RunningJoinFilter) Settled() <-chan struct{} { return f.run.settled }

// Off says the scan has switched the filter off (it kept too many rows).
func (f *RunningJoinFilter) Off() bool { return f.off.Load() }

// IntKeyFilter is a published filter over one integer-like key, as a
// device applies it: the keys' range, and a bitmap of it or a Bloom filter.
type IntKeyFilter struct {
	Lo, Hi int64    // Lo > Hi: no keys
	Bitmap []uint64 // dense: bit k-Lo set for each key k
	Bloom  []uint64 // otherwise: the Bloom filter's words
	Mask   uint64   // len(Bloom)-1
}

// IntKeys calls fn with the published filter when it is over one
// integer-like key, holding it published while fn runs (the words are
// the filter's own); ok is false, and fn not called, otherwise.
func (f *RunningJoinFilter) IntKeys(fn func(IntKeyFilter) error) (ok bool, err error) {
	f.run.mu.RLock()
	defer f.run.mu.RUnlock()
	kf := f.run.filter
	if kf == nil || !kf.single {
		return false, nil
	}
	return true, fn(IntKeyFilter{Lo: kf.lo, Hi: kf.hi, Bitmap: kf.bitmap, Bloom: kf.bloom, Mask: kf.mask})
}
