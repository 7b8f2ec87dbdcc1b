package gpuexec

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// GPUJoin is a join the device runs between a GPUAggregate's scan and its
// aggregation (Place finds them: TPC-H's star joins of
// lineitem or orders with dimension tables): the rows so far look up their
// keys in a device hash table of the build side's rows (JoinStage.Build
// — taken from the device cache when it is a GPU scan) and, for inner and
// left joins, each match's build columns Cols are appended. When the build
// keys are unique (a primary key: most joins) a row finds at most one
// build row; otherwise every matching pair is written out
// (arrowgpu.JoinTable.Expand).
//
// The rows of the pipeline have "pipeline columns": the scan's Columns
// positions, then each join's Cols in order. GPUAggregate's keys and
// aggregates, and each join's keys and Filter, are expressions over them.
type GPUJoin struct {
	// Type is inner, left (rows without a match kept, build columns NULL),
	// single (a scalar subquery's left join, on unique build keys: a build
	// side with repeated keys leaves the join to the CPU), semi or anti
	// (no build columns).
	Type exec.JoinType
	// NullAware (anti, without On) is NOT IN's anti join (HashJoin's):
	// with a build side that is not empty, a row with a NULL key, or any
	// NULL key on the build side, keeps no row.
	NullAware bool
	BuildKeys []int     // columns of Build's output
	ProbeKeys []int     // pipeline columns (integer-like, the build keys' types)
	Cols      []int     // Build's output columns appended as pipeline columns
	Filter    expr.Expr // over the pipeline columns so far, after the join; or nil
	// On is a semi or anti join's further condition on each matching
	// pair (q21's l_suppkey <> l_suppkey), over the pipeline columns and
	// the build's Cols, which the join's output does not keep; or nil.
	On expr.Expr
	// Explain describes the join it replaces ("HashJoin inner keys=[...]").
	Explain string
}

// gpuJoinStats is what EXPLAIN ANALYZE shows of one join of a pipeline:
// rows in and out, device time, and its build side (rows, time, whether
// read from the device cache).
type gpuJoinStats struct {
	in, out, ns        atomic.Int64
	batches            atomic.Int64 // batches joined: chunks, or chunks' rows collected (stash.go)
	buildRows, buildNS atomic.Int64
	buildCached        atomic.Int64
	lateKeys           atomic.Int64 // string group keys by build row (lateStrings)
	fromBuild          atomic.Int64 // runs from the build side (fromBuild)
}

// joinsText is the "joins" column of EXPLAIN ANALYZE ("" without joins):
// per join "rows in→out time, build rows (cache|uploaded) time".
func (r *aggRun) joinsText() string {
	var parts []string
	for k := range r.joins {
		st := &r.joins[k]
		from := "uploaded"
		if st.buildCached.Load() > 0 {
			from = "cache"
		}
		if st.fromBuild.Load() > 0 {
			from = "cache, run from it against the probe rows"
		}
		if n := st.lateKeys.Load(); n > 0 {
			from += fmt.Sprintf(", %d string keys by row", n)
		}
		parts = append(parts, fmt.Sprintf("%d: %d→%d rows in %d batches %v, build %d rows (%s) %v", k+1, st.in.Load(), st.out.Load(), st.batches.Load(),
			time.Duration(st.ns.Load()).Round(time.Microsecond), st.buildRows.Load(), from, time.Duration(st.buildNS.Load()).Round(time.Microsecond)))
	}
	return strings.Join(parts, "; ")
}

// devBuild is a join's build side on the device: its table and the
// columns it appends (nil where nothing reads them), and the dictionaries
// of string columns appended as codes (group keys).
type devBuild struct {
	table    *arrowgpu.JoinTable
	nullKeys bool // a build row has a NULL key (counted for NullAware joins)
	// allRows is the build side's rows: the table's, or all partitions'
	// of a grace join, whose table holds some (NOT IN reads both).
	allRows int
	cols    []*arrowgpu.Column // per Cols entry; nil where nothing reads it
	codes   []*arrowgpu.Column // per Cols entry: the codes of a string group key, or nil
	dicts   map[int]*devDict   // the strings of those codes, by Cols position
}

// buildTable builds b's table of rows rows from nk key columns, made by
// key(x) and freed once the table holds them; with nulls, it also finds
// whether a key is NULL (nullKeys).
func (b *devBuild) buildTable(q *arrowgpu.Queue, rows, nk int, nulls bool, key func(x int) (*arrowgpu.Column, error)) error {
	var keys []*arrowgpu.Column
	defer func() {
		for _, kc := range keys {
			kc.Free()
		}
	}()
	for x := range nk {
		kc, err := key(x)
		if err != nil {
			return err
		}
		keys = append(keys, kc)
		if nulls && !b.nullKeys {
			valid, err := q.Count(kc, nil, rows)
			if err != nil {
				return err
			}
			b.nullKeys = valid < int64(rows)
		}
	}
	var err error
	b.table, err = q.BuildJoinTable(keys, rows)
	b.allRows = rows
	return err
}

func (b *devBuild) free() {
	if b.table != nil {
		b.table.Free()
	}
	for _, c := range append(b.cols, b.codes...) {
		if c != nil {
			c.Free()
		}
	}
	for _, d := range b.dicts {
		d.releaseStrings()
	}
}

