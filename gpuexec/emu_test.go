package gpuexec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
	"gq/catalog"
	"gq/exec"
	"gq/expr"
)

// Tests of the GPU operators at the level of exec: on a GPU when the
// machine has one, else on gqemu (arrowgpu/emulator, needs g++).

var emuGPU struct {
	once sync.Once
	g    *GPU
	why  string
}

func testGPU(t *testing.T) *GPU {
	t.Helper()
	emuGPU.once.Do(func() {
		if !arrowgpu.DriverPresent() {
			if err := emulator.Enable(); err != nil {
				emuGPU.why = err.Error()
				return
			}
		}
		g, err := OpenGPU(256 << 20)
		if err != nil {
			emuGPU.why = err.Error()
			return
		}
		emuGPU.g = g
	})
	if emuGPU.g == nil {
		t.Skip("no GPU and no emulator: " + emuGPU.why)
	}
	return emuGPU.g
}

// slowNode delays its input: a build side that finishes long after the
// probe side's scan has started.
type slowNode struct {
	exec.Node
	delay time.Duration
}

func (s *slowNode) Open(c *exec.Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, 1)
	in := s.Node.Open(c)
	c.Go(func() error {
		defer close(out)
		time.Sleep(s.delay)
		for b := range in {
			if !exec.Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// A join filter published after the scan has started (q18's outer join:
// its build side waits for an aggregation of lineitem) still filters the
// chunks the GPU scan reaches after it: earlier the device took up only
// the filters there at its start, and downloaded every row.
func TestGPUScanTakesLateJoinFilter(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 1000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	const splits, rowsPer = 40, 1000
	var batches []arrow.RecordBatch
	for s := range splits {
		// The table holds its batches for good: not query memory.
		kb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
		for i := range rowsPer {
			kb.Append(int64(s*rowsPer + i))
			vb.Append(int64(i))
		}
		k, v := kb.NewArray(), vb.NewArray()
		batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{k, v}, rowsPer))
		k.Release()
		v.Release()
	}
	table := catalog.NewMemTable("probe", schema, batches)
	for _, b := range batches {
		b.Release()
	}
	defer g.cache.evict(nil)

	jf := &exec.JoinFilter{ID: 1}
	key := &expr.Column{Index: 0, Type: arrow.PrimitiveTypes.Int64, Name: "k"}
	scan := &exec.Scan{Table: table, Columns: []int{0, 1}, Out: schema, JoinFilters: []exec.ScanJoinFilter{{Filter: jf, Keys: []expr.Expr{key}}}}
	gs := &GPUScan{CPU: scan, GPU: g}
	bschema := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bb := array.NewInt64Builder(mem)
	bb.AppendValues([]int64{5, 39005}, nil)
	barr := bb.NewArray()
	brec := array.NewRecordBatch(bschema, []arrow.Array{barr}, 2)
	barr.Release()
	defer brec.Release()
	build := &slowNode{Node: &testSource{schema: bschema, batches: []arrow.RecordBatch{brec}}, delay: 300 * time.Millisecond}
	join := &exec.HashJoin{
		Type: expr.JoinInner, Left: gs, Right: build,
		LeftKeys:  []expr.Expr{key},
		RightKeys: []expr.Expr{&expr.Column{Index: 0, Type: arrow.PrimitiveTypes.Int64, Name: "b"}},
		Out:       arrow.NewSchema(append(schema.Fields(), bschema.Field(0)), nil),
		Publish:   jf,
	}
	rows, c, err := runRowsIn(t, mem, 2, 1024, join)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("join rows %v, want 2", rows)
	}
	all := int64(splits * rowsPer * 16)
	if got := gs.state(c).toHost.Load(); got > all/2 {
		t.Errorf("the GPU scan downloaded %d of %d bytes: the filter published after it started was not applied on the device", got, all)
	} else {
		t.Logf("downloaded %d of %d bytes", got, all)
	}
}

// multiSplitTable is a table of int64 and string columns with one split
// per rowsPer rows; row i's value of column col is f(i, col) (nil: NULL).
func multiSplitTable(name string, schema *arrow.Schema, rows, rowsPer int, f func(i, col int) any) catalog.Table {
	var batches []arrow.RecordBatch
	for lo := 0; lo < rows; lo += rowsPer {
		hi := min(lo+rowsPer, rows)
		var cols []arrow.Array
		for c, fld := range schema.Fields() {
			b := array.NewBuilder(memory.DefaultAllocator, fld.Type)
			for i := lo; i < hi; i++ {
				switch v := f(i, c).(type) {
				case nil:
					b.AppendNull()
				case int64:
					b.(*array.Int64Builder).Append(v)
				case string:
					b.(*array.StringBuilder).Append(v)
				}
			}
			cols = append(cols, b.NewArray())
			b.Release()
		}
		batches = append(batches, array.NewRecordBatch(schema, cols, int64(hi-lo)))
		exec.ReleaseArrays(cols)
	}
	t := catalog.NewMemTable(name, schema, batches)
	exec.ReleaseBatches(batches)
	return t
}

