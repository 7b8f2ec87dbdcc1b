package gpuexec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	gqmem "gq/memory"
)

// The grace aggregation: a GPUAggregate whose table of groups does not fit
// in device memory beside the chunks streaming through runs on the device
// in two passes instead of falling back to the CPU.
//
// The first pass runs the chunks through the pipeline into a table small
// enough to fit (a quarter of the device memory left), a chunk of more
// rows than half the table in pieces. Before a piece could take the table
// past half full — each of its rows might be a new group — the table's groups,
// partial aggregates, come back to host memory grouped by a hash of the
// keys into graceParts partitions (the exchange's hash: arrowgpu
// GroupPartition), and an empty table takes its place. Those rows are
// host arrays from the context's allocator, so the memory manager
// accounts them. String keys stay dictionary codes throughout; the codes
// of a column are fixed for the run, so they group as the strings do.
//
// The second pass merges the partitions on the device with the same kind
// of kernel: keys the partial rows' keys, a sum for a sum or a count, a
// min for a min, a max for a max. A group's partial rows all land in one
// partition, so each partition's merged groups are final, and Having, the
// top-N and the exchange's partition apply to them as to the one table's.
// Consecutive partitions are merged together while their rows fit the
// merge budget; a merge the device has no room for is split in two and
// retried, down to one partition, past which the error is the caller's
// (its CPU fallback).
//
// An aggregation over the groups (Outer) needs every inner group of an
// outer group in one table: the partial rows are then hashed by the inner
// keys that are outer keys (TPC-H q16's p_size), and Outer runs over each
// merged partition's table. When no outer key is an inner key the hash
// can take (q13 groups by a count), it falls back.

// graceParts is how many partitions the partial rows are hashed into.
const graceParts = 256

// graceMinSlots is the smallest first-pass table.
const graceMinSlots = 1 << 10

// graceRun is a grace aggregation's figures in one run (EXPLAIN ANALYZE).
type graceRun struct {
	ran                   atomic.Bool
	merges, flushes       atomic.Int64
	partialRows, hostByte atomic.Int64
	upBytes               atomic.Int64
	groups                atomic.Int64 // merged groups, all partitions
	spilledParts          atomic.Int64 // partitions read back from disk
	reason                atomic.Value // string: why it ran
}

// graceKey keys a GPUAggregate's graceRun in the run's states (RunState
// keys by node; aggRun already has the aggregation's own).
type graceKey struct{ *GPUAggregate }

func (a *GPUAggregate) graceState(c *exec.Context) *graceRun {
	return exec.RunState[graceRun](c, graceKey{a})
}

// graceable reports whether a run that failed with err may be retried as
// a grace aggregation: it ran out of device memory (or of table slots),
// the aggregation can run as one (canGrace), and its table may be what
// did not fit: it had more than a sixteenth of the device limit's worth
// of groups when it last ran, or it never ran. (A run whose build sides
// do not fit beside a small table fails the same way again.)
func (a *GPUAggregate) graceable(err error) bool {
	if err == nil || !errors.Is(err, errs.ResourcesExhausted) || !a.canGrace() {
		return false
	}
	g := a.stages.Scan().GPU
	groups := g.groupsHint(a.kernel.Name + "|" + a.stages.Scan().CPU.Table.Name())
	return groups == 0 || int64(pow2Slots(groups))*slotBytes(a.kernel) > g.deviceLimit()/16
}

// canGrace reports whether the aggregation can run as a grace one: it has
// keys, and under an outer aggregation some outer key is an inner key the
// partitions can hash by, and no top-N.
func (a *GPUAggregate) canGrace() bool {
	return len(a.stages.Keys()) > 0 && (a.stages.Outer() == nil || a.stages.TopN().N == 0 && len(a.gracePartKeys()) > 0)
}

// whyNoGrace names what keeps the aggregation from running as a grace
// one (canGrace false).
func (a *GPUAggregate) whyNoGrace() string {
	switch {
	case len(a.stages.Keys()) == 0:
		return "no group keys"
	case a.stages.TopN().N > 0:
		return "a top-N over an aggregation of its groups"
	}
	return "an aggregation of its groups by none of its keys that the partitions can hash (only strings or aggregates)"
}