// gpuPipeline is what a GPUAggregate with joins prepares once per run.
type gpuPipeline struct {
	scanFilter *arrowgpu.Fused   // the scan's device filter, or nil
	filters    []*arrowgpu.Fused // per join: its Filter, or nil
	ons        []*arrowgpu.Fused // per join: its On, or nil
	notNull    []*arrowgpu.Fused // per NullAware join: its probe keys are not NULL
	builds     []*devBuild
	// needAfter[k] marks the batch slots read after step k (step 0: the
	// scan's filter; step k+1: join k).
	needAfter [][]bool
	width     int // pipeline columns; slots width+i hold key i's codes
	// grace, when set, is the run's grace join (join_grace.go): the
	// builds of its joins hold one pass's partitions, and the rows reach
	// them from the probe side's partitions — or, when all partitions
	// make one pass, from the chunks as without a grace join.
	grace *joinGraceRun
}

func (p *gpuPipeline) free() {
	for _, b := range p.builds {
		if b != nil {
			b.free()
		}
	}
}

// prepareJoins compiles the pipeline's filters, runs the build sides and
// puts them on the device — but those of the joins deferred marks (nil:
// none), which the caller runs from their build side (fromBuild) or
// builds later (buildDeferred).
func (a *GPUAggregate) prepareJoins(c *exec.Context, deferred []bool) (*gpuPipeline, error) {
	s := a.stages.Scan()
	p := &gpuPipeline{width: a.width()}
	var err error
	if s.DeviceFilter != nil {
		if p.scanFilter, err = arrowgpu.GenerateFused(nil, s.DeviceFilter); err != nil {
			return nil, err
		}
	}
	for _, j := range a.stages.Joins() {
		var f, on *arrowgpu.Fused
		if j.Filter != nil {
			if f, err = arrowgpu.GenerateFused(nil, j.Filter); err != nil {
				return nil, err
			}
		}
		if j.On != nil {
			if on, err = arrowgpu.GenerateFused(nil, j.On); err != nil {
				return nil, err
			}
		}
		var nn *arrowgpu.Fused
		if j.NullAware {
			if nn, err = arrowgpu.GenerateFused(nil, a.keysNotNull(j)); err != nil {
				return nil, err
			}
		}
		p.filters = append(p.filters, f)
		p.ons = append(p.ons, on)
		p.notNull = append(p.notNull, nn)
	}
	p.needAfter = a.slotsNeeded()
	p.builds = make([]*devBuild, a.stages.NumJoins())
	if err = a.runBuilds(c, p.builds, func(k int) bool { return deferred == nil || !deferred[k] }); err != nil {
		return nil, &joinBuildErr{err}
	}
	for k, j := range a.stages.Joins() {
		if b := p.builds[k]; b != nil && j.Type == expr.JoinSingle && !b.table.Unique {
			// A probe row with two matches is the CPU's error to
			// raise (or not, if none comes): it runs the join.
			p.free()
			if len(j.BuildKeys) == 0 {
				return nil, errs.New(errs.Unsupported, "GPU join: a scalar subquery of more than one row")
			}
			return nil, errs.New(errs.Unsupported, "GPU join: a scalar subquery's build side has repeated keys")
		}
	}
	return p, nil
}

// runBuilds puts the build sides of the joins want takes on the device,
// all at once, each on a queue of its own: they are independent — TPC-H
// q21's five took 66 ms one after another on the H200 at SF10, the
// longest 21 ms — and a CPU plan's exchanges under ranks may run beside
// others (the shuffles are kept apart by their op ids).
//
// It fills builds[k] for each join k that want takes; on failure it frees
// those it made and leaves them nil.
func (a *GPUAggregate) runBuilds(c *exec.Context, builds []*devBuild, want func(k int) bool) error {
	g := a.stages.Scan().GPU
	failed := make([]error, a.stages.NumJoins())
	build := func(k, first int, q *arrowgpu.Queue) {
		if buildStarts != nil {
			buildStarts(k)
		}
		t0 := time.Now()
		b, err := a.uploadBuild(c, q, k, first)
		if err != nil {
			failed[k] = err
			return
		}
		st := &a.state(c).joins[k]
		st.buildNS.Add(int64(time.Since(t0)))
		st.buildRows.Add(int64(b.table.Rows))
		builds[k] = b
	}
	var wg sync.WaitGroup
	var made []int
	for k := range a.stages.Joins() {
		if !want(k) {
			continue
		}
		wq, err := g.queue()
		if err != nil {
			failed[k] = err
			break
		}
		made = append(made, k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer g.putQueue(wq)
			build(k, a.firstCol(k), wq)
		}()
	}
	wg.Wait()
	if err := cmp.Or(failed...); err != nil {
		for _, k := range made {
			if builds[k] != nil {
				builds[k].free()
				builds[k] = nil
			}
		}
		return err
	}
	return nil
}

// firstCol is the pipeline column of join k's first appended column.
func (a *GPUAggregate) firstCol(k int) int {
	first := len(a.stages.Scan().CPU.Columns)
	for i := range k {
		first += len(a.stages.Join(i).Cols)
	}
	return first
}

// buildStarts, when set (by tests), is called as join k's build starts.
var buildStarts func(k int)