// A join pipeline whose build side is a GPU scan takes the build from the
// device cache (GPUAggregate.cachedBuild): many chunks on both sides, the
// build scan's device filter, duplicate build keys, NULL keys, and a
// string group key from the build side grouped by the cache's dictionary
// codes — against the same join and aggregation computed here.
func TestGPUJoinBuildFromCache(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 700
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64, Nullable: true}, {Name: "v", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64, Nullable: true}, {Name: "name", Type: str}, {Name: "w", Type: i64}}, nil)
	const np, nb = 9000, 3000
	pk := func(i int) any {
		if i%17 == 0 {
			return nil
		}
		return int64(i % 2500)
	}
	bk := func(i int) any {
		if i%29 == 0 {
			return nil
		}
		return int64(i % 2000) // keys 0..999 twice, 1000..1999 once
	}
	bname := func(i int) string { return fmt.Sprintf("n%d", i%7) }
	bw := func(i int) int64 { return int64(i % 10) }
	probe := multiSplitTable("probe", pSchema, np, 500, func(i, c int) any {
		if c == 0 {
			return pk(i)
		}
		return int64(i)
	})
	build := multiSplitTable("build", bSchema, nb, 400, func(i, c int) any {
		switch c {
		case 0:
			return bk(i)
		case 1:
			return bname(i)
		}
		return bw(i)
	})
	col := func(i int, t arrow.DataType, name string) *expr.Column {
		return &expr.Column{Index: i, Type: t, Name: name}
	}
	ps := &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0, 1}, Out: pSchema}, GPU: g}
	bs := &GPUScan{CPU: &exec.Scan{Table: build, Columns: []int{0, 1, 2}, Out: bSchema}, GPU: g,
		DeviceFilter: &expr.Call{Fn: "gt", Args: []expr.Expr{col(2, i64, "w"), &expr.Literal{Value: int64(3), Type: i64}}, Type: expr.Boolean}}
	// Pipeline columns: k v | bk name w.
	joins := []GPUJoin{{ProbeKeys: []int{0}, BuildKeys: []int{0}, Cols: []int{0, 1, 2}, Explain: "test join"}}
	out := arrow.NewSchema([]arrow.Field{{Name: "name", Type: str, Nullable: true}, {Name: "s", Type: i64, Nullable: true}, {Name: "n", Type: i64}}, nil)
	aggs := []exec.AggFunc{
		{Fn: "sum", Arg: &expr.Call{Fn: "mul", Args: []expr.Expr{col(1, i64, "v"), col(4, i64, "w")}, Type: i64}, Type: i64},
		{Fn: "count_star", Type: i64},
	}
	ga, err := newAggregate(ps, joins, []exec.Node{bs}, AggStage{Keys: []expr.Expr{col(3, str, "name")}, Aggs: aggs}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
	if err != nil {
		t.Fatal(err)
	}
	if ga.state(c).onCPU.Load() {
		t.Fatal("ran on the CPU")
	}
	type acc struct{ s, n int64 }
	want := map[string]*acc{}
	for i := range np {
		k := pk(i)
		if k == nil {
			continue
		}
		for j := range nb {
			if b := bk(j); b != nil && b.(int64) == k.(int64) && bw(j) > 3 {
				a := want[bname(j)]
				if a == nil {
					a = &acc{}
					want[bname(j)] = a
				}
				a.s += int64(i) * bw(j)
				a.n++
			}
		}
	}
	var wantRows []string
	for name, a := range want {
		wantRows = append(wantRows, fmt.Sprintf("%s|%d|%d", name, a.s, a.n))
	}
	slices.Sort(rows)
	slices.Sort(wantRows)
	if !slices.Equal(rows, wantRows) {
		t.Errorf("groups\n%v\nwant\n%v", rows, wantRows)
	}
	if got := bs.state(c).rowsIn.Load(); got == 0 {
		t.Errorf("the build side was not taken from the device cache")
	}
}