// gracePartKeys are the keys the partial rows are hashed by: those not
// read as dictionary codes (a code's string hashes through its
// dictionary, which a streamed column lacks until the end) and of a type
// the hash takes; under Outer, only those that are outer keys.
func (a *GPUAggregate) gracePartKeys() []int {
	var ks []int
	for i, k := range a.stages.Keys() {
		t := k.DataType()
		if a.dictOf[i] >= 0 || t.ID() == arrow.STRING || !arrowgpu.PartitionKeyType(t) {
			continue
		}
		if a.stages.Outer() != nil && !slices.Contains(a.stages.Outer().Keys, i) {
			continue
		}
		ks = append(ks, i)
	}
	return ks
}

// graceStats is the grace aggregation's line in EXPLAIN ANALYZE, or
// nothing when it did not run.
func (a *GPUAggregate) graceStats(c *exec.Context) []exec.Stat {
	gr := a.graceState(c)
	if !gr.ran.Load() {
		return nil
	}
	why, _ := gr.reason.Load().(string)
	return []exec.Stat{{Name: "grace", Unit: "text", Text: fmt.Sprintf(
		"grace, %d partitions (%d flushes, %d partial rows, %s to host, %s back, %d partitions from disk; after: %s)",
		gr.merges.Load(), gr.flushes.Load(), gr.partialRows.Load(),
		gqmem.FormatBytes(gr.hostByte.Load()), gqmem.FormatBytes(gr.upBytes.Load()), gr.spilledParts.Load(), why)}}
}

// graceOut is one merged partition's rows (grouped by Partition's
// partitions: offs).
type graceOut struct {
	b    arrow.RecordBatch
	offs []uint32
}

// slotBytes is the device bytes of one slot of k's table.
func slotBytes(k *arrowgpu.AggKernel) int64 {
	n := int64(4 + 8 + 8*len(k.Keys)) // state, NULL mask, keys
	for j, op := range k.Ops {
		switch {
		case op.Fn == "count" || op.Fn == "count_star":
			n += 8
		case op.Fn == "sum" && k.ArgTypes[j].ID() != arrow.FLOAT64:
			n += 24
		default:
			n += 16
		}
	}
	// Reading the groups back gathers each word once more.
	return n + n/2
}

// pow2Slots is the smallest power of two of at least 2·rows slots (a
// table stays at most half full), at least 64.
func pow2Slots(rows int) int {
	if rows < 32 {
		return 64
	}
	return 1 << bits.Len(uint(2*rows-1))
}

