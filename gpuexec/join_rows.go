package gpuexec

import (
	"cmp"
	"slices"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// GPUJoinRows is a join pipeline that emits rows: a scan and hash joins
// whose probe sides lead down to it (as a GPUAggregate runs them, minus
// the aggregation), for joins with no aggregation above them (TPC-H q02's
// and q20's, a query's joins under a top-N or a window). Per chunk of the
// scan the device filters the rows, runs the joins, evaluates Exprs (in
// one fused kernel, unless they are bare columns) and only the output rows
// come back — in order under a sort (SortStage), which a pipeline of no
// joins (a scan's rows) is for.
//
// Its pipeline (stage.go) is the scan, the joins with their build
// sides, the row output (RowsStage: Exprs over the pipeline columns), and
// at most one of a top-N, a sort and a partition (the With* functions). A
// GPUAggregate with that pipeline runs it (pipe: the joins run as under
// an aggregation; RowsStage's Exprs stand for the keys, no aggregates).
// CPU is the same joins on the CPU (the fallback, taken only before the
// first row went out). Build sides that do not fit in device memory make
// it a grace join (join_grace.go), each pass's rows emitted as it runs.
type GPUJoinRows struct {
	pipe *GPUAggregate
	Out  *arrow.Schema
	CPU  exec.Node

	fused   *arrowgpu.Fused // Exprs, unless all are bare columns
	cpuSort []exec.SortKey  // the sort's keys on the CPU (few rows: sortOnCPU)
}

// Pipeline is r's stages (a copy of the list: r's own is not changed).
func (r *GPUJoinRows) Pipeline() Pipeline { return r.pipe.Pipeline() }

// Exprs are the row output's expressions, over the pipeline columns.
func (r *GPUJoinRows) Exprs() []expr.Expr { return r.pipe.stages.Keys() }

// joinRowsRun is a GPUJoinRows' figures in one run (exec.RunState); its
// pipeline's are its pipe's (aggRun).
type joinRowsRun struct {
	onCPU         atomic.Bool
	toHost, devNS atomic.Int64
}

// state is r's state in c's run.
func (r *GPUJoinRows) state(c *exec.Context) *joinRowsRun {
	return exec.RunState[joinRowsRun](c, r)
}

// NewGPUJoinRows returns the node running p, a pipeline of a scan, joins
// and a row output (RowsStage; the stages after it come by the With*
// functions), whose rows are out (cpu: the same on the CPU, for a
// fallback); an errs.Unsupported error says what the device lacks.
func NewGPUJoinRows(p Pipeline, out *arrow.Schema, cpu exec.Node) (*GPUJoinRows, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	rows, ok := p.last().(RowsStage)
	if !ok {
		return nil, errs.New(errs.Unsupported, "GPU joins: a pipeline ending in %s", aName(p.last()))
	}
	if scan := p.Scan(); scan.HostFilter != nil {
		return nil, errs.New(errs.Unsupported, "GPU joins: a filter the device lacks (%s)", scan.HostFilter)
	}
	pipe := &GPUAggregate{stages: p}
	for range rows.Exprs {
		pipe.dictOf = append(pipe.dictOf, -1)
	}
	if err := checkJoinFilters(p); err != nil {
		return nil, err
	}
	r := &GPUJoinRows{pipe: pipe, Out: out, CPU: cpu}
	for _, e := range rows.Exprs {
		if _, ok := e.(*expr.Column); !ok {
			var err error
			if r.fused, err = arrowgpu.GenerateFused(rows.Exprs, nil); err != nil {
				return nil, err
			}
			break
		}
	}
	return r, nil
}

// with is r with stages as its pipeline.
func (r *GPUJoinRows) with(stages Pipeline) *GPUJoinRows {
	cp := r.clone()
	cp.pipe = r.pipe.clone()
	cp.pipe.stages = stages
	return cp
}

// WithTopN is r with each chunk bringing back only its rows that a top-n
// by output column top.Col can keep (a TopNStage; arrowgpu Queue.TopRows:
// those at least as good as the chunk's n-th best — a superset of the
// whole output's top n — NULLs placed as top says, NaNs always). An
// errs.Unsupported error for a column without a device order, or rows
// already ordered or partitioned. r is unchanged.
func (r *GPUJoinRows) WithTopN(top arrowgpu.OrderKey, n int) (*GPUJoinRows, error) {
	switch r.Out.Field(top.Col).Type.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.FLOAT64:
	default:
		return nil, errs.New(errs.Unsupported, "GPU joins: a top-N by %s", r.Out.Field(top.Col).Type)
	}
	stages, err := r.pipe.stages.With(TopNStage{Top: top, N: n})
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, errs.New(errs.Unsupported, "GPU joins: a top-N of %d rows", n)
	}
	return r.with(stages), nil
}

