package gpuexec

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// GPUAggregate is the aggregation of a HashAggregate over a scan — or over
// joins whose probe side is that scan (JoinStage, join.go) — run on the
// device from the table cache: per chunk (after the joins) one generated
// kernel filters the rows, evaluates the keys and arguments and adds them
// to a device hash table of groups (arrowgpu.GenerateAgg); only the groups
// come back. Its output is what the partial HashAggregate of the same
// split (physical splitAggregate) would emit — keys, then per aggregate
// its partial state — and, as the one table holds every group once, also
// the final aggregation (AggStage.Final: no CPU merge above; AvgCombine finishes
// avg). With no keys it emits one row even when no row qualifies (counts
// 0, the rest NULL), as the CPU does.
//
// String keys that are bare columns group by their dictionary codes (the
// cache encodes columns of at most maxDictValues strings; a build side's
// are encoded when it is uploaded); other string keys, and anything the
// kernel generator lacks, leave the aggregation on the CPU
// (Place, place.go). When the device cannot run it after all (a key
// column with too many distinct strings, device memory exhausted) CPU, the
// same aggregation on the CPU, runs instead.
type GPUAggregate struct {
	// stages are the pipeline it runs (stage.go): the scan (the table,
	// columns and device filter, no host filter), inner joins between the
	// scan and the aggregation (join.go) with their build sides, the
	// aggregation (AggStage: keys and partial aggregates sum, count,
	// count_star, min, max over the pipeline's columns), then what the
	// device does with the groups before they come back (HAVING, an outer
	// aggregation, a top-N, a partition: the With* functions). A
	// GPUJoinRows' pipeline ends in a row output instead (join_rows.go).
	//
	// A final aggregation (AggStage.Final) has no CPU merge above: the
	// device's one table holds each group once, and merging a group's one
	// partial row gives that row. Out is then the final aggregate's
	// schema (the partial's types) and CPU computes the final aggregation
	// (partial, then merge) for a fallback.
	stages Pipeline
	Out    *arrow.Schema
	CPU    exec.Node

	kernel *arrowgpu.AggKernel
	dictOf []int // per key: the Columns position whose codes it reads, or -1
}

// Pipeline is a's stages (a copy of the list: a's own is not changed).
func (a *GPUAggregate) Pipeline() Pipeline { return Pipeline{Stages: slices.Clone(a.stages.Stages)} }

// aggRun is a GPUAggregate's figures in one run (exec.RunState); a
// GPUJoinRows counts its pipeline's here too.
type aggRun struct {
	onCPU                                     atomic.Bool
	rowsIn, groups, toDevice, devNS, kernelNS atomic.Int64
	kept                                      atomic.Int64 // groups read back (HAVING, top-N)
	outerGroups                               atomic.Int64 // the outer aggregation's groups
	calls                                     atomic.Int64 // device round trips
	// phaseNS: the time to set up (the table in the cache, the build
	// sides), to run the chunks, and to bring the groups back (EXPLAIN
	// ANALYZE's phases: which of them a query's fixed cost is).
	phaseNS [3]atomic.Int64
	joins   []gpuJoinStats // per join (join.go)
	init    sync.Once      // makes joins
}

// state is a's state in c's run.
func (a *GPUAggregate) state(c *exec.Context) *aggRun {
	st := exec.RunState[aggRun](c, a)
	st.init.Do(func() { st.joins = make([]gpuJoinStats, a.stages.NumJoins()) })
	return st
}

// NewGPUAggregate checks that the device can run p, a pipeline of a
// scan, joins and an aggregation (AggStage; the stages after it come by
// the With* functions), whose output is out, and returns the node (cpu:
// the same on the CPU, for a fallback); an errs.Unsupported error names
// what it lacks.
//
// With joins (join.go), the aggregation is over the pipeline's columns,
// and the scan's join filters — those of the joins the pipeline runs —
// are not used.
func NewGPUAggregate(p Pipeline, out *arrow.Schema, cpu exec.Node) (*GPUAggregate, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if _, ok := p.last().(AggStage); !ok {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: a pipeline ending in %s", aName(p.last()))
	}
	scan, keys, aggs := p.Scan(), p.Keys(), p.Aggs()
	if scan.HostFilter != nil {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: a filter the device lacks (%s)", scan.HostFilter)
	}
	if len(scan.CPU.JoinFilters) > 0 && p.NumJoins() == 0 {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: a scan with join filters")
	}
	a := &GPUAggregate{stages: p, Out: out, CPU: cpu}
	ncols := a.width() // string keys' codes go in the slots after the pipeline's columns
	dev := make([]expr.Expr, len(keys))
	for i, k := range keys {
		a.dictOf = append(a.dictOf, -1)
		dev[i] = k
		if k.DataType().ID() != arrow.STRING {
			continue
		}
		col, ok := k.(*expr.Column)
		if !ok {
			return nil, errs.New(errs.Unsupported, "GPU aggregation: string group key %s is not a column", k)
		}
		a.dictOf[i] = col.Index
		dev[i] = &expr.Column{Index: ncols + i, Type: arrow.PrimitiveTypes.Int32, Name: col.Name + "#code"}
	}
	ops := make([]arrowgpu.AggOp, len(aggs))
	for j, f := range aggs {
		if f.Distinct {
			return nil, errs.New(errs.Unsupported, "GPU aggregation: %s(DISTINCT …)", f.Fn)
		}
		ops[j] = arrowgpu.AggOp{Fn: f.Fn, Arg: f.Arg}
	}
	pred := scan.DeviceFilter
	if p.NumJoins() > 0 {
		pred = nil // the pipeline filters before and between the joins
		if err := checkJoinFilters(p); err != nil {
			return nil, err
		}
	}
	var err error
	if a.kernel, err = arrowgpu.GenerateAgg(dev, ops, pred); err != nil {
		return nil, err
	}
	return a, nil
}