// partialSchema is the schema of the first pass's rows: the keys (a
// string key as its codes, widened to Int64 as the table holds them),
// then each aggregate's partial state.
func (a *GPUAggregate) partialSchema() *arrow.Schema {
	fs := make([]arrow.Field, a.Out.NumFields())
	for i := range fs {
		fs[i] = a.Out.Field(i)
		if i < len(a.dictOf) && a.dictOf[i] >= 0 {
			fs[i] = arrow.Field{Name: fs[i].Name + "#code", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
		}
	}
	return arrow.NewSchema(fs, nil)
}

// graceKernels are the first pass's kernel (a's without Having or a
// top-N: every partial group comes back) and the merge's over
// partialSchema's rows (with them), and the merge's aggregates as
// groupRows reads them (a count merged is a sum of counts).
func (a *GPUAggregate) graceKernels(ps *arrow.Schema) (first, merge *arrowgpu.AggKernel, maggs []exec.AggFunc, err error) {
	first = a.kernel
	if a.stages.Having().Pred != nil || a.stages.TopN().N > 0 {
		dev := make([]expr.Expr, len(a.stages.Keys()))
		w := a.width()
		for i, k := range a.stages.Keys() {
			dev[i] = k
			if a.dictOf[i] >= 0 {
				dev[i] = &expr.Column{Index: w + i, Type: arrow.PrimitiveTypes.Int32, Name: ps.Field(i).Name}
			}
		}
		ops := make([]arrowgpu.AggOp, len(a.stages.Aggs()))
		for j, f := range a.stages.Aggs() {
			ops[j] = arrowgpu.AggOp{Fn: f.Fn, Arg: f.Arg}
		}
		pred := a.stages.Scan().DeviceFilter
		if a.stages.NumJoins() > 0 {
			pred = nil
		}
		if first, err = arrowgpu.GenerateAgg(dev, ops, pred); err != nil {
			return nil, nil, nil, err
		}
	}
	nk := len(a.stages.Keys())
	keys := make([]expr.Expr, nk)
	for i := range keys {
		keys[i] = &expr.Column{Index: i, Type: ps.Field(i).Type, Name: ps.Field(i).Name}
	}
	ops := make([]arrowgpu.AggOp, len(a.stages.Aggs()))
	maggs = make([]exec.AggFunc, len(a.stages.Aggs()))
	for j, f := range a.stages.Aggs() {
		fn := f.Fn
		if fn == "count" || fn == "count_star" {
			fn = "sum"
		}
		arg := &expr.Column{Index: nk + j, Type: ps.Field(nk + j).Type, Name: ps.Field(nk + j).Name}
		ops[j] = arrowgpu.AggOp{Fn: fn, Arg: arg}
		maggs[j] = exec.AggFunc{Fn: fn, Arg: arg}
	}
	if merge, err = arrowgpu.GenerateAgg(keys, ops, nil); err != nil {
		return nil, nil, nil, err
	}
	if a.stages.Having().Pred != nil {
		if merge, err = merge.WithHaving(a.stages.Having().Pred, outTypes(a.Out), a.kernel.Params); err != nil {
			return nil, nil, nil, err
		}
	}
	if a.stages.TopN().N > 0 && a.stages.Outer() == nil {
		if merge, err = merge.WithTopN(a.stages.TopN().Top, outTypes(a.Out)); err != nil {
			return nil, nil, nil, err
		}
	}
	return first, merge, maggs, nil
}

// runGrace is run as a grace aggregation (see above); why names what
// made it one. It returns the merged partitions' rows: nothing is sent
// before they are all done, so that an error leaves the caller free to
// run the CPU twin.
func (a *GPUAggregate) runGrace(c *exec.Context, st *aggRun, why string, shrink int) (outs []graceOut, err error) {
	gr := a.graceState(c)
	gr.ran.Store(true)
	gr.reason.Store(why)
	defer func() {
		if err != nil {
			for _, o := range outs {
				o.b.Release()
			}
			outs = nil
		}
	}()
	start := time.Now()
	defer func() { st.devNS.Add(int64(time.Since(start))) }()
	s := a.stages.Scan()
	sc := s.CPU
	g := s.GPU
	dt, loaded, err := s.acquire(c, true)
	if err != nil {
		return nil, err
	}
	defer g.cache.releaseView(dt)
	st.toDevice.Add(loaded)
	q, err := g.queue()
	if err != nil {
		return nil, err
	}
	defer g.putQueue(q)
	// The first pass's table has a queue of its own: q is also the first
	// chunk consumer's (each), and a Queue serves one goroutine at a
	// time, while the table is made and read back, under mu, by whichever
	// consumer fills it.
	tq, err := g.queue()
	if err != nil {
		return nil, err
	}
	defer g.putQueue(tq)
	var pipe *gpuPipeline
	if a.stages.NumJoins() > 0 {
		if pipe, err = a.prepareJoins(c, a.joinGraceSkip(c)); err != nil {
			return nil, graceErr("the build sides", err)
		}
		defer pipe.free()
		if err = a.attachGrace(c, q, pipe); err != nil {
			return nil, graceErr("the build sides", err)
		}
	}
	dicts, codeCols, err := a.keyDicts(dt, pipe)
	if err != nil {
		return nil, err
	}
	ps := a.partialSchema()
	first, merge, maggs, err := a.graceKernels(ps)
	if err != nil {
		return nil, err
	}
	// What the device has left once the resident tables and build sides
	// are in: a quarter of it for the first pass's table (the chunks in
	// flight take their own), half for a merge.
	free := g.deviceLimit() - g.mem.Reserved(gqmem.Device)
	capacity := graceMinSlots
	for int64(2*capacity)*slotBytes(first) <= free/4 && capacity < gpuAggMaxSlots {
		capacity <<= 1
	}
	capacity = max(capacity>>(2*shrink), graceMinSlots)
	st.phaseNS[0].Add(int64(time.Since(start)))

	chunksStart := time.Now()
	parts := make([]gracePart, graceParts)
	for p := range parts {
		parts[p].sb = gqmem.NewSpillableBatches(c.Mem, c.Stats, ps, gracePartPriority)
	}
	defer func() {
		for p := range parts {
			parts[p].close()
		}
	}()
	// flush brings t's groups back into parts and frees t.
	flush := func(t *arrowgpu.AggTable) error {
		res, err := a.graceResult(c, tq, t)
		if err != nil {
			return err
		}
		defer res.Release()
		b, err := groupRows(c, ps, len(a.stages.Keys()), a.stages.Aggs(), res, nil)
		if err != nil {
			return err
		}
		defer b.Release()
		gr.flushes.Add(1)
		gr.partialRows.Add(b.NumRows())
		gr.hostByte.Add(gqmem.BatchBytes(b))
		for p := range graceParts {
			lo, hi := int64(res.PartOffsets[p]), int64(res.PartOffsets[p+1])
			if hi > lo {
				pb, err := compactRows(c, b, lo, hi)
				if err != nil {
					return err
				}
				parts[p].sb.Append(pb)
				parts[p].rows += int(hi - lo)
			}
		}
		return nil
	}
	var mu sync.Mutex // the table: one chunk adds to it at a time
	var t *arrowgpu.AggTable
	pending := 0 // rows added to t since it was made: a bound on its groups
	var rows atomic.Int64
	defer func() {
		if t != nil {
			t.Free()
		}
	}()
	// addPiece adds a batch of at most capacity/2 rows to t, which it
	// first brings back when the batch could fill it.
	addPiece := func(wq *arrowgpu.Queue, view *arrowgpu.Batch) error {
		if t != nil && pending+view.Len > capacity/2 {
			err := flush(t)
			t = nil
			if err != nil {
				return err
			}
		}
		if t == nil {
			var err error
			if t, err = tq.NewAggTable(first, capacity); err != nil {
				return err
			}
			pending = 0
		}
		t0 := time.Now()
		full, err := t.AddOn(wq, view)
		st.kernelNS.Add(int64(time.Since(t0)))
		if err == nil && full {
			err = errs.New(errs.ResourcesExhausted, "GPU grace aggregation: a table of %d slots full after %d rows", capacity, pending+view.Len)
		}
		if err != nil {
			t.Free()
			t = nil
			return err
		}
		pending += view.Len
		return nil
	}
	// add adds a batch, in pieces of capacity/2 rows when it has more (a
	// resident table's chunks are large): each piece's rows gathered from
	// the columns the kernel reads.
	add := func(wq *arrowgpu.Queue, view *arrowgpu.Batch) error {
		mu.Lock()
		defer mu.Unlock()
		piece := capacity / 2
		if view.Len <= piece {
			return addPiece(wq, view)
		}
		read := make([]*arrowgpu.Column, len(view.Cols))
		for _, i := range first.Inputs {
			read[i] = view.Cols[i]
		}
		idx := make([]byte, 4*piece)
		for lo := 0; lo < view.Len; lo += piece {
			m := min(piece, view.Len-lo)
			for r := range m {
				binary.LittleEndian.PutUint32(idx[4*r:], uint32(lo+r))
			}
			err := func() error {
				ib, err := wq.UploadBytes(idx[:4*m])
				if err != nil {
					return err
				}
				defer ib.Free()
				cols, err := wq.GatherMany(read, ib, m, false)
				if err != nil {
					return err
				}
				sub := &arrowgpu.Batch{Len: m, Cols: cols}
				defer sub.Free()
				return addPiece(wq, sub)
			}()
			if err != nil {
				return err
			}
		}
		return nil
	}
	end := a.stages.NumJoins() + 1
	each := func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
		view, err := a.chunkBatch(ch, dicts)
		if err != nil {
			return false, err
		}
		rows.Add(int64(ch.rows))
		release := func() {}
		if pipe != nil {
			t0 := time.Now()
			v, rel, _, err := a.pipelineRange(c, wq, pipe, view, 0, end, 0)
			st.kernelNS.Add(int64(time.Since(t0)))
			if err != nil || v == nil {
				return false, err
			}
			view, release = v, rel
		}
		defer release()
		return false, add(wq, view)
	}
	if pipe.gracePasses() { // join_grace.go
		err = a.graceChunks(c, q, pipe, dt, codeCols, dicts, &rows, func(wq *arrowgpu.Queue, v *arrowgpu.Batch) (bool, error) {
			return false, add(wq, v)
		})
	} else {
		err = dt.each(c, g, q, codeCols, each)
	}
	if err == nil && t != nil {
		err = flush(t)
		t = nil
	}
	st.phaseNS[1].Add(int64(time.Since(chunksStart)))
	if err != nil {
		return nil, graceErr("the first pass", err)
	}
	st.rowsIn.Add(rows.Load())

	groupsStart := time.Now()
	defer func() { st.phaseNS[2].Add(int64(time.Since(groupsStart))) }()
	var params []arrowgpu.Param
	if a.stages.Having().Feed != nil {
		row, err := c.FeedRun(a.stages.Having().Feed).Wait(c)
		if err != nil {
			return nil, err
		}
		params = feedParams(row)
	}
	mergeRows := max(int(free/2/slotBytes(merge)/2), graceMinSlots)
	// Consecutive partitions whose rows fit mergeRows together.
	var units [][2]int
	for p := 0; p < graceParts; {
		n, e := parts[p].rows, p+1
		for e < graceParts && n+parts[e].rows <= mergeRows {
			n += parts[e].rows
			e++
		}
		units = append(units, [2]int{p, e})
		p = e
	}
	groups0 := gr.groups.Load()
	for len(units) > 0 {
		u := units[0]
		units = units[1:]
		var bs []arrow.RecordBatch
		for p := u[0]; p < u[1]; p++ {
			pbs, err := parts[p].take(c, gr)
			if err != nil {
				return outs, graceErr("reading a partition back", err)
			}
			bs = append(bs, pbs...)
		}
		o, err := a.graceMerge(c, st, q, ps, merge, maggs, bs, params, dicts)
		if errors.Is(err, errs.ResourcesExhausted) && u[1]-u[0] > 1 {
			m := (u[0] + u[1]) / 2
			units = append([][2]int{{u[0], m}, {m, u[1]}}, units...)
			continue
		}
		if err != nil {
			return outs, graceErr("a merge", err)
		}
		gr.merges.Add(1)
		outs = append(outs, o)
		for p := u[0]; p < u[1]; p++ {
			parts[p].close()
		}
	}
	if a.stages.Outer() == nil {
		// The next run knows the table's size without failing first.
		g.setGroups(a.kernel.Name+"|"+sc.Table.Name(), int(gr.groups.Load()-groups0))
	}
	return outs, nil
}