// WithPartition is r with each chunk's rows coming back grouped by p, a
// hash exchange's partitioning of output columns (a PartitionStage); an
// errs.Unsupported error for a key the device cannot hash or rows already
// ordered. r is unchanged.
func (r *GPUJoinRows) WithPartition(p *DevicePartition) (*GPUJoinRows, error) {
	stages, err := r.pipe.stages.With(PartitionStage{Partition: p})
	if err != nil {
		return nil, err
	}
	for _, k := range p.Keys {
		if !arrowgpu.PartitionKeyType(r.Out.Field(k).Type) {
			return nil, errs.New(errs.Unsupported, "GPU joins: partitioning by %s", r.Out.Field(k).Type)
		}
	}
	return r.with(stages), nil
}

// WithSort is r with the device ordering the output by keys (a SortStage;
// output columns, the same order as cpuKeys, over the output's columns,
// for the CPU twin). An errs.Unsupported error for a key without a device
// order or rows already ordered or partitioned. r is unchanged.
func (r *GPUJoinRows) WithSort(keys []arrowgpu.OrderKey, cpuKeys []exec.SortKey) (*GPUJoinRows, error) {
	for _, k := range keys {
		if t := r.Out.Field(k.Col).Type; !arrowgpu.SortKeyType(t) {
			return nil, errs.New(errs.Unsupported, "GPU sort by %s", t)
		}
	}
	stages, err := r.pipe.stages.With(SortStage{Keys: keys})
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, errs.New(errs.Unsupported, "GPU joins: a sort by no key")
	}
	cp := r.with(stages)
	cp.cpuSort = cpuKeys
	cp.CPU = &exec.Sort{Input: r.CPU, Keys: cpuKeys, Limit: -1}
	return cp, nil
}

func (r *GPUJoinRows) Schema() *arrow.Schema { return r.Out }
func (r *GPUJoinRows) Children() []exec.Node { return r.pipe.pipeInputs() }
func (r *GPUJoinRows) Explain() string       { return "GPUJoinRows" }

// RunDevice is where the run of c joined (EXPLAIN ANALYZE).
func (r *GPUJoinRows) RunDevice(c *exec.Context) string {
	if r.state(c).onCPU.Load() {
		return "CPU (fallback)"
	}
	return "GPU"
}

// RunStats reports the rows the scan fed the joins in the run of c, bytes
// brought back, the time on the device and the joins' figures.
func (r *GPUJoinRows) RunStats(c *exec.Context) []exec.Stat {
	st, a := r.state(c), r.pipe.state(c)
	return append([]exec.Stat{
		{Name: "device rows", Value: a.rowsIn.Load()},
		{Name: "to device", Value: a.toDevice.Load(), Unit: "bytes"},
		{Name: "to host", Value: st.toHost.Load(), Unit: "bytes"},
		{Name: "device time", Unit: "text", Text: time.Duration(st.devNS.Load()).Round(time.Microsecond).String()},
		{Name: "device calls", Value: a.calls.Load()},
		{Name: "phases", Unit: "text", Text: phasesText(a.phaseNS[:], "set-up", "chunks", "sort")},
		{Name: "joins", Unit: "text", Text: a.joinsText()},
	}, r.pipe.joinGraceStats(c)...)
}

func (r *GPUJoinRows) Open(c *exec.Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	s := r.pipe.stages.Scan()
	st := r.state(c)
	c.Go(func() error {
		defer close(out)
		defer r.pipe.closeJoinGrace(c)
		var sent bool
		err := r.pipe.joinGraced(c, r.pipe.fromBuildCandidates(), func() (err error) { // join_grace.go
			if sent, err = r.run(c, st, out); sent && err != nil {
				err = &rowsSentErr{err}
			}
			return err
		})
		s.GPU.noteErr(err)
		if err != nil && !sent && gpuFallback(err) && c.Err() == nil {
			what := "GPU joins over "
			if r.pipe.stages.NumJoins() == 0 {
				what = "GPU sort of "
			}
			return s.runOnCPU(c, what+s.CPU.Table.Name(), err, r.CPU, &st.onCPU, out)
		}
		return err
	})
	return out
}