// keysNotNull is the predicate that none of j's probe keys is NULL.
func (a *GPUAggregate) keysNotNull(j *GPUJoin) expr.Expr {
	var conj []expr.Expr
	for _, pk := range j.ProbeKeys {
		col := &expr.Column{Index: pk, Type: a.pipelineType(pk)}
		conj = append(conj, &expr.Call{Fn: "is_not_null", Args: []expr.Expr{col}, Type: expr.Boolean})
	}
	if len(conj) == 1 {
		return conj[0]
	}
	return &expr.Call{Fn: "and", Args: conj, Type: expr.Boolean}
}

// pipelineType is the type of pipeline column pc.
func (a *GPUAggregate) pipelineType(pc int) arrow.DataType {
	sc := a.stages.Scan().CPU
	if pc < len(sc.Columns) {
		return sc.Table.Schema().Field(sc.Columns[pc]).Type
	}
	first := len(sc.Columns)
	for k, j := range a.stages.Joins() {
		if pc < first+len(j.Cols) {
			return a.stages.Build(k).Schema().Field(j.Cols[pc-first]).Type
		}
		first += len(j.Cols)
	}
	return nil
}

// dictOf is the dictionary of the build column that is pipeline column pc.
func (p *gpuPipeline) dictOf(a *GPUAggregate, pc int) *devDict {
	first := len(a.stages.Scan().CPU.Columns)
	for k, j := range a.stages.Joins() {
		if pc < first+len(j.Cols) {
			if d, ok := p.grace.sharedDict(k, pc-first); ok {
				return d
			}
			return p.builds[k].dicts[pc-first]
		}
		first += len(j.Cols)
	}
	return nil
}

// width is the number of pipeline columns.
func (a *GPUAggregate) width() int {
	w := len(a.stages.Scan().CPU.Columns)
	for _, j := range a.stages.Joins() {
		w += len(j.Cols)
	}
	return w
}

// slotsNeeded returns, per step, the batch slots read after it: by later
// joins' keys and filters, and by the aggregation (its keys, arguments,
// and the code slots of string keys).
func (a *GPUAggregate) slotsNeeded() [][]bool {
	w := a.width()
	need := make([]bool, w+len(a.stages.Keys()))
	mark := func(e expr.Expr) {
		for _, c := range exec.ExprColumns(e, nil) {
			need[c] = true
		}
	}
	for i, k := range a.stages.Keys() {
		if a.dictOf[i] >= 0 {
			need[w+i] = true
		} else {
			mark(k)
		}
	}
	for _, f := range a.stages.Aggs() {
		if f.Arg != nil {
			mark(f.Arg)
		}
	}
	out := make([][]bool, a.stages.NumJoins()+1)
	for k := a.stages.NumJoins(); k >= 1; k-- {
		j := a.stages.Join(k - 1)
		if j.Filter != nil { // read right after the join
			mark(j.Filter)
		}
		out[k] = append([]bool(nil), need...)
		for _, pk := range j.ProbeKeys {
			need[pk] = true
		}
		if j.On != nil { // read during the join (its build slots: buildNeed)
			mark(j.On)
		}
	}
	out[0] = need
	return out
}

// buildNeed marks the slots join k's build side must provide: those read
// after the join, and its On's.
func (a *GPUAggregate) buildNeed(k int) []bool {
	need := a.slotsNeeded()[k+1]
	if on := a.stages.Join(k).On; on != nil {
		for _, c := range exec.ExprColumns(on, nil) {
			need[c] = true
		}
	}
	return need
}