// A string group key of a cached build side with more distinct values than
// the cache encodes, grouped with the build's unique key, groups by build
// row with its strings left on the device until the groups come back
// (cachedBuild's late strings, hostStrings): names repeat across keys, a
// NULL build key never matches — against the groups computed here.
func TestGPULateStringsFromCache(t *testing.T) {
	g := testGPU(t)
	defer func(n, d int) { chunkRows, maxDictValues = n, d }(chunkRows, maxDictValues)
	chunkRows, maxDictValues = 700, 4
	defer g.cache.evict(nil)
	g.cache.evict(nil)
	before := g.PoolStats().Allocations
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64, Nullable: true}, {Name: "v", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64, Nullable: true}, {Name: "name", Type: str}, {Name: "tag", Type: str}}, nil)
	const np, nb = 6000, 2500
	pk := func(i int) any {
		if i%13 == 0 {
			return nil
		}
		return int64(i % 3000)
	}
	bk := func(i int) any {
		if i%31 == 0 {
			return nil
		}
		return int64(i) // unique
	}
	bname := func(i int) string { return fmt.Sprintf("name-%d", i%50) }
	btag := func(i int) string { return fmt.Sprintf("tag-%d", i%7) } // a second late key: the two share their row numbers
	probe := multiSplitTable("lprobe", pSchema, np, 500, func(i, c int) any {
		if c == 0 {
			return pk(i)
		}
		return int64(i)
	})
	build := multiSplitTable("lbuild", bSchema, nb, 400, func(i, c int) any {
		switch c {
		case 0:
			return bk(i)
		case 1:
			return bname(i)
		}
		return btag(i)
	})
	col := func(i int, t arrow.DataType, name string) *expr.Column {
		return &expr.Column{Index: i, Type: t, Name: name}
	}
	ps := &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0, 1}, Out: pSchema}, GPU: g}
	bs := &GPUScan{CPU: &exec.Scan{Table: build, Columns: []int{0, 1, 2}, Out: bSchema}, GPU: g}
	// Pipeline columns: k v | bk name tag.
	joins := []GPUJoin{{ProbeKeys: []int{0}, BuildKeys: []int{0}, Cols: []int{0, 1, 2}, Explain: "test join"}}
	out := arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64, Nullable: true}, {Name: "name", Type: str, Nullable: true},
		{Name: "tag", Type: str, Nullable: true}, {Name: "s", Type: i64, Nullable: true}, {Name: "n", Type: i64}}, nil)
	aggs := []exec.AggFunc{{Fn: "sum", Arg: col(1, i64, "v"), Type: i64}, {Fn: "count_star", Type: i64}}
	ga, err := newAggregate(ps, joins, []exec.Node{bs}, AggStage{Keys: []expr.Expr{col(2, i64, "bk"), col(3, str, "name"), col(4, str, "tag")}, Aggs: aggs, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
	if err != nil {
		t.Fatal(err)
	}
	if ga.state(c).onCPU.Load() {
		t.Fatal("ran on the CPU")
	}
	if st := &ga.state(c).joins[0]; st.buildCached.Load() == 0 || st.lateKeys.Load() < 2 {
		t.Fatalf("build from the cache %d, late string keys %d: want both, two keys", st.buildCached.Load(), st.lateKeys.Load())
	}
	type acc struct{ s, n int64 }
	want := map[string]*acc{}
	for i := range np {
		k := pk(i)
		if k == nil || k.(int64) >= nb || bk(int(k.(int64))) == nil {
			continue
		}
		key := fmt.Sprintf("%d|%s|%s", k, bname(int(k.(int64))), btag(int(k.(int64))))
		a := want[key]
		if a == nil {
			a = &acc{}
			want[key] = a
		}
		a.s += int64(i)
		a.n++
	}
	var wantRows []string
	for key, a := range want {
		wantRows = append(wantRows, fmt.Sprintf("%s|%d|%d", key, a.s, a.n))
	}
	slices.Sort(rows)
	slices.Sort(wantRows)
	if !slices.Equal(rows, wantRows) {
		t.Errorf("%d groups, want %d; first: %v / %v", len(rows), len(wantRows), rows[:min(3, len(rows))], wantRows[:min(3, len(wantRows))])
	}
	// The shared row numbers are freed once, with the build: nothing of
	// the query is left on the device once the cache lets go of the tables.
	g.cache.evict(nil)
	if got := g.PoolStats().Allocations; got != before {
		t.Errorf("%d device allocations after the query, %d before", got, before)
	}
}

// A build side run as a scan (a string group key the cache has no codes
// for, not grouped by the build's keys: uploaded from the scan's rows)
// whose scan carries a join filter of a join the pipeline runs on the
// device: nothing publishes it, and the scan must not wait for it
// (joinFilterWait, 50 ms a query at TPC-H q21's supplier build).
func TestGPUBuildScanSkipsJoinFilters(t *testing.T) {
	g := testGPU(t)
	defer func(n, d int) { chunkRows, maxDictValues = n, d }(chunkRows, maxDictValues)
	chunkRows, maxDictValues = 700, 4
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64}, {Name: "name", Type: str}}, nil)
	const np, nb = 3000, 1000
	probe := multiSplitTable("jfprobe", pSchema, np, 500, func(i, c int) any { return int64(i % 1500) })
	build := multiSplitTable("jfbuild", bSchema, nb, 400, func(i, c int) any {
		if c == 0 {
			return int64(i)
		}
		return fmt.Sprintf("name-%d", i%10)
	})
	col := func(i int, t arrow.DataType, name string) *expr.Column {
		return &expr.Column{Index: i, Type: t, Name: name}
	}
	ps := &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0}, Out: pSchema}, GPU: g}
	jf := exec.ScanJoinFilter{Filter: &exec.JoinFilter{ID: 7}, Keys: []expr.Expr{col(0, i64, "bk")}}
	bs := &GPUScan{CPU: &exec.Scan{Table: build, Columns: []int{0, 1}, Out: bSchema, JoinFilters: []exec.ScanJoinFilter{jf}}, GPU: g}
	// Pipeline columns: k | bk name.
	joins := []GPUJoin{{ProbeKeys: []int{0}, BuildKeys: []int{0}, Cols: []int{0, 1}, Explain: "test join"}}
	out := arrow.NewSchema([]arrow.Field{{Name: "name", Type: str, Nullable: true}, {Name: "n", Type: i64}}, nil)
	ga, err := newAggregate(ps, joins, []exec.Node{bs}, AggStage{Keys: []expr.Expr{col(2, str, "name")}, Aggs: []exec.AggFunc{{Fn: "count_star", Type: i64}}, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
	if err != nil {
		t.Fatal(err)
	}
	if ga.state(c).onCPU.Load() || ga.state(c).joins[0].buildCached.Load() != 0 {
		t.Fatalf("on the CPU %v, build from the cache %d: want the build uploaded from its scan", ga.state(c).onCPU.Load(), ga.state(c).joins[0].buildCached.Load())
	}
	if !bs.state(c).noJoinFilters.Load() {
		t.Error("the build scan kept its join filter: it waits for a filter nothing publishes")
	}
	// Probe keys 0..999 match: each twice (i % 1500 over 3000 rows); name
	// i%10 gets 100 keys.
	var want []string
	for d := range 10 {
		want = append(want, fmt.Sprintf("name-%d|200", d))
	}
	slices.Sort(rows)
	if !slices.Equal(rows, want) {
		t.Errorf("groups %v, want %v", rows, want)
	}
}

// Build sides are built at once, each on a queue of its own: each of the
// two builds here waits (a while) for the other to start, which one
// after another never does.
func TestGPUBuildsAtOnce(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 700
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i64}, {Name: "b", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}, {Name: "v", Type: i64}}, nil)
	probe := multiSplitTable("atonce_probe", pSchema, 3000, 500, func(i, c int) any { return int64(i % (100 * (c + 1))) })
	b1 := multiSplitTable("atonce_b1", bSchema, 100, 40, func(i, c int) any { return int64(i) })
	b2 := multiSplitTable("atonce_b2", bSchema, 200, 40, func(i, c int) any { return int64(2 * i) })
	col := func(i int, name string) *expr.Column { return &expr.Column{Index: i, Type: i64, Name: name} }
	scan := func(tb catalog.Table, s *arrow.Schema) *GPUScan {
		return &GPUScan{CPU: &exec.Scan{Table: tb, Columns: []int{0, 1}, Out: s}, GPU: g}
	}
	// Pipeline columns: a b | k1 v1 | k2 v2; a = k1, b = k2.
	joins := []GPUJoin{
		{ProbeKeys: []int{0}, BuildKeys: []int{0}, Cols: []int{0, 1}, Explain: "join 1"},
		{ProbeKeys: []int{1}, BuildKeys: []int{0}, Cols: []int{0, 1}, Explain: "join 2"},
	}
	out := arrow.NewSchema([]arrow.Field{{Name: "n", Type: i64}, {Name: "s1", Type: i64, Nullable: true}, {Name: "s2", Type: i64, Nullable: true}}, nil)
	aggs := []exec.AggFunc{{Fn: "count_star", Type: i64}, {Fn: "sum", Arg: col(3, "v1"), Type: i64}, {Fn: "sum", Arg: col(5, "v2"), Type: i64}}
	ga, err := newAggregate(scan(probe, pSchema), joins, []exec.Node{scan(b1, bSchema), scan(b2, bSchema)}, AggStage{Aggs: aggs, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	var started sync.WaitGroup
	started.Add(2)
	var alone atomic.Bool
	buildStarts = func(k int) {
		started.Done()
		done := make(chan struct{})
		go func() { started.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			alone.Store(true)
		}
	}
	defer func() { buildStarts = nil }()
	rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
	if err != nil {
		t.Fatal(err)
	}
	if alone.Load() {
		t.Error("a build side waited 5 s for the other to start: they run one after another")
	}
	// Join 1 matches every row of a chunk without a filter: the chunk's
	// rows stay as they are, and its columns and the join's are freed.
	g.cache.evict(nil)
	if st := g.PoolStats(); st.InUse != 0 {
		t.Errorf("device memory left in use: %v", st)
	}
	if ga.state(c).onCPU.Load() || ga.state(c).joins[0].buildCached.Load() == 0 || ga.state(c).joins[1].buildCached.Load() == 0 {
		t.Fatalf("on the CPU %v: want both builds from the device cache", ga.state(c).onCPU.Load())
	}
	// Row i: a = i%100 (k1 = v1 = a), b = i%200, matching k2 = v2 = b
	// only for even b (build 2's keys are 0, 2, … 398).
	var n, s1, s2 int64
	for i := range 3000 {
		a, b := int64(i%100), int64(i%200)
		if b%2 == 0 {
			n, s1, s2 = n+1, s1+a, s2+b
		}
	}
	if want := []string{fmt.Sprintf("%d|%d|%d", n, s1, s2)}; !slices.Equal(rows, want) {
		t.Errorf("got %v, want %v", rows, want)
	}
}

// Semi and anti joins run from their build side (from_build.go):
// the probe rows that reach the first of them are collected, and each
// join whose build side's table has at least fromBuildRatio times as many
// rows runs from it; a later one with too few is built; and when too many
// rows reach the first, every deferred join is built and the chunks run
// again. Each = the same joins computed here, with NULL probe keys, On
// conditions, and rows kept by no join. Under a device memory limit
// whose budget for resident tables holds the probe side and not the
// large build sides, the joins emitting rows run from those streamed
// through the device (the aggregation, its build sides estimated past
// the limit, runs as a grace join), the device's peak within the limit.
func TestGPUJoinFromBuild(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 700
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i64, Nullable: true}, {Name: "b", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}, {Name: "v", Type: i64}}, nil)
	const np = 3000
	pa := func(i int) (int64, bool) { return int64(2 * i), i%50 != 7 } // NULL every 50th
	pb := func(i int) int64 { return int64(i % 7) }
	probe := multiSplitTable("fb_probe", pSchema, np, 450, func(i, c int) any {
		if c == 1 {
			return pb(i)
		}
		if a, ok := pa(i); ok {
			return a
		}
		return nil
	})
	// A build side of n rows: keys i % mod, values i % 3.
	type side struct {
		tb       catalog.Table
		n, mod   int
		hasMatch func(a, b int64, on bool) bool
	}
	mk := func(name string, n, mod int) side {
		s := side{tb: multiSplitTable(name, bSchema, n, 600, func(i, c int) any {
			if c == 0 {
				return int64(i % mod)
			}
			return int64(i % 3)
		}), n: n, mod: mod}
		s.hasMatch = func(a, b int64, on bool) bool {
			for i := int(a); i < n; i += mod {
				if a < int64(mod) && (!on || int64(i%3) == b%3) {
					return true
				}
			}
			return false
		}
		return s
	}
	// Key moduli divisible by 3: a key's rows all have v = key % 3, so On
	// holds for some probe rows of a key and not others.
	big, big2, small := mk("fb_big", 20000, 3999), mk("fb_big2", 16000, 999), mk("fb_small", 2000, 1500)
	col := func(i int, name string) *expr.Column { return &expr.Column{Index: i, Type: i64, Name: name} }
	mod3 := func(e expr.Expr) expr.Expr {
		return &expr.Call{Fn: "mod", Args: []expr.Expr{e, &expr.Literal{Value: int64(3), Type: i64}}, Type: i64}
	}
	type join struct {
		typ exec.JoinType
		s   side
		on  bool // the build row's v = the probe row's b % 3
	}
	for _, tc := range []struct {
		name  string
		joins []join
		from  []bool // per join: run from its build side
		limit int64  // the device memory limit, 0: none
	}{
		{"semi", []join{{expr.JoinSemi, big, false}}, []bool{true}, 0},
		{"anti", []join{{expr.JoinAnti, big, false}}, []bool{true}, 0},
		{"semi on", []join{{expr.JoinSemi, big, true}}, []bool{true}, 0},
		{"anti on, then semi built", []join{{expr.JoinAnti, big, true}, {expr.JoinSemi, small, false}}, []bool{true, false}, 0},
		{"semi, then anti on", []join{{expr.JoinSemi, big, false}, {expr.JoinAnti, big2, true}}, []bool{true, true}, 0},
		{"too many rows: built", []join{{expr.JoinSemi, small, true}, {expr.JoinAnti, big, false}}, []bool{false, false}, 0},
		{"anti on, streamed", []join{{expr.JoinAnti, big, true}}, []bool{true}, 600 << 10},
		{"semi, then anti on, streamed", []join{{expr.JoinSemi, big, false}, {expr.JoinAnti, big2, true}}, []bool{true, true}, 600 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit > 0 {
				defer g.SetDeviceLimitForTesting(tc.limit)()
			}
			streamed0, _ := g.StreamedChunks()
			g.ResetPoolPeak()
			var joins []GPUJoin
			var builds []exec.Node
			first := 2
			for _, j := range tc.joins {
				gj := GPUJoin{Type: j.typ, ProbeKeys: []int{0}, BuildKeys: []int{0}, Explain: tc.name}
				if j.on {
					gj.Cols = []int{0, 1}
					gj.On = &expr.Call{Fn: "eq", Args: []expr.Expr{col(first+1, "v"), mod3(col(1, "b"))}, Type: expr.Boolean}
					first += 2
				}
				joins = append(joins, gj)
				builds = append(builds, &GPUScan{CPU: &exec.Scan{Table: j.s.tb, Columns: []int{0, 1}, Out: bSchema}, GPU: g})
			}
			out := arrow.NewSchema([]arrow.Field{{Name: "n", Type: i64}, {Name: "s", Type: i64, Nullable: true}}, nil)
			aggs := []exec.AggFunc{{Fn: "count_star", Type: i64}, {Fn: "sum", Arg: col(1, "b"), Type: i64}}
			ps := &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0, 1}, Out: pSchema}, GPU: g}
			ga, err := newAggregate(ps, joins, builds, AggStage{Aggs: aggs, Final: true}, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
			if err != nil {
				t.Fatal(err)
			}
			if ga.state(c).onCPU.Load() {
				t.Fatal("ran on the CPU")
			}
			g.cache.evict(nil)
			if st := g.PoolStats(); st.InUse != 0 {
				t.Errorf("device memory left in use: %v", st)
			}
			for k, want := range tc.from {
				if tc.limit > 0 {
					// The aggregation's build sides, estimated from
					// their tables, make it a grace join instead.
					if !ga.joinGraceState(c).on {
						t.Errorf("no grace join under a limit of %d bytes (%s)", tc.limit, ga.state(c).joinsText())
					}
					break
				}
				if got := ga.state(c).joins[k].fromBuild.Load() > 0; got != want {
					t.Errorf("join %d run from its build side: %v, want %v (%s)", k+1, got, want, ga.state(c).joinsText())
				}
			}
			var n, s int64
			for i := range np {
				a, ok := pa(i)
				keep := true
				for _, j := range tc.joins {
					m := ok && j.s.hasMatch(a, pb(i), j.on)
					keep = keep && m == (j.typ == expr.JoinSemi)
				}
				if keep {
					n, s = n+1, s+pb(i)
				}
			}
			want := fmt.Sprintf("%d|%d", n, s)
			if n == 0 {
				want = "0|NULL"
			}
			if len(rows) != 1 || rows[0] != want {
				t.Errorf("got %v, want %s", rows, want)
			}
			// The same joins emitting their rows (GPUJoinRows): b of each.
			ps = &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0, 1}, Out: pSchema}, GPU: g}
			for k := range builds {
				builds[k] = &GPUScan{CPU: &exec.Scan{Table: tc.joins[k].s.tb, Columns: []int{0, 1}, Out: bSchema}, GPU: g}
			}
			bOut := arrow.NewSchema([]arrow.Field{{Name: "b", Type: i64}}, nil)
			jr, err := newJoinRows(ps, joins, builds, []expr.Expr{col(1, "b")}, bOut, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, c, err := runRowsIn(t, mem, 2, 1024, jr)
			if err != nil {
				t.Fatal(err)
			}
			var gn, gs int64
			for _, row := range got {
				v, _ := strconv.ParseInt(row, 10, 64)
				gn, gs = gn+1, gs+v
			}
			if gn != n || gs != s {
				t.Errorf("join rows: %d rows of sum %d, want %d of %d", gn, gs, n, s)
			}
			for k, want := range tc.from {
				if got := jr.pipe.state(c).joins[k].fromBuild.Load() > 0; got != want {
					t.Errorf("join rows: join %d run from its build side: %v, want %v", k+1, got, want)
				}
			}
			if streamed, _ := g.StreamedChunks(); tc.limit > 0 && streamed == streamed0 {
				t.Errorf("no build side streamed under a limit of %d bytes", tc.limit)
			}
			if peak := g.PoolStats().Peak; tc.limit > 0 && peak > tc.limit {
				t.Errorf("device peak %d bytes past the limit %d", peak, tc.limit)
			}
		})
	}
}