// graceStepErr is an error saying at which step of a grace aggregation
// it happened.
type graceStepErr struct {
	step string
	err  error
}

func (e *graceStepErr) Error() string {
	return "GPU grace aggregation, " + e.step + ": " + e.err.Error()
}
func (e *graceStepErr) Unwrap() error { return e.err }

func graceErr(step string, err error) error { return &graceStepErr{step, err} }

// graceRetries is how many times a first pass that ran out of device
// memory starts again with a table a quarter the size.
const graceRetries = 2

// graceResult reads t's groups back grouped into graceParts partitions by
// gracePartKeys, and frees t. With none every group is in partition 0.
func (a *GPUAggregate) graceResult(c *exec.Context, q *arrowgpu.Queue, t *arrowgpu.AggTable) (*arrowgpu.AggResult, error) {
	defer t.Free()
	gp := &arrowgpu.GroupPartition{Parts: graceParts, Keys: a.gracePartKeys()}
	for _, i := range gp.Keys {
		gp.Double = append(gp.Double, a.stages.Keys()[i].DataType().ID() == arrow.FLOAT64)
	}
	if len(gp.Keys) == 0 {
		res, err := t.Result(c.Alloc, 0, nil)
		if err != nil {
			return nil, err
		}
		res.PartOffsets = make([]uint32, graceParts+1)
		for p := 1; p <= graceParts; p++ {
			res.PartOffsets[p] = uint32(res.Rows)
		}
		return res, nil
	}
	gp.Lookup = make([]arrowgpu.Buffer, len(gp.Keys))
	res, err := t.Result(c.Alloc, 0, gp)
	if errors.Is(err, arrowgpu.ErrSumOverflow) {
		err = exec.ErrSumOverflow
	}
	return res, err
}