// uploadBuild runs join k's build side and puts its keys' table and the
// columns the pipeline reads on the device. first is the pipeline column
// of its first appended column.
func (a *GPUAggregate) uploadBuild(c *exec.Context, q *arrowgpu.Queue, k, first int) (*devBuild, error) {
	build := a.stages.Build(k)
	if gs, proj := scanBuild(build); gs != nil {
		db, err := a.cachedBuild(c, q, k, first, gs, proj)
		if db != nil {
			a.state(c).joins[k].buildCached.Add(1)
		}
		if db != nil || err != nil {
			return db, err
		}
	}
	var batches []arrow.RecordBatch
	defer func() { exec.ReleaseBatches(batches) }()
	if gs, _ := scanBuild(build); gs != nil {
		gs.state(c).noJoinFilters.Store(true)
	}
	for b := range build.Open(c) {
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		batches = append(batches, b)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return a.batchesBuild(c, q, k, first, batches, nil)
}

// batchesBuild puts join k's table of batches, rows of its build side
// (all of them, or a grace join's partitions: join_grace.go), and the
// columns the pipeline reads on the device; batches stay the caller's.
// shared, when set, holds the dictionaries of string group keys (by Cols
// position) made over all a grace join's partitions: their codes are
// the same in every pass.
func (a *GPUAggregate) batchesBuild(c *exec.Context, q *arrowgpu.Queue, k, first int, batches []arrow.RecordBatch, shared map[int]*graceDict) (*devBuild, error) {
	j := a.stages.Join(k)
	build := a.stages.Build(k)
	n := rowsOf(batches)
	column := func(i int) []arrow.Array {
		arrs := make([]arrow.Array, len(batches))
		for bi, b := range batches {
			arrs[bi] = b.Column(i)
		}
		return arrs
	}
	db := &devBuild{dicts: map[int]*devDict{}}
	fail := func(err error) (*devBuild, error) {
		db.free()
		return nil, err
	}
	err := db.buildTable(q, n, len(j.BuildKeys), j.NullAware, func(x int) (*arrowgpu.Column, error) {
		bk := j.BuildKeys[x]
		col, _, err := uploadConcat(q, build.Schema().Field(bk).Type, column(bk), c.Alloc)
		return col, err
	})
	if err != nil {
		return fail(err)
	}
	need := a.buildNeed(k)
	w := a.width()
	late := shared == nil && db.table.Unique && a.keyedByBuild(k, first)
	var rowNums *arrowgpu.Column // rowNumbers'
	for ci, bc := range j.Cols {
		pc := first + ci
		var col, codes *arrowgpu.Column
		if need[pc] {
			if col, _, err = uploadConcat(q, build.Schema().Field(bc).Type, column(bc), c.Alloc); err != nil {
				return fail(err)
			}
		}
		db.cols = append(db.cols, col)
		for i, d := range a.dictOf {
			if d != pc || !need[w+i] || codes != nil {
				continue
			}
			// A string group key: its codes go to the device, the
			// strings stay here for partialRows.
			if late {
				if db.dicts[ci], err = lateStrings(column(bc)); err != nil {
					return fail(err)
				}
				a.state(c).joins[k].lateKeys.Add(1)
				if codes, err = rowNumbers(q, n, &rowNums); err != nil {
					return fail(err)
				}
				continue
			}
			var arr arrow.Array
			if sd := shared[ci]; sd != nil {
				arr, err = sd.encode(c, column(bc))
			} else {
				var dict *devDict
				dict, arr, err = dictEncode(c, column(bc))
				db.dicts[ci] = dict
			}
			if err != nil {
				return fail(err)
			}
			codes, _, err = uploadConcat(q, arrow.PrimitiveTypes.Int32, []arrow.Array{arr}, c.Alloc)
			arr.Release()
			if err != nil {
				return fail(err)
			}
		}
		db.codes = append(db.codes, codes)
	}
	return db, nil
}

// keyedByBuild reports whether the aggregation groups by every build key
// of join k (as bare pipeline columns; first: the pipeline column of the
// join's first appended column). When those keys are also unique, a build
// row's other columns are functions of the group, so a string among them
// can group by the build row's number (lateStrings) instead of a code
// from a dictionary built on the host (TPC-H q10's and q18's customer
// names, addresses and comments: millions of distinct strings at SF10).
func (a *GPUAggregate) keyedByBuild(k, first int) bool {
	j := a.stages.Join(k)
	if j.Type != expr.JoinInner && !j.Type.KeepsUnmatched() || len(j.BuildKeys) == 0 {
		return false
	}
	for _, bk := range j.BuildKeys {
		ci := slices.Index(j.Cols, bk)
		grouped := ci >= 0 && slices.ContainsFunc(a.stages.Keys(), func(e expr.Expr) bool {
			col, ok := e.(*expr.Column)
			return ok && col.Index == first+ci
		})
		if !grouped {
			return false
		}
	}
	return true
}

// rowNumbers is the device column 0, 1, … n-1 (Int32): the codes of
// strings grouped by build row.
//
// The build's late keys share one column (*shared, made on the device by
// the first; the others borrow it, and the build frees them all
// together): TPC-H q10's customer build has four, 1.5M rows at SF10,
// which each made its numbers on the host and uploaded them.
func rowNumbers(q *arrowgpu.Queue, n int, shared **arrowgpu.Column) (*arrowgpu.Column, error) {
	if *shared != nil {
		return (*shared).Borrow(), nil
	}
	col, err := q.RowNumbers(n)
	if err == nil {
		*shared = col
	}
	return col, err
}

// hostStrings brings to the host the strings of the groups' keys whose
// dictionary holds them on the device (late strings of a build side from
// the cache): for each such key, the strings of its codes are gathered
// there and downloaded, and the key's codes become the groups' row
// numbers into them. It returns the dictionaries to read the keys with
// and what releases the new ones.
func hostStrings(c *exec.Context, q *arrowgpu.Queue, keys []*array.Int64, nulls *array.Int64, dicts []*devDict) ([]*devDict, func(), error) {
	out := slices.Clone(dicts)
	var made []*devDict
	release := func() {
		for _, d := range made {
			d.releaseStrings()
		}
	}
	for i, d := range dicts {
		if d == nil || d.dev == nil || i >= len(keys) {
			continue
		}
		n := keys[i].Len()
		idx := make([]byte, 4*n)
		for r := range n {
			code := int32(keys[i].Value(r))
			if nulls != nil && nulls.Value(r)>>i&1 != 0 {
				code = -1
			}
			binary.LittleEndian.PutUint32(idx[4*r:], uint32(code))
		}
		vals, err := func() (arrow.Array, error) {
			if n == 0 {
				return array.MakeArrayOfNull(c.Alloc, arrow.BinaryTypes.String, 0), nil
			}
			ib, err := q.UploadBytes(idx)
			if err != nil {
				return nil, err
			}
			defer ib.Free()
			g, err := q.GatherOrNull(d.dev, ib, n)
			if err != nil {
				return nil, err
			}
			defer g.Free()
			return q.Download(g, c.Alloc)
		}()
		if err != nil {
			release()
			return nil, nil, err
		}
		nd := &devDict{values: vals.(*array.String)}
		made = append(made, nd)
		out[i] = nd
		rows := make([]int64, n)
		for r := range rows {
			rows[r] = int64(r)
		}
		keys[i].Release()
		keys[i] = int64Values(c, rows)
	}
	return out, release, nil
}

// int64Values is an Int64 array of vals.
func int64Values(c *exec.Context, vals []int64) *array.Int64 {
	b := array.NewInt64Builder(c.Alloc)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewInt64Array()
}

// lateStrings is dictEncode's alternative for a column of a build side
// whose unique keys the aggregation groups by (keyedByBuild): each row's
// code is its row number (rowNumbers), and the strings are the column
// itself, read only for the groups that come back.
func lateStrings(arrs []arrow.Array) (*devDict, error) {
	d := &devDict{}
	start := 0
	for _, a := range arrs {
		s, ok := a.(*array.String)
		if !ok {
			d.releaseStrings()
			return nil, errs.New(errs.Unsupported, "GPU join: group key of %s", a.DataType())
		}
		s.Retain()
		d.rows, d.starts = append(d.rows, s), append(d.starts, start)
		start += s.Len()
	}
	return d, nil
}

// scanBuild returns the GPU scan a build side reads from the device cache
// — the scan itself, or a Project of some of its columns (proj: the scan's
// output column of each of the build's) — or nil.
func scanBuild(n exec.Node) (gs *GPUScan, proj []int) {
	unwrap := func(n exec.Node) exec.Node {
		if an, ok := n.(*exec.Analyzed); ok {
			return an.Inner
		}
		return n
	}
	n = unwrap(n)
	if p, ok := n.(*exec.Project); ok {
		for _, e := range p.Exprs {
			c, ok := e.(*expr.Column)
			if !ok {
				return nil, nil
			}
			proj = append(proj, c.Index)
		}
		n = unwrap(p.Input)
	}
	if gs, ok := n.(*GPUScan); ok && gs.HostFilter == nil {
		return gs, proj
	}
	return nil, nil
}

// buildScanCol is the scan's output column that a build side's output
// column out is (proj: scanBuild's), and buildCacheCol the table column
// (the device cache's) it reads.
func buildScanCol(proj []int, out int) int {
	if proj != nil {
		return proj[out]
	}
	return out
}

func buildCacheCol(sc *exec.Scan, proj []int, out int) int {
	out = buildScanCol(proj, out)
	if sc.Emit != nil {
		out = sc.Emit[out]
	}
	return sc.Columns[out]
}

// onPairs gathers the columns a semi or anti join's condition reads for
// each of m pairs of rows, in one trip to the device: probe's (by
// pipeline slot) by the pairs' probe rows pi, build's by their build rows
// bi.
func onPairs(q *arrowgpu.Queue, probe, build []*arrowgpu.Column, pi, bi arrowgpu.Buffer, m int) (*arrowgpu.Batch, error) {
	got, err := q.GatherSets([]arrowgpu.GatherSet{{Cols: probe, Idx: pi}, {Cols: build, Idx: bi}}, m)
	if err != nil {
		return nil, err
	}
	for sl, c := range got[1] {
		if c != nil {
			got[0][sl] = c
		}
	}
	return &arrowgpu.Batch{Len: m, Cols: got[0]}, nil
}

// cachedBuild takes join k's build side, a GPU scan (proj: scanBuild's), from the device table
// cache: the scan's device filter and a gather per chunk, then the chunks
// made one column each — no trip through host memory (q13's, q21's large
// build sides). nil, nil when it cannot (a string group key the cache has
// no dictionary for, a table over the budget for resident tables): the
// caller runs the scan instead, which streams it.
func (a *GPUAggregate) cachedBuild(c *exec.Context, q *arrowgpu.Queue, k, first int, gs *GPUScan, proj []int) (*devBuild, error) {
	j := a.stages.Join(k)
	sc := gs.CPU
	g := gs.GPU
	need := a.buildNeed(k)
	w := a.width()
	dt, loaded, err := gs.acquire(c, true)
	if err != nil {
		return nil, err
	}
	defer g.cache.releaseView(dt)
	if dt.stream != nil {
		return nil, nil
	}
	gs.state(c).toDevice.Add(loaded)
	// Per Cols entry: whether its values, its codes are needed; late: a
	// string group key the cache has no codes for, grouped by build row
	// (keyedByBuild; its strings stay on the device until the groups come
	// back).
	wantCol := make([]bool, len(j.Cols))
	wantCodes := make([]*devDict, len(j.Cols))
	late := make([]bool, len(j.Cols))
	for ci, bc := range j.Cols {
		wantCol[ci] = need[first+ci]
		for i, d := range a.dictOf {
			if d == first+ci && need[w+i] {
				if wantCodes[ci] = dt.dicts[buildCacheCol(sc, proj, bc)]; wantCodes[ci] == nil {
					if !a.keyedByBuild(k, first) {
						return nil, nil
					}
					late[ci] = true
				}
			}
		}
	}
	var fused *arrowgpu.Fused
	if gs.DeviceFilter != nil {
		if fused, err = arrowgpu.GenerateFused(nil, gs.DeviceFilter); err != nil {
			return nil, err
		}
	}
	// pieces[x] collects one output column's chunks: the keys, then per
	// Cols entry its values and its codes.
	nk := len(j.BuildKeys)
	pieces := make([][]*arrowgpu.Column, nk+2*len(j.Cols))
	srcs := make([]func(i int) *arrowgpu.Column, len(pieces)) // column x of chunk i, nil: not needed
	for x, bk := range j.BuildKeys {
		o := buildCacheCol(sc, proj, bk)
		srcs[x] = func(i int) *arrowgpu.Column { return dt.cols[o][i] }
	}
	for ci, bc := range j.Cols {
		o := buildCacheCol(sc, proj, bc)
		if wantCol[ci] || late[ci] {
			srcs[nk+2*ci] = func(i int) *arrowgpu.Column { return dt.cols[o][i] }
		}
		if d := wantCodes[ci]; d != nil {
			srcs[nk+2*ci+1] = func(i int) *arrowgpu.Column { return d.codes[i] }
		}
	}
	defer func() {
		for _, ps := range pieces {
			for _, p := range ps {
				p.Free()
			}
		}
	}()
	rows := 0
	for i, ch := range dt.chunks {
		chunk := make([]*arrowgpu.Column, len(srcs))
		for x, src := range srcs {
			if src != nil {
				chunk[x] = src(i)
			}
		}
		m := ch.rows
		if fused == nil { // the whole chunk: a copy by Concat below
			for x, col := range chunk {
				if col != nil {
					chunk[x] = col.Borrow()
				}
			}
		} else {
			view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, len(sc.Columns))}
			for p, o := range sc.Columns {
				view.Cols[p] = dt.cols[o][i]
			}
			if chunk, m, err = filterColumns(q, fused, view, chunk); err != nil {
				return nil, err
			}
		}
		if m == 0 {
			continue
		}
		for x, col := range chunk {
			if col != nil {
				pieces[x] = append(pieces[x], col)
			}
		}
		rows += m
	}
	gs.state(c).rowsIn.Add(int64(rows))
	// one makes column x one column (of type t: an empty build side's
	// columns are still read, as NULLs, by a left join).
	one := func(x int, t arrow.DataType) (*arrowgpu.Column, error) {
		if len(pieces[x]) == 0 {
			return &arrowgpu.Column{Type: t, Len: 0}, nil
		}
		return q.Concat(pieces[x])
	}
	fieldType := func(out int) arrow.DataType { return sc.Out.Field(buildScanCol(proj, out)).Type }
	db := &devBuild{dicts: map[int]*devDict{}, cols: make([]*arrowgpu.Column, len(j.Cols)), codes: make([]*arrowgpu.Column, len(j.Cols))}
	fail := func(err error) (*devBuild, error) {
		db.free()
		return nil, err
	}
	err = db.buildTable(q, rows, nk, j.NullAware, func(x int) (*arrowgpu.Column, error) { return one(x, fieldType(j.BuildKeys[x])) })
	if err != nil {
		return fail(err)
	}
	if slices.Contains(late, true) && !db.table.Unique {
		db.free()
		return nil, nil // grouped by strings after all: the host dictionary
	}
	var rowNums *arrowgpu.Column // rowNumbers'
	for ci, bc := range j.Cols {
		if srcs[nk+2*ci] != nil {
			col, err := one(nk+2*ci, fieldType(bc))
			if err != nil {
				return fail(err)
			}
			if wantCol[ci] {
				db.cols[ci] = col
			}
			if late[ci] {
				db.dicts[ci] = &devDict{dev: col, devOwned: !wantCol[ci]}
				if db.codes[ci], err = rowNumbers(q, rows, &rowNums); err != nil {
					return fail(err)
				}
				a.state(c).joins[k].lateKeys.Add(1)
			}
		}
		if d := wantCodes[ci]; d != nil {
			if db.codes[ci], err = one(nk+2*ci+1, arrow.PrimitiveTypes.Int32); err != nil {
				return fail(err)
			}
			d.values.Retain()
			db.dicts[ci] = &devDict{values: d.values}
		}
	}
	return db, nil
}