// run sends the output rows chunk by chunk, up to gpuStreams chunks at
// once; sent reports whether any went.
func (r *GPUJoinRows) run(c *exec.Context, st *joinRowsRun, out chan<- arrow.RecordBatch) (sent bool, err error) {
	a := r.pipe
	ast := a.state(c)
	s := a.stages.Scan()
	g := s.GPU
	start, calls := time.Now(), g.Calls()
	defer func() {
		st.devNS.Add(int64(time.Since(start)))
		ast.calls.Add(g.Calls() - calls)
	}()
	// The probe side streams when it does not fit the budget for
	// resident tables — but under a sort, whose chunks' outputs wait on
	// the device in chunk order.
	sorting := len(r.pipe.stages.Sort()) > 0
	dt, loaded, err := s.acquire(c, !sorting)
	if err != nil {
		return false, err
	}
	defer g.cache.releaseView(dt)
	ast.toDevice.Add(loaded)
	q, err := g.queue()
	if err != nil {
		return false, err
	}
	defer g.putQueue(q)
	// deferred: the joins that may run from their build side, the first
	// at r (from_build.go).
	// A streamed chunk is freed once done: none may stop early and wait
	// in the stash, whose batches can borrow its columns.
	// Nor under a grace join (join_grace.go), whose passes each run
	// every chunk.
	deferred, small := a.fromBuildCandidates(), stashSmall
	skip := a.joinGraceSkip(c)
	if dt.stream != nil || skip != nil {
		deferred, small = nil, 0
	}
	rj := slices.Index(deferred, true)
	build := deferred // the joins built now: not deferred, nor a grace join's
	if skip != nil {
		build = skip
	}
	pipe, err := a.prepareJoins(c, build)
	if err != nil {
		return false, err
	}
	defer pipe.free()
	if err = a.attachGrace(c, q, pipe); err != nil {
		return false, err
	}
	ast.phaseNS[0].Add(int64(time.Since(start)))
	chunksStart := time.Now()
	w := a.width()
	var anySent atomic.Bool
	// Under a sort, each chunk's output columns (sorted[i]) wait on the
	// device for the others.
	var sorted [][]*arrowgpu.Column
	if sorting {
		sorted = make([][]*arrowgpu.Column, len(dt.chunks))
		defer func() {
			for _, cols := range sorted {
				freeColumns(cols)
			}
		}()
	}
	// emit sends the output of cur, the pipeline's rows of chunk i (or,
	// under a sort, keeps them as sorted[i]), and releases cur.
	emit := func(wq *arrowgpu.Queue, cur *arrowgpu.Batch, release func(), i int) (bool, error) {
		cols, n, free, err := r.outputs(wq, cur, sorted != nil)
		if err == nil && sorted != nil {
			sorted[i] = cols // each worker its own chunks: no lock
			release()
			return false, nil
		}
		var b arrow.RecordBatch
		var offs []uint32
		if err == nil {
			b, offs, err = r.partitionedDownload(c, wq, cols, n)
			free()
		}
		release()
		if err != nil {
			return false, err
		}
		anySent.Store(true)
		if !sendParts(c, out, b, offs) {
			return true, c.Err()
		}
		return false, nil
	}
	// emitLate emits rows that do not come from one chunk (the stash's,
	// a grace join pass's), one goroutine at a time: under a sort, kept
	// after the chunks' outputs.
	emitLate := func(wq *arrowgpu.Queue, cur *arrowgpu.Batch) (bool, error) {
		slot := 0
		if sorted != nil {
			sorted = append(sorted, nil)
			slot = len(sorted) - 1
		}
		return emit(wq, cur, func() {}, slot)
	}
	for {
		// The pipeline's steps: the scan's filter, then each join; the
		// chunks stop before the first deferred one, or once their rows
		// are few (stash.go), and emit nothing then.
		end := a.stages.NumJoins() + 1
		stash := a.newStash(rj)
		to := cmp.Or(stash.at, end)
		var rows atomic.Int64
		if pipe.gracePasses() { // join_grace.go: passes one at a time, on q
			err = a.graceChunks(c, q, pipe, dt, nil, nil, &rows, emitLate)
		} else {
			err = dt.each(c, g, q, nil, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
				if ch.hostErr != nil {
					return false, ch.hostErr
				}
				view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, w)}
				for p, o := range s.CPU.Columns {
					view.Cols[p] = ch.col(o)
				}
				rows.Add(int64(ch.rows))
				cur, release, step, err := a.pipelineRange(c, wq, pipe, view, 0, to, small)
				if err != nil || cur == nil {
					return false, err
				}
				if step < end {
					return stash.add(step, cur, release), nil
				}
				return emit(wq, cur, release, ch.i)
			})
		}
		if err == nil && stash.over {
			// Too many rows reach the first deferred join for it to run
			// from its build side (and nothing was sent): build them all
			// and run the chunks again.
			if err = a.buildDeferred(c, pipe, deferred); err == nil {
				stash.free()
				rj = -1
				continue
			}
		}
		if err == nil {
			err = stash.run(c, q, a, pipe, deferred, end, func(cur *arrowgpu.Batch) error {
				_, err := emitLate(q, cur)
				return err
			})
		}
		stash.free()
		ast.rowsIn.Add(rows.Load())
		break
	}
	ast.phaseNS[1].Add(int64(time.Since(chunksStart)))
	if err != nil || sorted == nil {
		return anySent.Load(), err
	}
	sortStart := time.Now()
	defer func() { ast.phaseNS[2].Add(int64(time.Since(sortStart))) }()
	return r.sortRows(c, q, sorted, out)
}

