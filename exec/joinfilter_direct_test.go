package exec

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/catalog"
	"gq/expr"
)

// A join's filter is direct only where the scan that applies it feeds the
// join's probe through Filter and Project alone; anything else between
// them (here a HashAggregate) may read the scan before the join publishes.
func TestMarkDirectProbe(t *testing.T) {
	f := &JoinFilter{ID: 1}
	other := &JoinFilter{ID: 2}
	scan := &Scan{JoinFilters: []ScanJoinFilter{{Filter: f}, {Filter: other}}}
	cases := []struct {
		name  string
		probe Node
		want  bool
	}{
		{"scan", scan, true},
		{"under filter and project", &Project{Input: &Filter{Input: scan}}, true},
		{"under run figures", &Analyzed{Inner: &Project{Input: &Analyzed{Inner: scan}}}, true},
		{"under an aggregation", &HashAggregate{Input: scan}, false},
		{"scan without the filter", &Scan{JoinFilters: []ScanJoinFilter{{Filter: other}}}, false},
	}
	for _, tc := range cases {
		c := NewContext(context.Background(), Options{Threads: 1})
		c.markDirectProbe(f, tc.probe)
		if got := c.joinFilterRun(f).direct; got != tc.want {
			t.Errorf("%s: direct = %v, want %v", tc.name, got, tc.want)
		}
		if c.joinFilterRun(other).direct {
			t.Errorf("%s: the other join's filter was marked direct", tc.name)
		}
	}
}

// filteredTestTable is a testTable that applies a RowFilter while it
// reads, as a Parquet table does, and counts the rows it emits.
type filteredTestTable struct {
	*testTable
	emitted atomic.Int64
}

func (t *filteredTestTable) ReadFiltered(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, filter *catalog.RowFilter, emit func(arrow.RecordBatch) error) error {
	return t.Read(ctx, split, columns, batchSize, mem, func(b arrow.RecordBatch) error {
		sel, err := filter.Select(b, nil, nil)
		if err != nil {
			b.Release()
			return err
		}
		kept := TakeBatch(mem, b, sel)
		b.Release()
		t.emitted.Add(kept.NumRows())
		return emit(kept)
	})
}

// delayedSource sends its batches after a delay longer than a scan waits
// for a join filter that is not direct (joinFilterWait).
type delayedSource struct {
	testSource
	delay time.Duration
}

func (s *delayedSource) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch)
	c.Go(func() error {
		defer close(out)
		select {
		case <-time.After(s.delay):
		case <-c.Done():
			return c.Err()
		}
		for b := range s.testSource.Open(c) {
			Send(c, out, b) // releases b when the query stops
		}
		return c.Err()
	})
	return out
}

// A semi join built on its left side probes with its right: the scan
// there waits for the join's filter as long as the build takes, and
// sends only rows the filter keeps (before, it read on after
// joinFilterWait and sent unfiltered batches the join could not yet use).
func TestBuildLeftProbeWaitsForFilter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	build := &delayedSource{delay: 4 * joinFilterWait}
	build.batches = intBatches(3, func(i int) int64 { return int64(i * 1000) })
	build.schema = build.batches[0].Schema()
	defer releaseBatches(build.batches)
	const probeRows = 40 * DefaultBatchSize
	probe := intBatches(probeRows, func(i int) int64 { return int64(i) })
	defer releaseBatches(probe)
	var splits [][]arrow.RecordBatch
	for _, b := range probe {
		splits = append(splits, []arrow.RecordBatch{b})
	}
	tbl := &filteredTestTable{testTable: &testTable{schema: probe[0].Schema(), splits: splits}}
	f := &JoinFilter{ID: 1}
	scan := &Scan{Table: tbl, Columns: []int{0}, Out: tbl.schema,
		JoinFilters: []ScanJoinFilter{{Filter: f, Keys: []expr.Expr{col(0, expr.Int64)}}}}
	join := &HashJoin{Type: expr.JoinSemi, Left: build, Right: scan, BuildLeft: true, Publish: f,
		LeftKeys: []expr.Expr{col(0, expr.Int64)}, RightKeys: []expr.Expr{col(0, expr.Int64)}, Out: build.schema}
	rows, err := runRows(t, mem, 2, DefaultBatchSize, join)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(rows)
	eqRows(t, "semi join", rows, []string{"0", "1000", "2000"})
	// The filter may keep a few keys it lacks (false positives), never a
	// batch's worth of them.
	if n := tbl.emitted.Load(); n >= DefaultBatchSize {
		t.Errorf("the probe scan sent %d of %d rows; the filter keeps 3", n, probeRows)
	}
}