// gracePartPriority is the spill priority of the partial rows (as
// exec's aggregation input partitions: reading them back is the cost).
const gracePartPriority = 0

// gracePart is one partition of the partial rows: in host memory the
// memory manager may spill to disk (sb) until taken for its merge.
type gracePart struct {
	sb    *gqmem.SpillableBatches
	rows  int
	taken []arrow.RecordBatch // once read back, kept until merged
	done  bool
}

// take is the partition's rows, read back (from disk where they spilled)
// the first time.
func (p *gracePart) take(c *exec.Context, gr *graceRun) ([]arrow.RecordBatch, error) {
	if p.done {
		return p.taken, nil
	}
	if p.sb.Spilled() > 0 {
		gr.spilledParts.Add(1)
	}
	bs, err := p.sb.Take(c.Alloc)
	p.done, p.sb, p.taken = true, nil, bs
	return bs, err
}

// close releases what the partition holds.
func (p *gracePart) close() {
	if p.sb != nil {
		p.sb.Close()
		p.sb = nil
	}
	for _, b := range p.taken {
		b.Release()
	}
	p.taken, p.done = nil, true
}

// compactRows is rows [lo, hi) of b in buffers of their own: a slice
// would hold (and be accounted for) all of b's.
func compactRows(c *exec.Context, b arrow.RecordBatch, lo, hi int64) (arrow.RecordBatch, error) {
	sl := b.NewSlice(lo, hi)
	defer sl.Release()
	cols := make([]arrow.Array, sl.NumCols())
	for i, col := range sl.Columns() {
		var err error
		if cols[i], err = array.Concatenate([]arrow.Array{col}, c.Alloc); err != nil {
			exec.ReleaseArrays(cols[:i])
			return nil, err
		}
	}
	defer exec.ReleaseArrays(cols)
	return array.NewRecordBatch(b.Schema(), cols, hi-lo), nil
}