// outputs evaluates the output columns over cur (the pipeline's batch),
// for a top-N only the rows it may keep; free frees what they hold. With
// own, they are the caller's to free (free does nothing): copies of cur's
// columns the output reads bare.
func (r *GPUJoinRows) outputs(q *arrowgpu.Queue, cur *arrowgpu.Batch, own bool) (cols []*arrowgpu.Column, n int, free func(), err error) {
	cols = make([]*arrowgpu.Column, len(r.Exprs()))
	var held []*arrowgpu.Column
	free = func() { freeColumns(held) }
	if r.fused != nil {
		outs, _, err := q.RunFused(r.fused, cur)
		if err != nil {
			return nil, 0, nil, err
		}
		copy(cols, outs)
		held = outs
	} else {
		for k, e := range r.Exprs() {
			cols[k] = cur.Cols[e.(*expr.Column).Index]
			if own {
				if cols[k], err = q.Concat([]*arrowgpu.Column{cols[k]}); err != nil {
					freeColumns(held)
					return nil, 0, nil, err
				}
				held = append(held, cols[k])
			}
		}
	}
	n = cur.Len
	if top := r.pipe.stages.TopN(); top.N > 0 && n > top.N {
		idx, m, err := q.TopRows(cols[top.Top.Col], top.Top.Desc, top.Top.NullsFirst, top.N)
		if err != nil {
			free()
			return nil, 0, nil, err
		}
		if idx.Ptr != 0 { // else every row
			top, err := q.GatherMany(cols, idx, m, false)
			idx.Free()
			free()
			if err != nil {
				return nil, 0, nil, err
			}
			cols, n, held = top, m, top
		}
	}
	if own {
		return cols, n, func() {}, nil
	}
	return cols, n, free, nil
}

// sortRows puts the chunks' output columns together, in chunk order,
// orders the rows by the sort stage's keys and sends them, a batch at a
// time gathered in order and brought to the host (so neither memory holds
// a second copy of them all); sent reports whether any went. It frees the
// chunks' columns.
func (r *GPUJoinRows) sortRows(c *exec.Context, q *arrowgpu.Queue, chunks [][]*arrowgpu.Column, out chan<- arrow.RecordBatch) (sent bool, err error) {
	n := 0
	for _, cols := range chunks {
		if cols != nil {
			n += cols[0].Len
		}
	}
	if n < GPUSortMinRows {
		return r.sortOnCPU(c, q, chunks, r.cpuSort, out)
	}
	all := make([]*arrowgpu.Column, len(r.Exprs()))
	defer freeColumns(all)
	for k := range all {
		var parts []*arrowgpu.Column
		for _, cols := range chunks {
			if cols != nil {
				parts = append(parts, cols[k])
			}
		}
		if len(parts) == 0 {
			return false, nil
		}
		if all[k], err = q.Concat(parts); err != nil {
			return false, err
		}
	}
	for i, cols := range chunks {
		freeColumns(cols)
		chunks[i] = nil
	}
	return sendSorted(c, q, all, r.pipe.stages.Sort(), r.Out, out, &r.state(c).toHost)
}