// Chunks whose rows become few stop running the pipeline and the rest of
// it runs over them at once (stash.go): here chunks 2-4 stop after
// the first join, chunk 0 after the second, chunk 1 runs to the end; the
// groups (and the rows emitted) = those computed here, and no device
// memory is left.
func TestGPUStashFewRows(t *testing.T) {
	g := testGPU(t)
	defer func(n, s int) { chunkRows, stashSmall = n, s }(chunkRows, stashSmall)
	chunkRows, stashSmall = 600, 100
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i64}, {Name: "b", Type: i64}}, nil)
	kSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}, {Name: "v", Type: i64}}, nil)
	const np = 3000
	probe := multiSplitTable("few_probe", pSchema, np, 600, func(i, c int) any {
		if c == 0 {
			return int64(i)
		}
		return int64(i % 10)
	})
	in1 := func(i int) bool { return i < 1200 || i%13 == 0 }
	in2 := func(i int) bool { return i >= 600 || i%10 == 0 }
	keysOf := func(name string, in func(int) bool) catalog.Table {
		var ks []int64
		for i := range np {
			if in(i) {
				ks = append(ks, int64(i))
			}
		}
		return multiSplitTable(name, kSchema, len(ks), 500, func(i, c int) any { return ks[i] })
	}
	b3 := multiSplitTable("few_b3", kSchema, 10, 10, func(i, c int) any { return int64(i * (1 + 99*c)) })
	scan := func(tb catalog.Table, s *arrow.Schema) *GPUScan {
		return &GPUScan{CPU: &exec.Scan{Table: tb, Columns: []int{0, 1}, Out: s}, GPU: g}
	}
	// Pipeline columns: a b | v3.
	joins := []GPUJoin{
		{Type: expr.JoinInner, ProbeKeys: []int{0}, BuildKeys: []int{0}, Explain: "join 1"},
		{Type: expr.JoinInner, ProbeKeys: []int{0}, BuildKeys: []int{0}, Explain: "join 2"},
		{Type: expr.JoinInner, ProbeKeys: []int{1}, BuildKeys: []int{0}, Cols: []int{1}, Explain: "join 3"},
	}
	builds := func() []exec.Node {
		return []exec.Node{scan(keysOf("few_b1", in1), kSchema), scan(keysOf("few_b2", in2), kSchema), scan(b3, kSchema)}
	}
	col := func(i int, name string) *expr.Column { return &expr.Column{Index: i, Type: i64, Name: name} }
	out := arrow.NewSchema([]arrow.Field{{Name: "b", Type: i64}, {Name: "n", Type: i64}, {Name: "s", Type: i64, Nullable: true}}, nil)
	ga, err := newAggregate(scan(probe, pSchema), joins, builds(), AggStage{Keys: []expr.Expr{col(1, "b")}, Aggs: []exec.AggFunc{{Fn: "count_star", Type: i64}, {Fn: "sum", Arg: col(2, "v"), Type: i64}}, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, c, err := runRowsIn(t, mem, 2, 1024, ga)
	if err != nil {
		t.Fatal(err)
	}
	if ga.state(c).onCPU.Load() {
		t.Fatal("ran on the CPU")
	}
	n, sum := map[int]int64{}, map[int]int64{}
	var want []string
	emitted := 0
	for i := range np {
		if in1(i) && in2(i) {
			n[i%10]++
			sum[i%10] += int64(i%10) * 100
			emitted++
		}
	}
	for b := range 10 {
		want = append(want, fmt.Sprintf("%d|%d|%d", b, n[b], sum[b]))
	}
	slices.Sort(rows)
	if !slices.Equal(rows, want) {
		t.Errorf("groups %v, want %v", rows, want)
	}
	// Each row went through each join once, whichever way it went.
	var after1 int64
	for i := range np {
		if in1(i) {
			after1++
		}
	}
	if got := ga.state(c).joins[0].in.Load(); got != np {
		t.Errorf("join 1: %d rows in, want %d", got, np)
	}
	if got := ga.state(c).joins[1].in.Load(); got != after1 {
		t.Errorf("join 2: %d rows in, want %d", got, after1)
	}
	if got := ga.state(c).joins[2].in.Load(); got != int64(emitted) {
		t.Errorf("join 3: %d rows in, want %d", got, emitted)
	}
	// Join 1 ran over the five chunks, join 2 over chunks 0 and 1 and
	// then chunks 2-4's rows at once, join 3 over chunk 1 and then the
	// others' rows at once.
	for k, want := range []int64{5, 3, 2} {
		if got := ga.state(c).joins[k].batches.Load(); got != want {
			t.Errorf("join %d ran over %d batches, want %d (%s)", k+1, got, want, ga.state(c).joinsText())
		}
	}
	jr, err := newJoinRows(scan(probe, pSchema), joins, builds(), []expr.Expr{col(2, "v")}, arrow.NewSchema([]arrow.Field{{Name: "v", Type: i64}}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runRows(t, mem, 2, 1024, jr)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != emitted {
		t.Errorf("join rows: %d rows, want %d", len(got), emitted)
	}
	g.cache.evict(nil)
	if st := g.PoolStats(); st.InUse != 0 {
		t.Errorf("device memory left in use: %v", st)
	}
}

// GQ_GPU_STREAMS sets how many chunks an operator works on at once; a
// value that is not a number from 1 to 64 is an error naming it.
func TestGPUStreamsFromEnv(t *testing.T) {
	defer func(n int, v *string) { gpuStreams = n; streamsSetting.Store(v) }(gpuStreams, streamsSetting.Load())
	for _, c := range []struct {
		v    string
		want int
		ok   bool
	}{{"", 4, true}, {"8", 8, true}, {"1", 1, true}, {"0", 0, false}, {"65", 0, false}, {"many", 0, false}} {
		gpuStreams = 4
		SetStreams(c.v)
		err := applyStreams()
		if c.ok && (err != nil || gpuStreams != c.want) {
			t.Errorf("GQ_GPU_STREAMS=%q: %d streams, %v; want %d", c.v, gpuStreams, err, c.want)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "GQ_GPU_STREAMS="+c.v)) {
			t.Errorf("GQ_GPU_STREAMS=%q: %v, want an error naming it", c.v, err)
		}
	}
}

// TestGPUPoolTakesWhatIsFree: a device memory limit past the device's
// free memory (ranks sharing a GPU, each given a part of it) opens a pool
// of what is free and says so once, instead of failing the open.
func TestGPUPoolTakesWhatIsFree(t *testing.T) {
	testGPU(t)
	g := &GPU{poolBytes: 1 << 60, opened: make(chan struct{})}
	g.cache = newDeviceCache(g)
	if err := g.Wait(); err != nil {
		t.Fatalf("open with a limit past free memory: %v", err)
	}
	defer func() {
		if err := g.pool.Close(); err != nil {
			t.Error(err)
		}
		g.dv.Close()
	}()
	if size := g.pool.Stats().Size; size <= 0 || size >= 1<<60 {
		t.Fatalf("pool size %d", size)
	}
	note := g.TakePoolNote()
	if !strings.Contains(note, "is more than the device has free") || !strings.Contains(note, "the pool holds") {
		t.Fatalf("note %q", note)
	}
	if again := g.TakePoolNote(); again != "" {
		t.Fatalf("the note is given twice: %q", again)
	}
}

// A grace join pass whose build tables find no room on the device is
// split in two and run again, its rows not sent yet, rather than ending
// a GPUJoinRows that has sent the rows of the passes before it (which
// may neither start again nor fall back): here every pass is made of 32
// partitions, whose table does not fit under the limit, and the rows
// are the joins' all the same.
func TestGPUJoinGraceSplitsPass(t *testing.T) {
	g := testGPU(t)
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	pSchema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i64, Nullable: true}, {Name: "b", Type: i64}}, nil)
	bSchema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: i64}, {Name: "v", Type: i64}}, nil)
	const np, nb, mod = 3000, 20000, 3999
	probe := multiSplitTable("split_probe", pSchema, np, 450, func(i, c int) any {
		switch {
		case c == 1:
			return int64(i % 7)
		case i%50 == 7:
			return nil
		}
		return int64(2 * i)
	})
	build := multiSplitTable("split_build", bSchema, nb, 600, func(i, c int) any {
		if c == 0 {
			return int64(i % mod)
		}
		return int64(i % 3)
	})
	defer forceJoinGrace.Store(0)
	forceJoinGrace.Store(32)
	defer g.SetDeviceLimitForTesting(400 << 10)()
	col := func(i int, name string) *expr.Column { return &expr.Column{Index: i, Type: i64, Name: name} }
	ps := &GPUScan{CPU: &exec.Scan{Table: probe, Columns: []int{0, 1}, Out: pSchema}, GPU: g}
	bs := &GPUScan{CPU: &exec.Scan{Table: build, Columns: []int{0, 1}, Out: bSchema}, GPU: g}
	joins := []GPUJoin{{Type: expr.JoinInner, ProbeKeys: []int{0}, BuildKeys: []int{0}, Cols: []int{1}, Explain: "split"}}
	out := arrow.NewSchema([]arrow.Field{{Name: "b", Type: i64}, {Name: "v", Type: i64}}, nil)
	// No CPU twin: a fallback would emit no row.
	jr, err := newJoinRows(ps, joins, []exec.Node{bs}, []expr.Expr{col(1, "b"), col(2, "v")}, out, &exec.Values{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	g.ResetPoolPeak()
	got, c, err := runRowsIn(t, mem, 2, 1024, jr)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range np {
		if a := 2 * i; i%50 != 7 && a < mod {
			for k := a; k < nb; k += mod {
				want = append(want, fmt.Sprintf("%d|%d", i%7, k%3))
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%d rows, want %d", len(got), len(want))
	}
	st := jr.pipe.joinGraceState(c)
	if jr.state(c).onCPU.Load() || len(st.groups) <= 2 || st.passes.Load() != int64(len(st.groups)) {
		t.Errorf("on the CPU: %v; %d passes of %v, want more than 2 passes, all run, on the device", jr.state(c).onCPU.Load(), st.passes.Load(), st.groups)
	}
	if peak := g.PoolStats().Peak; peak > 400<<10 {
		t.Errorf("device peak %d bytes past the limit", peak)
	}
}