// graceMerge uploads the partial rows of some partitions, merges them in
// a table of merge and returns their final rows.
func (a *GPUAggregate) graceMerge(c *exec.Context, st *aggRun, q *arrowgpu.Queue, ps *arrow.Schema, merge *arrowgpu.AggKernel, maggs []exec.AggFunc, bs []arrow.RecordBatch, params []arrowgpu.Param, dicts []*devDict) (graceOut, error) {
	gr := a.graceState(c)
	n := rowsOf(bs)
	b := &arrowgpu.Batch{Len: n}
	defer b.Free()
	for col := range ps.NumFields() {
		typ := ps.Field(col).Type
		arrs := make([]arrow.Array, len(bs))
		for i, r := range bs {
			arrs[i] = r.Column(col)
		}
		var dc *arrowgpu.Column
		var err error
		if typ.ID() == arrow.BOOL {
			dc, err = uploadBools(c, q, arrs)
		} else {
			dc, err = q.UploadArrays(typ, arrs)
		}
		if err != nil {
			return graceOut{}, err
		}
		b.Cols = append(b.Cols, dc)
		gr.upBytes.Add(dc.Data.Size + dc.Valid.Size)
	}
	t, err := q.NewAggTable(merge, pow2Slots(n))
	if err != nil {
		return graceOut{}, err
	}
	t0 := time.Now()
	full, err := t.Add(b)
	st.kernelNS.Add(int64(time.Since(t0)))
	if err == nil && full {
		err = errs.New(errs.ResourcesExhausted, "GPU grace aggregation: a merge table full after %d rows", n)
	}
	if err != nil {
		t.Free()
		return graceOut{}, err
	}
	if params != nil {
		t.SetParams(params)
	}
	if a.stages.Outer() != nil {
		// Each outer group's inner groups are all in these partitions.
		rec, offs, err := a.outerRows(c, st, q, t, dicts, a.kernel.Name+"|grace")
		t.Free()
		if errors.Is(err, arrowgpu.ErrSumOverflow) {
			err = exec.ErrSumOverflow
		}
		return graceOut{rec, offs}, err
	}
	res, err := a.readGroups(c, q, t, a.stages.TopN().N, a.Out, dicts)
	if err != nil {
		return graceOut{}, err
	}
	defer res.Release()
	st.groups.Add(int64(res.Groups))
	st.kept.Add(int64(res.Rows))
	gr.groups.Add(int64(res.Groups))
	hd, release, err := hostStrings(c, q, res.Keys, res.KeyNulls, dicts)
	if err != nil {
		return graceOut{}, err
	}
	defer release()
	rec, err := groupRows(c, a.Out, len(a.stages.Keys()), maggs, res, hd)
	if err != nil {
		return graceOut{}, err
	}
	return graceOut{rec, res.PartOffsets}, nil
}