// sortOnCPU brings the chunks' few rows back as they are and has the CPU
// order them by keys, as GPUSort leaves few rows to it: the device's
// sort costs some twenty round trips (TPC-H q15's one row of supplier: a
// concatenation, a sort and a gather of each column), these one download
// a chunk that has rows.
func (r *GPUJoinRows) sortOnCPU(c *exec.Context, q *arrowgpu.Queue, chunks [][]*arrowgpu.Column, keys []exec.SortKey, out chan<- arrow.RecordBatch) (bool, error) {
	var batches []arrow.RecordBatch
	for i, cols := range chunks {
		if cols != nil && cols[0].Len > 0 {
			b, err := r.download(c, q, cols, cols[0].Len)
			if err != nil {
				exec.ReleaseBatches(batches)
				return false, err
			}
			batches = append(batches, b)
		}
		freeColumns(cols)
		chunks[i] = nil
	}
	if len(batches) == 0 {
		return false, nil
	}
	return true, sortOnHost(c, r.Out, batches, keys, out)
}

// sendSorted orders the rows of all (device columns of out's types) by
// keys and sends them, a batch at a time gathered in order and brought to
// the host (so neither memory holds a second copy of them all), adding
// the bytes moved to toHost; sent reports whether any went.
func sendSorted(c *exec.Context, q *arrowgpu.Queue, all []*arrowgpu.Column, keys []arrowgpu.OrderKey, schema *arrow.Schema, out chan<- arrow.RecordBatch, toHost *atomic.Int64) (sent bool, err error) {
	perm, err := q.SortPerm(all, keys)
	if err != nil {
		return false, err
	}
	defer perm.Free()
	n := all[0].Len
	for lo := 0; lo < n; lo += c.BatchSize {
		m := min(c.BatchSize, n-lo)
		idx := arrowgpu.Buffer{Ptr: perm.Ptr.Add(int64(lo) * 4), Size: int64(m) * 4} // borrowed
		rows, err := q.GatherMany(all, idx, m, false)
		if err != nil {
			return sent, err
		}
		b, err := downloadAs(c, q, rows, m, schema, toHost)
		freeColumns(rows)
		if err != nil {
			return sent, err
		}
		sent = true
		if !exec.Send(c, out, b) {
			return true, c.Err()
		}
	}
	return sent, nil
}

// partitionedDownload is download, the rows grouped by the partition
// stage's partitions first when there is one (offs: its partitions' bounds, else nil).
func (r *GPUJoinRows) partitionedDownload(c *exec.Context, q *arrowgpu.Queue, cols []*arrowgpu.Column, n int) (arrow.RecordBatch, []uint32, error) {
	part := r.pipe.stages.Partition()
	if part == nil {
		b, err := r.download(c, q, cols, n)
		return b, nil, err
	}
	keys := make([]*arrowgpu.Column, len(part.Keys))
	for i, k := range part.Keys {
		keys[i] = cols[k]
	}
	perm, offs, err := q.HashPartition(keys, arrowgpu.Buffer{}, n, part.Parts)
	if err != nil {
		return nil, nil, err
	}
	parted, err := q.GatherMany(cols, perm, n, false)
	perm.Free()
	if err != nil {
		return nil, nil, err
	}
	defer freeColumns(parted)
	b, err := r.download(c, q, parted, n)
	return b, offs, err
}

// download brings n rows of the output columns cols to the host.
func (r *GPUJoinRows) download(c *exec.Context, q *arrowgpu.Queue, cols []*arrowgpu.Column, n int) (arrow.RecordBatch, error) {
	return downloadAs(c, q, cols, n, r.Out, &r.state(c).toHost)
}

// downloadAs brings n rows of cols to the host as a batch of out, adding
// the bytes moved to toHost. (The device's types first — a cache's Int32
// dictionary codes never come here — then out's.)
func downloadAs(c *exec.Context, q *arrowgpu.Queue, cols []*arrowgpu.Column, n int, out *arrow.Schema, toHost *atomic.Int64) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(cols))
	for k, col := range cols {
		fields[k] = arrow.Field{Name: out.Field(k).Name, Type: col.Type, Nullable: true}
	}
	before := q.BytesToHost
	b, err := q.DownloadBatch(&arrowgpu.Batch{Len: n, Cols: cols, Schema: arrow.NewSchema(fields, nil)}, c.Alloc)
	toHost.Add(q.BytesToHost - before)
	if err != nil {
		return nil, err
	}
	return exec.Conform(b, out)
}