// checkJoinFilters returns an errs.Unsupported error when the device
// cannot evaluate a filter or condition of p's joins.
func checkJoinFilters(p Pipeline) error {
	for _, j := range p.Joins() {
		for _, f := range []expr.Expr{j.Filter, j.On} {
			if f != nil {
				if _, err := arrowgpu.GenerateFused(nil, f); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// WithHaving is a followed by pred, a filter over the aggregation's final
// output, on the device (a HavingStage); CPU, the fallback,
// filters by it too. It needs a final aggregation with keys (without keys
// the CPU emits a row for no group, which the filter must see) and a
// predicate the device can evaluate over the table's words
// (arrowgpu.AggKernel.WithHaving); otherwise an errs.Unsupported error
// says why. a is unchanged.
func (a *GPUAggregate) WithHaving(pred expr.Expr) (*GPUAggregate, error) {
	cp, err := a.withHaving(pred, nil, nil)
	if err != nil {
		return nil, err
	}
	cp.CPU = &exec.Filter{Input: a.CPU, Pred: pred}
	return cp, nil
}

// WithHavingFeed is a with the device filtering the groups by pred, a
// HAVING over the aggregation's output followed by the columns of scalar,
// a scalar subquery's schema, whose one row f gives at run time
// (scalar_feed.go). The Filter above the join that attaches the row still
// applies pred, so CPU, the fallback, does not; conditions as for
// WithHaving.
func (a *GPUAggregate) WithHavingFeed(pred expr.Expr, scalar *arrow.Schema, f *exec.ScalarFeed) (*GPUAggregate, error) {
	return a.withHaving(pred, outTypes(scalar), f)
}

func (a *GPUAggregate) withHaving(pred expr.Expr, params []arrow.DataType, f *exec.ScalarFeed) (*GPUAggregate, error) {
	stages, err := a.stages.With(HavingStage{Pred: pred, Feed: f})
	if err != nil {
		return nil, err
	}
	if !stages.Final() || len(stages.Keys()) == 0 {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: HAVING over a partial or ungrouped aggregation")
	}
	k, err := a.kernel.WithHaving(pred, outTypes(a.Out), params)
	if err != nil {
		return nil, err
	}
	cp := a.clone()
	cp.kernel, cp.stages = k, stages
	return cp, nil
}

// outTypes are the types of s's columns.
func outTypes(s *arrow.Schema) []arrow.DataType {
	out := make([]arrow.DataType, s.NumFields())
	for i := range out {
		out[i] = s.Field(i).Type
	}
	return out
}

// WithTopN is a with the device reading back only the groups that a
// top-n by output column top.Col can keep (a TopNStage): those at least as
// good as the n-th best, NULLs placed as top says, and those whose value
// is NaN (arrowgpu AggKernel.WithTopN). The Sort above still orders them,
// ties included. An errs.Unsupported error when the column's type has no
// device order. a is unchanged.
func (a *GPUAggregate) WithTopN(top arrowgpu.OrderKey, n int) (*GPUAggregate, error) {
	stages, err := a.stages.With(TopNStage{Top: top, N: n})
	if err != nil {
		return nil, err
	}
	if !stages.Final() || len(stages.Keys()) == 0 || n <= 0 {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: a top-N over a partial or ungrouped aggregation")
	}
	out := outTypes(a.Out)
	k, err := a.kernel.WithTopN(top, out)
	if err != nil {
		return nil, err
	}
	cp := a.clone()
	cp.kernel, cp.stages = k, stages
	return cp, nil
}

// GPUOuterAggregate is an aggregation over a GPUAggregate's groups run on
// the device from the inner table as it stands (AggTable.Rows): TPC-H q13's
// customers per order count, q16's distinct suppliers per part kind — an
// aggregation of an aggregation, whose inner groups then never leave the
// device. Keys and the Args of Aggs are inner output columns.
type GPUOuterAggregate struct {
	Keys  []int
	Aggs  []exec.AggFunc // Arg: an *expr.Column over the inner output, nil for count_star
	Out   *arrow.Schema
	Inner *arrow.Schema // the inner aggregation's output

	cols   []int // inner output columns read, by the batch slot the kernel reads them from
	kernel *arrowgpu.AggKernel
}

// WithOuter is a with the device computing, over a's groups, the final
// aggregation of aggs grouped by keys (inner output columns), whose output
// is out (an OuterAggStage); cpu computes the same from a's CPU twin for a
// fallback. The keys may be of any type but DOUBLE (grouped by the words
// the table holds); the aggregates are sum, count, count_star, min and max
// as in GenerateAgg. Else an errs.Unsupported error. a is unchanged.
func (a *GPUAggregate) WithOuter(keys []int, aggs []exec.AggFunc, out *arrow.Schema, cpu exec.Node) (*GPUAggregate, error) {
	o := &GPUOuterAggregate{Keys: keys, Aggs: aggs, Out: out, Inner: a.Out}
	stages, err := a.stages.With(OuterAggStage{Outer: o})
	if err != nil {
		return nil, err
	}
	if !stages.Final() || len(stages.Keys()) == 0 {
		return nil, errs.New(errs.Unsupported, "GPU aggregation: an aggregation over a partial or ungrouped aggregation")
	}
	slot := map[int]int{}
	read := func(col int) *expr.Column {
		sl, ok := slot[col]
		if !ok {
			sl = len(o.cols)
			slot[col] = sl
			o.cols = append(o.cols, col)
		}
		return &expr.Column{Index: sl, Type: a.kernel.ImageType(col), Name: a.Out.Field(col).Name}
	}
	// The table's image of a DECIMAL(38) sum is two words, which Rows
	// does not present.
	wide := func(col int) error {
		if f := a.Out.Field(col); f.Type.ID() == arrow.DECIMAL128 {
			return errs.New(errs.Unsupported, "GPU aggregation: the DECIMAL(38) %s of an aggregation read by another", f.Name)
		}
		return nil
	}
	var kx []expr.Expr
	for _, k := range keys {
		if a.Out.Field(k).Type.ID() == arrow.FLOAT64 {
			return nil, errs.New(errs.Unsupported, "GPU aggregation: grouping by the DOUBLE %s of an aggregation", a.Out.Field(k).Name)
		}
		if err := wide(k); err != nil {
			return nil, err
		}
		kx = append(kx, read(k))
	}
	ops := make([]arrowgpu.AggOp, len(aggs))
	for j, f := range aggs {
		if f.Distinct {
			return nil, errs.New(errs.Unsupported, "GPU aggregation: %s(DISTINCT …) over an aggregation", f.Fn)
		}
		ops[j].Fn = f.Fn
		if f.Arg != nil {
			col, ok := f.Arg.(*expr.Column)
			if !ok {
				return nil, errs.New(errs.Unsupported, "GPU aggregation: %s over an aggregation", f.Arg)
			}
			if err := wide(col.Index); err != nil {
				return nil, err
			}
			ops[j].Arg = read(col.Index)
		}
	}
	ready := &expr.Column{Index: len(o.cols), Type: arrow.FixedWidthTypes.Boolean, Name: "ready"}
	if o.kernel, err = arrowgpu.GenerateAgg(kx, ops, ready); err != nil {
		return nil, err
	}
	cp := a.clone()
	cp.stages, cp.Out, cp.CPU = stages, out, cpu
	return cp, nil
}

// outerRows runs the outer aggregation over t, a's complete table, and returns its rows
// (grouped by partition under a PartitionStage: offs); dicts are a's keys'
// dictionaries.
func (a *GPUAggregate) outerRows(c *exec.Context, st *aggRun, q *arrowgpu.Queue, t *arrowgpu.AggTable, dicts []*devDict, innerHint string) (arrow.RecordBatch, []uint32, error) {
	o := a.stages.Outer()
	b, groups, err := t.Rows(o.cols)
	if err != nil {
		return nil, nil, err
	}
	defer b.Free()
	st.groups.Add(int64(groups))
	a.stages.Scan().GPU.setGroups(innerHint, groups)
	hintKey := o.kernel.Name + "|outer"
	g := a.stages.Scan().GPU
	capacity := 1 << 12
	for capacity < 2*g.groupsHint(hintKey) && capacity < gpuAggMaxSlots {
		capacity <<= 1
	}
	for {
		ot, err := q.NewAggTable(o.kernel, capacity)
		if err != nil {
			return nil, nil, err
		}
		t0 := time.Now()
		full, err := ot.Add(b)
		st.kernelNS.Add(int64(time.Since(t0)))
		if err != nil || full {
			ot.Free()
			if err != nil {
				return nil, nil, err
			}
			if capacity *= 16; capacity > gpuAggMaxSlots {
				return nil, nil, errs.New(errs.ResourcesExhausted, "GPU aggregation: more than %d groups", gpuAggMaxSlots/2)
			}
			continue
		}
		od := make([]*devDict, len(o.Keys))
		for i, k := range o.Keys {
			if k < len(dicts) {
				od[i] = dicts[k]
			}
		}
		res, err := a.readGroups(c, q, ot, 0, o.Out, od)
		if err != nil {
			return nil, nil, err
		}
		defer res.Release()
		st.outerGroups.Add(int64(res.Rows))
		g.setGroups(hintKey, res.Rows)
		od, release, err := hostStrings(c, q, res.Keys, res.KeyNulls, od)
		if err != nil {
			return nil, nil, err
		}
		defer release()
		b, err := groupRows(c, o.Out, len(o.Keys), o.Aggs, res, od)
		return b, res.PartOffsets, err
	}
}

func (a *GPUAggregate) Schema() *arrow.Schema { return a.Out }
func (a *GPUAggregate) Children() []exec.Node { return a.pipeInputs() }
func (a *GPUAggregate) Explain() string       { return "GPUAggregate" }

// RunDevice is where the run of c aggregated (EXPLAIN ANALYZE).
func (a *GPUAggregate) RunDevice(c *exec.Context) string {
	if a.state(c).onCPU.Load() {
		return "CPU (fallback)"
	}
	return "GPU"
}

// RunStats reports the rows the run of c aggregated on the device,
// groups, bytes uploaded to fill the cache and time waiting for the
// device.
func (a *GPUAggregate) RunStats(c *exec.Context) []exec.Stat {
	st, scan := a.state(c), a.stages.Scan().state(c)
	stats := []exec.Stat{
		{Name: "device rows", Value: st.rowsIn.Load()},
		{Name: "groups", Value: st.groups.Load()},
		{Name: "to device", Value: st.toDevice.Load(), Unit: "bytes"},
		{Name: "device time", Unit: "text", Text: time.Duration(st.devNS.Load()).Round(time.Microsecond).String()},
		{Name: "kernels", Unit: "text", Text: time.Duration(st.kernelNS.Load()).Round(time.Microsecond).String()},
		{Name: "device calls", Value: st.calls.Load()},
		{Name: "phases", Unit: "text", Text: phasesText(st.phaseNS[:], "set-up", "chunks", "groups")},
		{Name: "chunks", Unit: "text", Text: scan.chunks.text()},
		{Name: "load", Unit: "text", Text: scan.loadText()},
		{Name: "joins", Unit: "text", Text: st.joinsText()},
	}
	if a.stages.Having().Pred != nil || a.stages.TopN().N > 0 {
		stats = slices.Insert(stats, 2, exec.Stat{Name: "groups kept", Value: st.kept.Load()})
	}
	if a.stages.Outer() != nil {
		stats = slices.Insert(stats, 2, exec.Stat{Name: "outer groups", Value: st.outerGroups.Load()})
	}
	return append(append(stats, a.graceStats(c)...), a.joinGraceStats(c)...)
}

// phasesText shows the time of each named phase ("set-up 120µs, chunks
// 1.2ms, groups 3.1ms"); "" before any ran.
func phasesText(ns []atomic.Int64, names ...string) string {
	var parts []string
	for i, name := range names {
		if d := time.Duration(ns[i].Load()); d > 0 {
			parts = append(parts, name+" "+d.Round(time.Microsecond).String())
		}
	}
	return strings.Join(parts, ", ")
}

// pipeInputs are the plans the pipeline reads: its build sides, and the
// rows its scan reads when they are not a table's (GPUScan.Source).
func (a *GPUAggregate) pipeInputs() []exec.Node {
	builds := a.stages.Builds()
	if s := a.stages.Scan(); s.Source != nil {
		builds = append(builds, s.Source)
	}
	return builds
}

// WithPartition is a with the groups coming back grouped by p, a hash
// exchange's partitioning of key columns (a PartitionStage); an
// errs.Unsupported error for a string key (the device holds codes, not
// the strings the exchange hashes), an aggregation whose groups are not
// its output or a top-N. a is unchanged.
func (a *GPUAggregate) WithPartition(p *DevicePartition) (*GPUAggregate, error) {
	stages, err := a.stages.With(PartitionStage{Partition: p})
	if err != nil {
		return nil, err
	}
	// The groups that come back are the outer aggregation's when there
	// is one: its keys are inner output columns.
	nkeys, inner := len(a.stages.Keys()), func(k int) int { return k }
	if o := a.stages.Outer(); o != nil {
		nkeys, inner = len(o.Keys), func(k int) int { return o.Keys[k] }
	}
	for _, k := range p.Keys {
		ik := inner(k) // an outer key may be an inner aggregate's value
		code := ik < len(a.dictOf) && a.dictOf[ik] >= 0
		if k >= nkeys || !arrowgpu.PartitionKeyType(a.Out.Field(k).Type) || (a.Out.Field(k).Type.ID() == arrow.STRING) != code {
			return nil, errs.New(errs.Unsupported, "GPU aggregation: partitioning by output column %d", k)
		}
	}
	cp := a.clone()
	cp.stages = stages
	return cp, nil
}

// readGroups reads back the groups of t, the table whose groups come back
// (out: their columns, dicts: its keys' dictionaries), and frees t: those
// a top-N may keep when topN > 0, grouped by the PartitionStage's
// partitions when there is one.
func (a *GPUAggregate) readGroups(c *exec.Context, q *arrowgpu.Queue, t *arrowgpu.AggTable, topN int, out *arrow.Schema, dicts []*devDict) (*arrowgpu.AggResult, error) {
	defer t.Free()
	gp, freeGP, err := a.groupPartition(q, out, dicts)
	if err != nil {
		return nil, err
	}
	defer freeGP()
	res, err := t.Result(c.Alloc, topN, gp)
	if errors.Is(err, arrowgpu.ErrSumOverflow) {
		err = exec.ErrSumOverflow
	}
	return res, err
}

// groupPartition is the PartitionStage as the aggregation table whose groups come
// back takes it (out: their columns, dicts: the keys' dictionaries): a
// string key's codes hash through a table of its strings' hashes (made
// here; free frees them).
func (a *GPUAggregate) groupPartition(q *arrowgpu.Queue, out *arrow.Schema, dicts []*devDict) (gp *arrowgpu.GroupPartition, free func(), err error) {
	p := a.stages.Partition()
	if p == nil {
		return nil, func() {}, nil
	}
	gp = &arrowgpu.GroupPartition{Keys: p.Keys, Parts: p.Parts, Lookup: make([]arrowgpu.Buffer, len(p.Keys))}
	free = func() {
		for i := range gp.Lookup {
			gp.Lookup[i].Free()
		}
	}
	for i, k := range p.Keys {
		gp.Double = append(gp.Double, out.Field(k).Type.ID() == arrow.FLOAT64)
		if out.Field(k).Type.ID() != arrow.STRING {
			continue
		}
		if gp.Lookup[i], err = codeHashes(q, dicts[k]); err != nil {
			free()
			return nil, nil, err
		}
	}
	return gp, free, nil
}

// codeHashes puts on the device, by code, the FNV-1a hash of the strings
// of d (the value the CPU partitioner hashes a string as).
func codeHashes(q *arrowgpu.Queue, d *devDict) (arrowgpu.Buffer, error) {
	if d == nil {
		return arrowgpu.Buffer{}, errs.New(errs.Unsupported, "GPU aggregation: a string key without its strings")
	}
	if d.open && d.values == nil {
		// A streamed column's strings are numbered as its chunks come
		// and published when a pass over them is over: the groups come
		// back after their pass, so every code they hold is published
		// by then, unless the stream gave its codes up.
		return arrowgpu.Buffer{}, errs.New(errs.Unsupported, "GPU aggregation: partitioning by a string key of a streamed table whose strings are not known yet")
	}
	if d.dev != nil {
		return q.StringHashes(d.dev)
	}
	pieces := d.rows // a build side's, by row: none when it had no rows
	if d.values != nil {
		pieces = []*array.String{d.values}
	}
	var raw []byte
	for _, piece := range pieces {
		for r := range piece.Len() {
			raw = binary.LittleEndian.AppendUint64(raw, exec.Fnv64(piece.Value(r)))
		}
	}
	if len(raw) == 0 {
		raw = make([]byte, 8) // no strings: no code to look up
	}
	return q.UploadBytes(raw)
}

func (a *GPUAggregate) Open(c *exec.Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		st := a.state(c)
		outs, err := a.runOrGrace(c, st) // agg_grace.go
		a.stages.Scan().GPU.noteErr(err)
		if err != nil && gpuFallback(err) && c.Err() == nil {
			return a.stages.Scan().runOnCPU(c, "GPU aggregation over "+a.stages.Scan().CPU.Table.Name(), err, a.CPU, &st.onCPU, out)
		}
		if err != nil {
			return err
		}
		for i, o := range outs {
			if !sendParts(c, out, o.b, o.offs) {
				for _, rest := range outs[i+1:] {
					rest.b.Release()
				}
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// gpuAggMaxSlots bounds the table: beyond it the aggregation runs on the
// CPU (a query with hundreds of millions of groups gains little here).
const gpuAggMaxSlots = 1 << 28

// run aggregates every chunk and returns the partial rows (grouped by
// partition under a PartitionStage: offs, else nil).
func (a *GPUAggregate) run(c *exec.Context, st *aggRun) (b arrow.RecordBatch, offs []uint32, err error) {
	start, calls := time.Now(), a.stages.Scan().GPU.Calls()
	defer func() {
		st.devNS.Add(int64(time.Since(start)))
		st.calls.Add(a.stages.Scan().GPU.Calls() - calls) // queries beside it count too
	}()
	s := a.stages.Scan()
	sc := s.CPU
	g := s.GPU
	dt, loaded, err := s.acquire(c, true)
	if err != nil {
		return nil, nil, err
	}
	defer g.cache.releaseView(dt)
	st.toDevice.Add(loaded)
	q, err := g.queue()
	if err != nil {
		return nil, nil, err
	}
	defer g.putQueue(q)
	hintKey := a.kernel.Name + "|" + sc.Table.Name()
	var pipe *gpuPipeline
	// deferred marks the joins that may run from their build side
	// (from_build.go); the chunks then run up to the first of them,
	// r, and their rows are collected.
	deferred := a.fromBuildCandidates()
	// A streamed scan's chunks are freed as they are done: none may stop
	// early and wait in the stash, whose batches can borrow its columns;
	// nor under a grace join, whose passes each run every chunk.
	small := stashSmall
	skip := a.joinGraceSkip(c) // join_grace.go
	if dt.stream != nil || skip != nil {
		deferred, small = nil, 0
	}
	r := slices.Index(deferred, true)
	if a.stages.NumJoins() > 0 {
		build := deferred // the joins built now: not deferred, nor a grace join's
		if skip != nil {
			build = skip
		}
		if pipe, err = a.prepareJoins(c, build); err != nil {
			return nil, nil, err
		}
		defer pipe.free()
		if err = a.attachGrace(c, q, pipe); err != nil {
			return nil, nil, err
		}
	}
	dicts, codeCols, err := a.keyDicts(dt, pipe)
	if err != nil {
		return nil, nil, err
	}
	capacity := 1 << 12
	for capacity < 2*g.groupsHint(hintKey) && capacity < gpuAggMaxSlots {
		capacity <<= 1 // at most half full, as Add keeps it
	}
	st.phaseNS[0].Add(int64(time.Since(start)))
	for {
		chunksStart := time.Now()
		t, err := q.NewAggTable(a.kernel, capacity)
		if err != nil {
			return nil, nil, err
		}
		t.Local = a.fewGroups(g.groupsHint(hintKey), dicts)
		// Chunks go through the pipeline and into the one table up to
		// gpuStreams at once, each on its own queue.
		var full atomic.Bool
		var rows atomic.Int64
		// The pipeline's steps: the scan's filter, then each join; the
		// chunks stop before the first deferred one, or once their rows
		// are few (stash.go).
		end := a.stages.NumJoins() + 1
		stash := a.newStash(r)
		to := cmp.Or(stash.at, end)
		each := func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
			view, err := a.chunkBatch(ch, dicts)
			if err != nil {
				return false, err
			}
			release := func() {}
			if pipe != nil {
				t0 := time.Now()
				v, rel, step, err := a.pipelineRange(c, wq, pipe, view, 0, to, small)
				st.kernelNS.Add(int64(time.Since(t0)))
				if err != nil || v == nil {
					rows.Add(int64(ch.rows))
					return false, err
				}
				if step < end {
					rows.Add(int64(ch.rows))
					return stash.add(step, v, rel), nil
				}
				view, release = v, rel
			}
			t0 := time.Now()
			f, err := t.AddOn(wq, view)
			st.kernelNS.Add(int64(time.Since(t0)))
			release()
			if err != nil || f {
				full.Store(f)
				return f, err
			}
			rows.Add(int64(ch.rows))
			return false, nil
		}
		if pipe.gracePasses() { // join_grace.go
			err = a.graceChunks(c, q, pipe, dt, codeCols, dicts, &rows, func(wq *arrowgpu.Queue, v *arrowgpu.Batch) (bool, error) {
				t0 := time.Now()
				f, err := t.AddOn(wq, v)
				st.kernelNS.Add(int64(time.Since(t0)))
				full.Store(f)
				return f, err
			})
		} else {
			err = dt.each(c, g, q, codeCols, each)
		}
		if err == nil && stash.over {
			// Too many rows reach the first deferred join for it to run
			// from its build side: build them all and run the chunks
			// again.
			if err = a.buildDeferred(c, pipe, deferred); err == nil {
				stash.free()
				t.Free()
				r = -1
				continue
			}
		}
		if err == nil && !full.Load() {
			err = stash.run(c, q, a, pipe, deferred, end, func(v *arrowgpu.Batch) error {
				t0 := time.Now()
				defer func() { st.kernelNS.Add(int64(time.Since(t0))) }()
				f, err := t.AddOn(q, v)
				full.Store(f)
				return err
			})
		}
		stash.free()
		st.phaseNS[1].Add(int64(time.Since(chunksStart)))
		if err != nil {
			t.Free()
			return nil, nil, err
		}
		if full.Load() {
			t.Free()
			if capacity *= 16; capacity > gpuAggMaxSlots {
				return nil, nil, errs.New(errs.ResourcesExhausted, "GPU aggregation: more than %d groups", gpuAggMaxSlots/2)
			}
			continue
		}
		st.rowsIn.Add(rows.Load())
		groupsStart := time.Now()
		defer func() { st.phaseNS[2].Add(int64(time.Since(groupsStart))) }()
		if a.stages.Outer() != nil {
			rec, offs, err := a.outerRows(c, st, q, t, dicts, hintKey)
			t.Free()
			if errors.Is(err, arrowgpu.ErrSumOverflow) {
				err = exec.ErrSumOverflow
			}
			return rec, offs, err
		}
		if a.stages.Having().Feed != nil {
			row, err := c.FeedRun(a.stages.Having().Feed).Wait(c)
			if err != nil {
				t.Free()
				return nil, nil, err
			}
			t.SetParams(feedParams(row))
		}
		res, err := a.readGroups(c, q, t, a.stages.TopN().N, a.Out, dicts)
		if err != nil {
			return nil, nil, err
		}
		defer res.Release()
		st.groups.Add(int64(res.Groups))
		st.kept.Add(int64(res.Rows))
		g.setGroups(hintKey, res.Groups)
		dicts, release, err := hostStrings(c, q, res.Keys, res.KeyNulls, dicts)
		if err != nil {
			return nil, nil, err
		}
		defer release()
		b, err := a.partialRows(c, res, dicts)
		return b, res.PartOffsets, err
	}
}

// keyDicts is each group key's device dictionary (nil for a key that is
// not a string column's codes): a scan column's from the view dt, a join's
// build column's from pipe. codeCols are the scan's string columns read
// as codes.
func (a *GPUAggregate) keyDicts(dt *tableView, pipe *gpuPipeline) (dicts []*devDict, codeCols []int, err error) {
	sc := a.stages.Scan().CPU
	ncols := len(sc.Columns)
	for i, p := range a.dictOf {
		var d *devDict
		switch {
		case p < 0:
		case p < ncols:
			codeCols = append(codeCols, sc.Columns[p])
			if d = dt.dicts[sc.Columns[p]]; d == nil {
				return nil, nil, errs.New(errs.Unsupported, "GPU aggregation: group key %s has more than %d distinct values", a.stages.Keys()[i], maxDictValues)
			}
		default:
			d = pipe.dictOf(a, p)
		}
		dicts = append(dicts, d)
	}
	return dicts, codeCols, nil
}

// chunkBatch is the batch a chunk starts the pipeline with: the scan's
// columns, and in slots width+i the codes of the scan's string group
// keys (dicts: the keys' dictionaries). A streamed chunk the device had
// no room for fails with its hostErr: nothing is sent yet, the CPU twin
// runs.
func (a *GPUAggregate) chunkBatch(ch *viewChunk, dicts []*devDict) (*arrowgpu.Batch, error) {
	if ch.hostErr != nil {
		return nil, ch.hostErr
	}
	sc := a.stages.Scan().CPU
	w := a.width()
	view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, w+len(a.stages.Keys()))}
	for p, o := range sc.Columns {
		view.Cols[p] = ch.col(o)
	}
	for k, d := range dicts {
		if d != nil && a.dictOf[k] < len(sc.Columns) {
			if view.Cols[w+k] = ch.code(sc.Columns[a.dictOf[k]]); view.Cols[w+k] == nil {
				return nil, errs.New(errs.Unsupported, "GPU aggregation: group key %s has more than %d distinct values", a.stages.Keys()[k], maxDictValues)
			}
		}
	}
	return view, nil
}

// localGroups is the most groups an aggregation expects for its blocks
// to add their rows up in shared memory first (arrowgpu AggTable.Local),
// well within a block's table of 64.
const localGroups = 32

// fewGroups reports whether the aggregation has at most localGroups
// groups: none without keys; as many as it had when it last ran (hint);
// else at most the product of its keys' domains, when each is known — a
// string key's dictionary (and NULL), a Boolean's two values and NULL
// (TPC-H q01's return flags and line statuses: 3·2 values).
func (a *GPUAggregate) fewGroups(hint int, dicts []*devDict) bool {
	if hint > 0 || len(a.stages.Keys()) == 0 {
		return hint <= localGroups
	}
	n := 1
	for i, k := range a.stages.Keys() {
		switch {
		case dicts[i] != nil && dicts[i].values != nil && !dicts[i].open:
			n *= dicts[i].values.Len() + 1
		case k.DataType().ID() == arrow.BOOL:
			n *= 3
		default:
			return false
		}
		if n > localGroups {
			return false
		}
	}
	return true
}

// partialRows turns the device's groups into the partial aggregate's rows.
func (a *GPUAggregate) partialRows(c *exec.Context, res *arrowgpu.AggResult, dicts []*devDict) (arrow.RecordBatch, error) {
	return groupRows(c, a.Out, len(a.stages.Keys()), a.stages.Aggs(), res, dicts)
}

// groupRows turns a device table's groups (res: their words) into rows of
// out: nkeys keys (string keys through dicts), then aggs' values.
func groupRows(c *exec.Context, out *arrow.Schema, nkeys int, aggs []exec.AggFunc, res *arrowgpu.AggResult, dicts []*devDict) (arrow.RecordBatch, error) {
	n := res.Rows
	oneRow := nkeys == 0 && n == 0 // no group: the CPU partial's one row
	if oneRow {
		n = 1
	}
	cols := make([]arrow.Array, 0, out.NumFields())
	fail := func(err error) (arrow.RecordBatch, error) {
		exec.ReleaseArrays(cols)
		return nil, err
	}
	for i := range nkeys {
		t := out.Field(i).Type
		keys, nulls := res.Keys[i], res.KeyNulls
		if col := fromImages(c.Alloc, t, keys, n, func(r int) bool { return nulls.Value(r)>>i&1 == 0 }); col != nil {
			cols = append(cols, col)
			continue
		}
		b := array.NewBuilder(c.Alloc, t)
		for r := range n {
			if nulls.Value(r)>>i&1 != 0 {
				b.AppendNull()
				continue
			}
			v := keys.Value(r)
			if sb, ok := b.(*array.StringBuilder); ok {
				sb.Append(dicts[i].str(int(v)))
			} else if !exec.AppendImage(b, v) {
				b.Release()
				return fail(errs.New(errs.Internal, "GPU aggregation: key of type %s", t))
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	for j, f := range aggs {
		t := out.Field(nkeys + j).Type
		acc := res.Ops[j]
		if !oneRow {
			col, err := fastAgg(c, f, t, acc, n)
			if err != nil {
				return fail(err)
			}
			if col != nil {
				cols = append(cols, col)
				continue
			}
		}
		b := array.NewBuilder(c.Alloc, t)
		for r := range n {
			cnt := int64(0)
			if !oneRow {
				cnt = acc[0].Value(r)
			}
			if f.Fn == "count" || f.Fn == "count_star" {
				b.(*array.Int64Builder).Append(cnt)
				continue
			}
			if cnt == 0 {
				b.AppendNull()
				continue
			}
			v := acc[1].Value(r)
			if wb, ok := b.(*array.Decimal128Builder); ok && f.Fn == "sum" {
				// The device's integer sums are 128 bits (low, high word).
				sum := decimal128.New(acc[2].Value(r), uint64(v))
				if !exec.FitsDigits(sum, exec.MaxDecimalDigits) {
					b.Release()
					return fail(exec.ErrWideSumOverflow)
				}
				wb.Append(sum)
				continue
			}
			if f.Fn == "sum" && t.ID() != arrow.FLOAT64 {
				if hi := acc[2].Value(r); hi != v>>63 {
					b.Release()
					return fail(exec.ErrSumOverflow)
				}
			}
			if !exec.AppendImage(b, v) {
				b.Release()
				return fail(errs.New(errs.Internal, "GPU aggregation: %s of type %s", f.Fn, t))
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	rec := array.NewRecordBatch(out, cols, int64(n))
	exec.ReleaseArrays(cols)
	return rec, nil
}

// fastAgg is partialRows' column for aggregate f when the device's words
// are already its values (counts; sums, minima and maxima of integers,
// decimals and doubles): they are used as they are, with a validity of
// "count > 0"; nil for types that need converting.
func fastAgg(c *exec.Context, f exec.AggFunc, t arrow.DataType, acc []*array.Int64, n int) (arrow.Array, error) {
	cnt := acc[0]
	if f.Fn == "count" || f.Fn == "count_star" {
		return fromImages(c.Alloc, t, cnt, n, nil), nil
	}
	if f.Fn == "sum" && t.ID() == arrow.DECIMAL128 {
		// A DECIMAL(38) sum: the device's 128-bit sum (low, high word).
		lo, hi := acc[1].Int64Values(), acc[2].Int64Values()
		nums := make([]decimal128.Num, n)
		valid := make([]bool, n)
		for r := range n {
			if valid[r] = cnt.Value(r) > 0; valid[r] {
				nums[r] = decimal128.New(hi[r], uint64(lo[r]))
				// A sum of DECIMAL(38) values may pass 38 digits (one
				// of 64-bit values cannot); the device's does not wrap.
				if !exec.FitsDigits(nums[r], exec.MaxDecimalDigits) {
					return nil, exec.ErrWideSumOverflow
				}
			}
		}
		return exec.AggArray(c.Alloc, t, nums, valid), nil
	}
	if f.Fn == "sum" && t.ID() != arrow.FLOAT64 {
		lo, hi := acc[1].Int64Values(), acc[2].Int64Values()
		for r := range n {
			if cnt.Value(r) > 0 && hi[r] != lo[r]>>63 {
				return nil, exec.ErrSumOverflow
			}
		}
	}
	return fromImages(c.Alloc, t, acc[1], n, func(r int) bool { return cnt.Value(r) > 0 }), nil
}

// fromImages is the column of type t whose row r holds vals[r] when t's
// values are the device's 64-bit words themselves (Int64, Decimal64 and
// Float64 share the buffer, no copy), NULL where valid (nil: all valid)
// says so; nil for other types.
func fromImages(mem memory.Allocator, t arrow.DataType, vals *array.Int64, n int, valid func(int) bool) arrow.Array {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.FLOAT64:
	default:
		return nil
	}
	if vals.Len() != n || vals.Data().Offset() != 0 {
		return nil
	}
	var bm *memory.Buffer
	nulls := 0
	if valid != nil {
		for r := range n {
			if !valid(r) {
				nulls++
			}
		}
	}
	if nulls > 0 {
		bm = memory.NewResizableBuffer(mem)
		bm.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := bm.Bytes()
		clear(bits)
		for r := range n {
			if valid(r) {
				bitutil.SetBit(bits, r)
			}
		}
		defer bm.Release()
	}
	d := array.NewData(t, n, []*memory.Buffer{bm, vals.Data().Buffers()[1]}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// feedParams are the device's parameters of a scalar subquery's row
// (exec.ScalarFeedRun.Wait): its values, NULLs when it has no row; nil
// (the device keeps every group) without a row set or when a column's
// type has no parameter.
func feedParams(row arrow.RecordBatch) []arrowgpu.Param {
	if row == nil {
		return nil
	}
	ps := make([]arrowgpu.Param, row.NumCols())
	if row.NumRows() == 0 {
		for i := range ps {
			ps[i].Null = true
		}
		return ps
	}
	for i, col := range row.Columns() {
		var ok bool
		if ps[i], ok = arrowgpu.ParamAt(col, 0); !ok {
			return nil
		}
	}
	return ps
}