// uploadBools uploads Boolean arrays as one device column (UploadArrays
// does not take bits).
func uploadBools(c *exec.Context, q *arrowgpu.Queue, arrs []arrow.Array) (*arrowgpu.Column, error) {
	cat, err := array.Concatenate(arrs, c.Alloc)
	if err != nil {
		return nil, err
	}
	defer cat.Release()
	return q.UploadArray(cat)
}

// rowsOf is the rows of bs together.
func rowsOf(bs []arrow.RecordBatch) int {
	n := 0
	for _, b := range bs {
		n += int(b.NumRows())
	}
	return n
}

// runOrGrace runs the aggregation: as a grace aggregation from the start
// when its table, as large as when it last ran, would pass the device
// memory left (graceBefore), else as one table, retried as a grace
// aggregation when that runs out of device memory.
func (a *GPUAggregate) runOrGrace(c *exec.Context, st *aggRun) ([]graceOut, error) {
	defer a.closeJoinGrace(c)
	why := a.graceBefore()
	if why == "" {
		var b arrow.RecordBatch
		var offs []uint32
		err := a.joinGraced(c, nil, func() (err error) { // join_grace.go
			b, offs, err = a.run(c, st)
			return err
		})
		if err == nil {
			return []graceOut{{b, offs}}, nil
		}
		if errors.Is(err, errs.ResourcesExhausted) && !a.canGrace() {
			return nil, fmt.Errorf("%w (no grace aggregation: %s)", err, a.whyNoGrace())
		}
		if !a.graceable(err) || c.Err() != nil {
			return nil, err
		}
		why = err.Error()
	}
	for shrink := 0; ; shrink++ {
		var outs []graceOut
		err := a.joinGraced(c, nil, func() (err error) {
			outs, err = a.runGrace(c, st, why, shrink)
			return err
		})
		var se *graceStepErr
		if shrink == graceRetries || !errors.Is(err, errs.ResourcesExhausted) || !errors.As(err, &se) || se.step != "the first pass" || c.Err() != nil {
			return outs, err
		}
	}
}

// graceBefore says why the aggregation should start as a grace one: the
// table its groups took when it last ran passes half the device memory
// left; "" when it should not or nothing is known.
func (a *GPUAggregate) graceBefore() string {
	g := a.stages.Scan().GPU
	if !a.canGrace() || g.Wait() != nil || g.mem == nil {
		return ""
	}
	groups := g.groupsHint(a.kernel.Name + "|" + a.stages.Scan().CPU.Table.Name())
	if groups == 0 {
		return ""
	}
	need := int64(pow2Slots(groups)) * slotBytes(a.kernel)
	free := g.deviceLimit() - g.mem.Reserved(gqmem.Device)
	if need <= free/2 {
		return ""
	}
	return fmt.Sprintf("a table of %d groups, %s, past half the %s of device memory left", groups, gqmem.FormatBytes(need), gqmem.FormatBytes(free))
}