// filterColumns returns the rows of cols (columns of view's rows, nil
// entries skipped) where fused, a predicate over view, holds, gathered
// in one trip to the device (Queue.Filter), and how many; none when no
// row does.
func filterColumns(q *arrowgpu.Queue, fused *arrowgpu.Fused, view *arrowgpu.Batch, cols []*arrowgpu.Column) ([]*arrowgpu.Column, int, error) {
	w := len(view.Cols)
	both := &arrowgpu.Batch{Len: view.Len, Cols: append(slices.Clone(view.Cols), cols...)}
	need := make([]bool, len(both.Cols))
	for x := range cols {
		need[w+x] = true
	}
	kept, err := q.Filter(fused, both, need)
	if err != nil || kept.Len == 0 {
		return nil, 0, err
	}
	return kept.Cols[w:], kept.Len, nil
}

// dictEncode returns the distinct strings of arrs (with NULL kept as NULL
// codes) and each row's code.
func dictEncode(c *exec.Context, arrs []arrow.Array) (*devDict, arrow.Array, error) {
	n := 0
	for _, a := range arrs {
		n += a.Len()
	}
	vb := array.NewStringBuilder(c.Alloc)
	defer vb.Release()
	cb := array.NewInt32Builder(c.Alloc)
	defer cb.Release()
	cb.Reserve(n)
	// Sized up front (at most for 128K values: a column of few values
	// over many rows would not use it): growing the map took a third of
	// the time for SF10's 100,000 distinct supplier names (13 ms).
	codes := make(map[string]int32, min(n, 1<<17))
	for _, a := range arrs {
		s, ok := a.(*array.String)
		if !ok {
			return nil, nil, errs.New(errs.Unsupported, "GPU join: dictionary of %s", a.DataType())
		}
		for r := range s.Len() {
			if s.IsNull(r) {
				cb.AppendNull()
				continue
			}
			v := s.Value(r)
			code, ok := codes[v]
			if !ok {
				code = int32(len(codes))
				codes[v] = code
				vb.Append(v)
			}
			cb.Append(code)
		}
	}
	return &devDict{values: vb.NewStringArray()}, cb.NewArray(), nil
}

