package exec

import (
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
)

// A common subplan computed once. A query that names the same CTE twice
// (TPC-H q15's revenue0: once joined with supplier, once under max) would
// otherwise compute it twice. physical.ShareCommonSubplans gives the
// copies one SharedSource and a SharedRead each; the first read to open
// runs the subplan and keeps its batches, and every read replays them.
// The batches live until the query ends (the materialisation DuckDB does
// for a CTE referenced more than once).

// SharedSource is a subplan whose result several SharedReads replay. As
// a node it only passes its input through: the sharing is the reads'.
type SharedSource struct {
	Input Node
	ID    int // for EXPLAIN: a source and its reads show the same number
	// Label names the source's kind in EXPLAIN: "cte" (the default) or
	// "build" (a device join's build side that its CPU twin may replay:
	// physical.PlaceOnGPU under ranks).
	Label string
}

func (s *SharedSource) Schema() *arrow.Schema { return s.Input.Schema() }
func (s *SharedSource) Children() []Node      { return []Node{s.Input} }
func (s *SharedSource) Explain() string       { return "Materialize " + s.name() }

func (s *SharedSource) name() string {
	if s.Label == "" {
		return "cte#" + strconv.Itoa(s.ID)
	}
	return s.Label + "#" + strconv.Itoa(s.ID)
}

func (s *SharedSource) Open(c *Context) <-chan arrow.RecordBatch { return s.Input.Open(c) }

// SharedRead replays a SharedSource (Src, typed Node so that plan walkers
// that wrap nodes, like EXPLAIN ANALYZE's, wrap it once for all reads).
// The first read in a plan (Primary) shows the source as its child; the
// others show none, so EXPLAIN prints the subplan once.
type SharedRead struct {
	Src     Node
	ID      int
	Primary bool
}

func (r *SharedRead) Schema() *arrow.Schema { return r.Src.Schema() }
func (r *SharedRead) Children() []Node {
	if r.Primary {
		return []Node{r.Src}
	}
	return nil
}

func (r *SharedRead) Explain() string {
	src := r.Src
	if a, ok := src.(*Analyzed); ok {
		src = a.Inner
	}
	name := "cte#" + strconv.Itoa(r.ID)
	if s, ok := src.(*SharedSource); ok {
		name = s.name()
	}
	if r.Primary {
		return "ReadMaterialized " + name
	}
	return "ReadMaterialized " + name + " (computed above)"
}

// sharedRuns is a query's state of its shared sources: the state belongs
// to the run, not to the plan, so a plan can run again.
type sharedRuns struct {
	mu      sync.Mutex
	runs    map[Node]*sharedRun
	tables  map[Node]catalog.Table // runTable
	atEnd   []func()
	filters map[*JoinFilter]*joinFilterRun // joinfilter.go
	feeds   map[*ScalarFeed]*ScalarFeedRun // scalar_feed.go
	states  map[Node]any                   // runstate.go
}

type sharedRun struct {
	done    chan struct{} // closed when batches (or err) is final
	batches []arrow.RecordBatch
	failed  bool
}

func (r *SharedRead) Open(c *Context) <-chan arrow.RecordBatch {
	run := c.sharedRun(r.Src)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		select {
		case <-run.done:
		case <-c.Done():
			return c.Err()
		}
		if run.failed {
			return c.Err() // the source's error is the query's
		}
		for _, b := range run.batches {
			b.Retain()
			select {
			case out <- b:
			case <-c.Done():
				b.Release()
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// sharedRun returns the run of src in c, starting it on first use.
func (c *Context) sharedRun(src Node) *sharedRun {
	s := c.shared
	s.mu.Lock()
	run, made := lookupOrMake(&s.runs, src, func() *sharedRun { return &sharedRun{done: make(chan struct{})} })
	s.mu.Unlock() // opening src takes the lock again (joinFilterRun)
	if !made {
		return run
	}
	in := src.Open(c)
	c.Go(func() error {
		defer close(run.done)
		for b := range in {
			run.batches = append(run.batches, b)
		}
		if err := c.Err(); err != nil {
			run.failed = true
			return err
		}
		return nil
	})
	return run
}

// runTable returns the query's table of src's batches (src a
// SharedSource's run, done): made by make on first use, and given to end
// when the query ends (before the batches are freed).
func (c *Context) runTable(src Node, make func() catalog.Table, end func(catalog.Table)) catalog.Table {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	t, made := lookupOrMake(&s.tables, src, make)
	if made {
		s.atEnd = append(s.atEnd, func() { end(t) })
	}
	return t
}

// SharedTable waits for src's run (a SharedSource's) to end and returns
// the query's table of its batches, as runTable; the error is the query's
// when the run failed or the query ended first. A GPU scan of the rows an
// exchange brought reads them so (gpuexec).
func (c *Context) SharedTable(src Node, make func([]arrow.RecordBatch) catalog.Table, end func(catalog.Table)) (catalog.Table, error) {
	run := c.sharedRun(src)
	select {
	case <-run.done:
	case <-c.Done():
		return nil, c.Err()
	}
	if run.failed {
		return nil, c.Err()
	}
	return c.runTable(src, func() catalog.Table { return make(run.batches) }, end), nil
}

// atEnd has f run when the query ends, before its batches are freed.
func (c *Context) atEnd(f func()) {
	s := c.shared
	s.mu.Lock()
	s.atEnd = append(s.atEnd, f)
	s.mu.Unlock()
}

// lookupOrMake returns the value of k in *m, one of a query run's maps
// (sharedRuns, its lock held), made by newV and kept on first use (made).
func lookupOrMake[K comparable, V any](m *map[K]V, k K, newV func() V) (v V, made bool) {
	if v, ok := (*m)[k]; ok {
		return v, false
	}
	if *m == nil {
		*m = map[K]V{}
	}
	v = newV()
	(*m)[k] = v
	return v, true
}

// releaseShared frees the kept batches; Run calls it once every goroutine
// of the query has ended.
func (c *Context) releaseShared() {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.atEnd {
		f()
	}
	s.atEnd, s.tables = nil, nil
	for _, run := range s.runs {
		releaseBatchList(run.batches)
		run.batches = nil
	}
	s.runs = nil
}