// pipelineRange runs a batch through steps from..to-1 of the pipeline
// (step 0: the scan's filter; step k+1: join k, as gpuPipeline.needAfter
// counts them) — from 0: a chunk (view: the scan's columns, and the codes
// of the scan's string keys in slots width+i) — and returns the batch the
// next step reads (every slot it needs: after the last join, the
// aggregation), what to free after it, and that step (to); nil when no
// row is left. view stays the caller's. A join without a build (deferred
// by prepareJoins) runs from its build side (fromBuild).
//
// With small > 0 it stops early, at the step it returns, once fewer than
// small rows are left and steps remain: the caller collects such batches
// of all chunks and runs the rest of the pipeline over them at once
// (joinStash) — after a selective join, each chunk's few rows paid every
// later step's fixed costs (TPC-H q18 at SF10: 150 rows a chunk after its
// IN subquery's join, 6.5 ms in each of the two joins after it, on the
// H200).
func (a *GPUAggregate) pipelineRange(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, view *arrowgpu.Batch, from, to, small int) (*arrowgpu.Batch, func(), int, error) {
	cur := view
	owned := false // whether cur's columns are ours to free
	release := func() {
		if owned {
			cur.Free()
		}
	}
	fail := func(err error) (*arrowgpu.Batch, func(), int, error) {
		release()
		return nil, nil, 0, err
	}
	// keepWith gathers the needed slots of cur by idx (m rows) into a new
	// cur, and with them, in the same trip to the device, the columns of
	// also (returned): a join's build rows.
	keepWith := func(idx arrowgpu.Buffer, m int, need []bool, also arrowgpu.GatherSet) ([]*arrowgpu.Column, error) {
		take := make([]*arrowgpu.Column, len(cur.Cols))
		for sl, col := range cur.Cols {
			if need[sl] {
				take[sl] = col
			}
		}
		got, err := q.GatherSets([]arrowgpu.GatherSet{{Cols: take, Idx: idx}, also}, m)
		if err != nil {
			return nil, err
		}
		release()
		cur, owned = &arrowgpu.Batch{Len: m, Cols: got[0]}, true
		return got[1], nil
	}
	// keep gathers the needed slots of cur by idx (m rows) into a new cur.
	keep := func(idx arrowgpu.Buffer, m int, need []bool) error {
		_, err := keepWith(idx, m, need, arrowgpu.GatherSet{})
		return err
	}
	// keepAll keeps every row of cur, and its needed slots: the columns
	// of a chunk's view borrowed (the join's columns then go into a
	// batch of ours), the others freed.
	keepAll := func(need []bool) {
		if !owned {
			cols := make([]*arrowgpu.Column, len(cur.Cols))
			for sl, col := range cur.Cols {
				if col != nil && sl < len(need) && need[sl] {
					cols[sl] = col.Borrow()
				}
			}
			cur, owned = &arrowgpu.Batch{Len: cur.Len, Cols: cols}, true
			return
		}
		for sl, col := range cur.Cols {
			if col != nil && (sl >= len(need) || !need[sl]) {
				col.Free()
				cur.Cols[sl] = nil
			}
		}
	}
	// filter keeps the rows of cur that f's mask keeps.
	filter := func(f *arrowgpu.Fused, need []bool) (bool, error) {
		kept, err := q.Filter(f, cur, need)
		if err != nil || kept.Len == 0 {
			return false, err
		}
		release()
		cur, owned = kept, true
		return true, nil
	}
	if p.scanFilter != nil && from == 0 && to > 0 {
		ok, err := filter(p.scanFilter, p.needAfter[0])
		if err != nil || !ok {
			return fail(err)
		}
		if small > 0 && cur.Len < small && 1 < to {
			return cur, release, 1, nil
		}
	}
	from = max(from, 1)
	// match runs join k's matching (first: the pipeline column of its
	// first build column) over cur; false when no row is left.
	match := func(k, first int) (bool, error) {
		j := a.stages.Join(k)
		b := p.builds[k]
		if b == nil {
			return a.fromBuild(c, q, p, k, first, cur, keep)
		}
		if j.NullAware && b.allRows > 0 {
			// NOT IN a set with a NULL keeps nothing; otherwise no
			// row with a NULL key is kept.
			if b.nullKeys {
				return false, nil
			}
			if ok, err := filter(p.notNull[k], p.needAfter[k]); err != nil || !ok {
				return false, err
			}
		}
		keys := make([]*arrowgpu.Column, len(j.ProbeKeys))
		for i, pk := range j.ProbeKeys {
			keys[i] = cur.Cols[pk]
		}
		if p.ons[k] != nil {
			return a.conditionalJoin(q, p, k, first, cur, keys, keep)
		}
		idx, brow, m, err := joinRows(q, b.table, keys, cur.Len, j.Type)
		if err != nil || m == 0 {
			return false, err
		}
		defer brow.Free()
		// The build's columns (and codes of string group keys) of
		// each output row, into their slots: gathered with the rows
		// kept, or alone when every row is kept once, in order.
		build := arrowgpu.GatherSet{Idx: brow, OrNull: j.Type.KeepsUnmatched()}
		var slots []int
		for ci := range j.Cols {
			if b.cols[ci] != nil {
				build.Cols, slots = append(build.Cols, b.cols[ci]), append(slots, first+ci)
			}
			for i, d := range a.dictOf {
				if d == first+ci && b.codes[ci] != nil {
					build.Cols, slots = append(build.Cols, b.codes[ci]), append(slots, p.width+i)
				}
			}
		}
		var got []*arrowgpu.Column
		if idx.Ptr != 0 {
			got, err = keepWith(idx, m, p.needAfter[k+1], build)
			idx.Free()
		} else {
			keepAll(p.needAfter[k+1])
			got, err = q.GatherMany(build.Cols, brow, m, build.OrNull)
		}
		if err != nil {
			return false, err
		}
		for x, sl := range slots {
			cur.Cols[sl] = got[x]
		}
		return true, nil
	}
	// join runs join k: its matching, then its filter.
	join := func(k, first int) (bool, error) {
		if ok, err := match(k, first); err != nil || !ok {
			return false, err
		}
		if p.filters[k] != nil {
			return filter(p.filters[k], p.needAfter[k+1])
		}
		return true, nil
	}
	first := a.firstCol(from - 1)
	stats := a.state(c).joins
	for k := from - 1; k < to-1; k++ {
		st := &stats[k]
		st.in.Add(int64(cur.Len))
		st.batches.Add(1)
		t0 := time.Now()
		if ok, err := join(k, first); err != nil || !ok {
			return fail(err)
		}
		first += len(a.stages.Join(k).Cols)
		st.out.Add(int64(cur.Len))
		st.ns.Add(int64(time.Since(t0)))
		if small > 0 && cur.Len < small && k+2 < to {
			return cur, release, k + 2, nil // few rows left: the caller runs the rest at once
		}
	}
	return cur, release, to, nil
}

// conditionalJoin runs join k, a semi or anti join with a condition On:
// every matching pair is written out, On evaluated on the pairs (cur's
// columns gathered by the pairs' probe rows, the build's by their build
// rows), and the rows of cur with a passing pair (anti: without one) are
// kept. false when no row is left.
func (a *GPUAggregate) conditionalJoin(q *arrowgpu.Queue, p *gpuPipeline, k, first int, cur *arrowgpu.Batch, keys []*arrowgpu.Column,
	keep func(arrowgpu.Buffer, int, []bool) error) (bool, error) {
	j := a.stages.Join(k)
	b := p.builds[k]
	pi, bi, m, err := b.table.Expand(q, keys, cur.Len, false)
	if err != nil {
		return false, err
	}
	defer pi.Free()
	defer bi.Free()
	pass := &arrowgpu.Column{Type: arrow.FixedWidthTypes.Boolean}
	if m > 0 {
		// The condition's columns of each pair: the probe side's by the
		// pair's probe row, the build's by its build row.
		probeCols, buildCols := make([]*arrowgpu.Column, len(cur.Cols)), make([]*arrowgpu.Column, len(cur.Cols))
		for _, sl := range exec.ExprColumns(j.On, nil) {
			if sl >= first {
				buildCols[sl] = b.cols[sl-first]
			} else {
				probeCols[sl] = cur.Cols[sl]
			}
		}
		pairs, err := onPairs(q, probeCols, buildCols, pi, bi, m)
		if err != nil {
			return false, err
		}
		defer pairs.Free()
		if _, pass, err = q.RunFused(p.ons[k], pairs); err != nil {
			return false, err
		}
		defer pass.Free()
	}
	rows, err := q.MarkRows(pi, pass, m, cur.Len, j.Type == expr.JoinAnti)
	if err != nil {
		return false, err
	}
	idx, n, err := q.Select(rows)
	rows.Free()
	if err != nil || n == 0 {
		return false, err
	}
	defer idx.Free()
	return true, keep(idx, n, p.needAfter[k+1])
}

// joinRows joins n rows (their keys) with a build table: for each output
// row, the row it comes from (idx; none when every row is kept once, in
// order) and its build row (brow: -1 for a left join's row without a
// match; none for semi and anti joins), m of them.
func joinRows(q *arrowgpu.Queue, t *arrowgpu.JoinTable, keys []*arrowgpu.Column, n int, typ exec.JoinType) (idx, brow arrowgpu.Buffer, m int, err error) {
	switch {
	case typ == expr.JoinSemi || typ == expr.JoinAnti:
		idx, m, err = t.MatchRows(q, keys, n, typ == expr.JoinAnti)
		return idx, brow, m, err
	case !t.Unique:
		if typ == expr.JoinSingle { // prepareJoins turned this down
			return idx, brow, 0, errs.New(errs.Internal, "GPU join: a single join's build keys repeat")
		}
		return t.Expand(q, keys, n, typ == expr.JoinLeft)
	}
	return t.Lookup(q, keys, n, typ.KeepsUnmatched())
}
