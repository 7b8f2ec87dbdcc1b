package gpuexec

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	gqmem "gq/memory"
)

// The grace join: a GPUAggregate or GPUJoinRows whose join build sides
// do not fit in device memory beside what the pipeline needs runs on the
// device in several passes instead of falling back to the CPU.
//
// The build rows of the join that does not fit — and of every other join
// probing the same pipeline columns (TPC-H q18's IN subquery and orders,
// q21's EXISTS, NOT EXISTS and orders, all on l_orderkey) — are hashed
// by their keys into joinGraceParts partitions in host memory, accounted
// by the memory manager and spilled to disk under pressure (the
// exchange's hash: exec's partitioner on the host, arrowgpu HashPartition
// on the device, which agree row for row). Consecutive partitions whose
// tables fit the device memory left make a pass: its build tables hold
// only those partitions' rows, the whole pipeline runs over every chunk
// of the probe side, and at the first of those joins each chunk keeps
// only the rows whose keys hash into the pass's partitions. A row can
// match only build rows of its own partition, and it reaches the join in
// exactly one pass (a NULL key hashes to one partition too), so every
// inner, left, single, semi and anti join's output row comes out once,
// and the aggregation's table (or the grace aggregation's first pass)
// adds up every pass's rows, or GPUJoinRows emits them pass by pass.
//
// Passes over the probe side, rather than partitioning it: the rows that
// reach a join exist only on the device, chunk by chunk, as the slots of
// a fused pipeline (its columns, string codes, later joins' inputs); the
// passes leave the rest of the pipeline as it is and read the probe side
// again, from the device cache or streamed, once per pass (few: each
// pass takes as many partitions as fit).
//
// What is global to the build side stays global: NOT IN's answer depends
// on whether the build side has rows and whether any key is NULL, which
// the partitioning counts over all partitions; a single join's repeated
// keys land in one partition, where its table finds them. A string group
// key from a partitioned build side is coded against one dictionary made
// over all its rows as they are partitioned, so that its codes are the
// same in every pass.
//
// It starts when the build sides' estimated tables pass half the device
// memory left (joinGraceBefore), or when a run without it runs out of
// device memory while its build sides are large (joinGraceable); a pass
// that runs out of memory starts again with passes of half the rows, up
// to joinGraceRetries times, past which the CPU twin runs (at once when
// the pass over the probe side is what ran out). A GPUJoinRows that has
// sent rows neither starts again nor falls back (rowsSentErr): its error
// ends the query.

// joinGraceParts is how many partitions a grace join hashes its build
// rows into.
const joinGraceParts = 64

// joinGraceRetries is how many times a grace join that ran out of device
// memory starts again with passes of half the rows.
const joinGraceRetries = 3

// joinTableRowBytes is what a build row's table takes on the device
// beside its columns, at most: up to four 20-byte slots of keys and row
// number, and its chain link (arrowgpu BuildJoinTable).
const joinTableRowBytes = 4*20 + 4

// forceJoinGrace, when not 0, makes every run that can be a grace join
// one, each pass of that many partitions whether they fit or not
// (ForceJoinGraceForTesting: 1).
var forceJoinGrace atomic.Int32

// ForceJoinGraceForTesting makes every GPU aggregation whose joins can be
// partitioned run as a grace join, one partition per pass, until the
// returned function is called. For tests of the grace join's answers on
// small data; no query may be running.
func ForceJoinGraceForTesting() (restore func()) {
	forceJoinGrace.Store(1)
	return func() { forceJoinGrace.Store(0) }
}

// joinGraceRun is a grace join's state in one run of a GPUAggregate: the
// partitioned build sides (kept over the run's retries) and the figures
// EXPLAIN ANALYZE shows.
type joinGraceRun struct {
	on     bool
	why    string
	shrink int
	// onePass: the last run's build sides fit in one pass, joined
	// whole, the probe side not partitioned (attachGrace).
	onePass bool
	set     []int // the joins partitioned, in pipeline order
	sides   []*graceSide
	groups  [][2]int // the passes' partitions [lo, hi)
	lo, hi  int      // the running pass's

	passes, toHost, upBytes    atomic.Int64
	buildRows                  atomic.Int64
	probeRows                  atomic.Int64
	probeToHost, probeToDevice atomic.Int64
	// piece is the most probe rows a pass uploads at once (0:
	// graceProbePiece): halved when a piece finds no device memory.
	piece   int
	spilled atomic.Int64
}

// graceSide is one partitioned build side.
type graceSide struct {
	parts    []*gqmem.SpillableBatches
	rows     []int
	bytes    []int64
	allRows  int
	nullKeys bool
	// dicts are the dictionaries of its string group keys, by Cols
	// position, over all its rows.
	dicts map[int]*graceDict
}

func (s *graceSide) close() {
	for _, sb := range s.parts {
		if sb != nil {
			sb.Close()
		}
	}
	for _, d := range s.dicts {
		d.d.releaseStrings()
	}
}

// graceDict is a string group key's dictionary over a partitioned build
// side's rows: each string's code, and the strings (d) by code.
type graceDict struct {
	ids    map[string]int32
	values []string
	d      *devDict
}

// add numbers the strings of col not seen yet.
func (gd *graceDict) add(col arrow.Array) error {
	s, ok := col.(*array.String)
	if !ok {
		return errs.New(errs.Unsupported, "GPU join: dictionary of %s", col.DataType())
	}
	for r := range s.Len() {
		if s.IsValid(r) {
			if _, ok := gd.ids[s.Value(r)]; !ok {
				gd.ids[s.Value(r)] = int32(len(gd.values))
				gd.values = append(gd.values, s.Value(r))
			}
		}
	}
	return nil
}

// finish makes the strings the dictionary's values.
func (gd *graceDict) finish(c *exec.Context) {
	vb := array.NewStringBuilder(c.Alloc)
	defer vb.Release()
	vb.AppendValues(gd.values, nil)
	gd.d = &devDict{values: vb.NewStringArray()}
	gd.values = nil
}

// encode is each row's code of arrs (all numbered by add; NULL stays
// NULL).
func (gd *graceDict) encode(c *exec.Context, arrs []arrow.Array) (arrow.Array, error) {
	cb := array.NewInt32Builder(c.Alloc)
	defer cb.Release()
	for _, a := range arrs {
		s, ok := a.(*array.String)
		if !ok {
			return nil, errs.New(errs.Unsupported, "GPU join: dictionary of %s", a.DataType())
		}
		for r := range s.Len() {
			id, ok := gd.ids[s.Value(r)]
			switch {
			case s.IsNull(r):
				cb.AppendNull()
			case !ok:
				return nil, errs.New(errs.Internal, "GPU grace join: string %q not in its dictionary", s.Value(r))
			default:
				cb.Append(id)
			}
		}
	}
	return cb.NewArray(), nil
}

// sharedDict is the dictionary of join k's Cols entry ci when the join
// is partitioned and that column is a string group key (ok).
func (jr *joinGraceRun) sharedDict(k, ci int) (*devDict, bool) {
	if jr == nil {
		return nil, false
	}
	x := slices.Index(jr.set, k)
	if x < 0 || x >= len(jr.sides) {
		return nil, false
	}
	gd := jr.sides[x].dicts[ci]
	if gd == nil {
		return nil, false
	}
	return gd.d, true
}

// joinGraceKey keys a GPUAggregate's joinGraceRun in the run's states.
type joinGraceKey struct{ *GPUAggregate }

func (a *GPUAggregate) joinGraceState(c *exec.Context) *joinGraceRun {
	return exec.RunState[joinGraceRun](c, joinGraceKey{a})
}

// joinGraceSet is the joins a grace join partitions — the largest
// partitionable one (by its table's rows) and those probing the same
// pipeline columns — or nil and why none can be.
func (a *GPUAggregate) joinGraceSet() ([]int, string) {
	best, bestRows := -1, int64(-1)
	var whys []string
	for k := range a.stages.Joins() {
		if why := a.whyNoJoinGrace(k); why != "" {
			whys = append(whys, fmt.Sprintf("join %d: %s", k+1, why))
			continue
		}
		if r := a.buildRows(k); r > bestRows {
			best, bestRows = k, r
		}
	}
	if best < 0 {
		return nil, strings.Join(whys, "; ")
	}
	var set []int
	for k, j := range a.stages.Joins() {
		if slices.Equal(j.ProbeKeys, a.stages.Join(best).ProbeKeys) && a.whyNoJoinGrace(k) == "" {
			set = append(set, k)
		}
	}
	return set, ""
}

// whyNoJoinGrace names what keeps join k from being partitioned, "" when
// nothing does.
func (a *GPUAggregate) whyNoJoinGrace(k int) string {
	j := a.stages.Join(k)
	switch j.Type {
	case expr.JoinInner, expr.JoinLeft, expr.JoinSingle, expr.JoinSemi, expr.JoinAnti:
	default:
		return fmt.Sprintf("a %s join", j.Type)
	}
	if len(j.ProbeKeys) == 0 {
		return "no keys (a one-row side)"
	}
	build := a.stages.Build(k).Schema()
	for x, pk := range j.ProbeKeys {
		pt, bt := a.pipelineType(pk), build.Field(j.BuildKeys[x]).Type
		if !arrow.TypeEqual(pt, bt) {
			return fmt.Sprintf("keys of types %s and %s", pt, bt)
		}
		if pt.ID() == arrow.STRING || !arrowgpu.PartitionKeyType(pt) {
			return fmt.Sprintf("a %s key the partitions cannot hash", pt)
		}
	}
	return ""
}

// buildEstimate is the device bytes join k's table and columns will take,
// from its table's row count; 0 when unknown.
func (a *GPUAggregate) buildEstimate(k int) int64 {
	rows := a.buildRows(k)
	if rows <= 0 {
		return 0
	}
	j := a.stages.Join(k)
	sch := a.stages.Build(k).Schema()
	w := int64(joinTableRowBytes)
	for _, bk := range j.BuildKeys {
		w += colBytes(sch.Field(bk).Type)
	}
	for _, bc := range j.Cols {
		w += colBytes(sch.Field(bc).Type)
	}
	return rows * w
}

// joinGraceBefore says why the run should start as a grace join: the
// build sides' estimated tables pass half the device memory left; ""
// when they do not, nothing is known, or no join can be partitioned.
// The joins fromBuild marks do not count: they may run from their build
// side (a GPUJoinRows' over a resident probe side), else are built, and
// make the run a grace join when they do not fit (joinGraceable).
func (a *GPUAggregate) joinGraceBefore(fromBuild []bool) string {
	g := a.stages.Scan().GPU
	if a.stages.NumJoins() == 0 || g.Wait() != nil || g.mem == nil {
		return ""
	}
	if set, _ := a.joinGraceSet(); set == nil {
		return ""
	}
	if forceJoinGrace.Load() != 0 {
		return "forced by a test"
	}
	var need int64
	for k := range a.stages.Joins() {
		if fromBuild == nil || !fromBuild[k] {
			need += a.buildEstimate(k)
		}
	}
	free := g.deviceLimit() - g.mem.Reserved(gqmem.Device)
	if need <= free/2 {
		return ""
	}
	return fmt.Sprintf("build sides of about %s, past half the %s of device memory left", gqmem.FormatBytes(need), gqmem.FormatBytes(free))
}

// joinBuildErr marks an error of putting the build sides on the device.
type joinBuildErr struct{ err error }

func (e *joinBuildErr) Error() string { return e.err.Error() }
func (e *joinBuildErr) Unwrap() error { return e.err }

// graceProbeErr marks an error of a grace join's pass over the probe
// side, before any of its partitioned tables is built: smaller passes
// would fail the same way.
type graceProbeErr struct{ err error }

func (e *graceProbeErr) Error() string { return e.err.Error() }
func (e *graceProbeErr) Unwrap() error { return e.err }

// rowsSentErr marks an error of a run that sent rows before it: it may
// not start again, its rows would go twice.
type rowsSentErr struct{ err error }

func (e *rowsSentErr) Error() string { return e.err.Error() }
func (e *rowsSentErr) Unwrap() error { return e.err }

// joinGraceable reports whether a run that failed with err should be
// retried as a grace join: it ran out of device memory, some join can be
// partitioned, and the build sides are what did not fit — it failed
// putting them on the device, or they hold more than an eighth of the
// device memory limit.
func (a *GPUAggregate) joinGraceable(c *exec.Context, err error) bool {
	if !errors.Is(err, errs.ResourcesExhausted) || a.stages.NumJoins() == 0 || c.Err() != nil {
		return false
	}
	if set, _ := a.joinGraceSet(); set == nil {
		return false
	}
	var be *joinBuildErr
	if errors.As(err, &be) {
		return true
	}
	var rows int64
	st := a.state(c)
	for k := range a.stages.Joins() {
		rows += max(st.joins[k].buildRows.Load(), a.buildRows(k))
	}
	g := a.stages.Scan().GPU
	return rows*joinTableRowBytes > g.deviceLimit()/8
}

// joinGraced runs fn (a run of the pipeline), as a grace join when
// joinGraceBefore (of fromBuild) says so or when fn runs out of device
// memory and joinGraceable says so, retried with smaller passes when a
// grace join runs out of device memory. Its partitions are freed when
// the run ends.
func (a *GPUAggregate) joinGraced(c *exec.Context, fromBuild []bool, fn func() error) error {
	jr := a.joinGraceState(c)
	if !jr.on {
		if why := a.joinGraceBefore(fromBuild); why != "" {
			jr.on, jr.why = true, why
		}
	}
	for {
		err := fn()
		if err == nil || c.Err() != nil || !errors.Is(err, errs.ResourcesExhausted) || errors.As(err, new(*rowsSentErr)) {
			return err
		}
		switch {
		case !jr.on && a.joinGraceable(c, err):
			jr.on, jr.why = true, err.Error()
		case !jr.on:
			if _, why := a.joinGraceSet(); why != "" && a.stages.NumJoins() > 0 {
				return fmt.Errorf("%w (no grace join: %s)", err, why)
			}
			return err
		case jr.shrink < joinGraceRetries && !errors.As(err, new(*graceProbeErr)):
			jr.shrink++
		default:
			return err
		}
	}
}

// closeJoinGrace frees a run's partitioned build sides.
func (a *GPUAggregate) closeJoinGrace(c *exec.Context) {
	jr := a.joinGraceState(c)
	for _, s := range jr.sides {
		s.close()
	}
	jr.sides = nil
}

// joinGraceSkip marks the joins the passes build (nil when the run is
// not a grace join): prepareJoins leaves them to attachGrace.
func (a *GPUAggregate) joinGraceSkip(c *exec.Context) []bool {
	jr := a.joinGraceState(c)
	if !jr.on {
		return nil
	}
	if jr.set == nil {
		jr.set, _ = a.joinGraceSet()
	}
	skip := make([]bool, a.stages.NumJoins())
	for _, k := range jr.set {
		skip[k] = true
	}
	return skip
}

// attachGrace makes p, whose joins joinGraceSkip marked are not built,
// run as a grace join: the build sides partitioned on the host (once per
// run) and grouped into passes that fit the device memory left now. When
// they fit in one pass, their tables go on the device (q) and p runs as
// without a grace join: the estimate that started it counted the build
// tables' rows before their filters, and the probe side's rows need not
// go through host memory for one pass.
func (a *GPUAggregate) attachGrace(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline) error {
	jr := a.joinGraceState(c)
	if !jr.on {
		return nil
	}
	if jr.sides == nil {
		for _, k := range jr.set {
			s, err := a.partitionBuild(c, k)
			if err != nil {
				a.closeJoinGrace(c)
				return err
			}
			jr.sides = append(jr.sides, s)
			jr.buildRows.Add(int64(s.allRows))
		}
	}
	// Half of what the device has left once the resident tables and the
	// other build sides are in, the other half left to the chunks in
	// flight, the pipeline's batches and the aggregation's table.
	g := a.stages.Scan().GPU
	free := g.deviceLimit() - g.mem.Reserved(gqmem.Device)
	budget := max(free/2>>jr.shrink, 1)
	per := int(forceJoinGrace.Load())
	jr.groups = jr.groups[:0]
	for lo := 0; lo < joinGraceParts; {
		hi := lo + 1
		for hi < joinGraceParts && (per == 0 && jr.passBytes(lo, hi+1) <= budget || hi-lo < per) {
			hi++
		}
		jr.groups = append(jr.groups, [2]int{lo, hi})
		lo = hi
	}
	p.grace = jr
	if jr.onePass = len(jr.groups) == 1; !jr.onePass {
		return nil
	}
	if err := a.loadPass(c, q, p, 0); err != nil {
		a.unloadPass(p)
		return err
	}
	jr.passes.Add(1)
	return nil
}

// gracePasses reports whether p runs as a grace join's passes over its
// probe side (graceChunks).
func (p *gpuPipeline) gracePasses() bool { return p != nil && p.grace != nil && !p.grace.onePass }

// passBytes is the device bytes a pass of partitions [lo, hi) takes: per
// partitioned side, its table (arrowgpu BuildJoinTable: a power of two of
// at least twice the rows of 20-byte slots, and a 4-byte link per row)
// and its columns, taken as large as on the host.
func (jr *joinGraceRun) passBytes(lo, hi int) int64 {
	var n int64
	for _, s := range jr.sides {
		var rows int
		for pt := lo; pt < hi; pt++ {
			rows += s.rows[pt]
			n += s.bytes[pt]
		}
		slots := 64
		for slots < 2*rows {
			slots <<= 1
		}
		n += int64(slots)*20 + int64(rows)*4
	}
	return n
}

// partitionBuild runs join k's build side and hashes its rows by their
// keys into joinGraceParts host partitions.
func (a *GPUAggregate) partitionBuild(c *exec.Context, k int) (*graceSide, error) {
	j := a.stages.Join(k)
	build := a.stages.Build(k)
	sch := build.Schema()
	keys := make([]expr.Expr, len(j.BuildKeys))
	for x, bk := range j.BuildKeys {
		keys[x] = &expr.Column{Index: bk, Type: sch.Field(bk).Type, Name: sch.Field(bk).Name}
	}
	part, err := exec.NewPartitioner(keys, joinGraceParts)
	if err != nil {
		return nil, err
	}
	s := &graceSide{parts: make([]*gqmem.SpillableBatches, joinGraceParts), rows: make([]int, joinGraceParts), bytes: make([]int64, joinGraceParts),
		dicts: map[int]*graceDict{}}
	first, w, need := a.firstCol(k), a.width(), a.buildNeed(k)
	for i, d := range a.dictOf {
		if ci := d - first; d >= first && ci < len(j.Cols) && need[w+i] {
			s.dicts[ci] = &graceDict{ids: map[string]int32{}}
		}
	}
	for pt := range s.parts {
		s.parts[pt] = gqmem.NewSpillableBatches(c.Mem, c.Stats, sch, gracePartPriority)
	}
	if gs, _ := scanBuild(build); gs != nil {
		gs.state(c).noJoinFilters.Store(true)
	}
	jr := a.joinGraceState(c)
	var failed error
	for b := range build.Open(c) {
		if failed != nil || b.NumRows() == 0 {
			b.Release()
			continue
		}
		s.allRows += int(b.NumRows())
		for _, bk := range j.BuildKeys {
			s.nullKeys = s.nullKeys || b.Column(bk).NullN() > 0
		}
		for ci, gd := range s.dicts {
			if err := gd.add(b.Column(j.Cols[ci])); err != nil {
				failed = err
			}
		}
		pbs, err := part.Split(c, b)
		b.Release()
		if err != nil {
			failed = err
			continue
		}
		for pt, pb := range pbs {
			if pb == nil {
				continue
			}
			n := gqmem.BatchBytes(pb)
			s.rows[pt] += int(pb.NumRows())
			s.bytes[pt] += n
			jr.toHost.Add(n)
			s.parts[pt].Append(pb)
		}
	}
	if failed == nil {
		failed = c.Err()
	}
	for _, gd := range s.dicts {
		gd.finish(c)
	}
	if failed != nil {
		s.close()
		return nil, failed
	}
	return s, nil
}

// loadPass puts the tables of pass i's partitions of the partitioned
// joins on the device, in p's builds.
func (a *GPUAggregate) loadPass(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, i int) error {
	jr := p.grace
	jr.lo, jr.hi = jr.groups[i][0], jr.groups[i][1]
	for x, k := range jr.set {
		s := jr.sides[x]
		var bs []arrow.RecordBatch
		for pt := jr.lo; pt < jr.hi; pt++ {
			if s.parts[pt].Spilled() > 0 {
				jr.spilled.Add(1)
			}
			got, err := s.parts[pt].Take(c.Alloc)
			// The partition stays for later passes and retries: a new
			// list of the same batches, spillable again.
			s.parts[pt] = gqmem.NewSpillableBatches(c.Mem, c.Stats, a.stages.Build(k).Schema(), gracePartPriority)
			for _, b := range got {
				b.Retain()
				s.parts[pt].Append(b)
			}
			bs = append(bs, got...)
			if err != nil {
				exec.ReleaseBatches(bs)
				return err
			}
		}
		for _, b := range bs {
			jr.upBytes.Add(gqmem.BatchBytes(b))
		}
		db, err := a.batchesBuild(c, q, k, a.firstCol(k), bs, s.dicts)
		exec.ReleaseBatches(bs)
		if err != nil {
			return &joinBuildErr{err}
		}
		db.allRows, db.nullKeys = s.allRows, s.nullKeys
		p.builds[k] = db
		if a.stages.Join(k).Type == expr.JoinSingle && !db.table.Unique {
			return errs.New(errs.Unsupported, "GPU join: a scalar subquery's build side has repeated keys")
		}
	}
	return nil
}

// unloadPass frees the pass's tables.
func (a *GPUAggregate) unloadPass(p *gpuPipeline) {
	for _, k := range p.grace.set {
		if b := p.builds[k]; b != nil {
			b.free()
			p.builds[k] = nil
		}
	}
}

// graceChunks runs the chunks of dt through p, a grace join's pipeline,
// into sink (which adds the end stage's rows; stop: it is full), rows
// counting the chunks' rows. First every chunk runs up to the first
// partitioned join, and the rows that reach it — the slots it and the
// steps after it read — go to host memory, hashed by its probe keys
// into the partitions the build sides were hashed into; then per pass
// the pass's build tables go on the device, and each of its partitions'
// rows runs through the rest of the pipeline.
func (a *GPUAggregate) graceChunks(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, dt *tableView, codeCols []int, dicts []*devDict, rows *atomic.Int64,
	sink func(wq *arrowgpu.Queue, v *arrowgpu.Batch) (stop bool, err error)) error {
	jr := p.grace
	k := jr.set[0]
	probe := &graceProbe{parts: make([]*gqmem.SpillableBatches, joinGraceParts)}
	defer probe.close()
	// The slots join k and the steps after it read that the rows have
	// before it: pipeline columns of the scan and earlier joins, and
	// codes of their string group keys.
	first, w := a.firstCol(k), a.width()
	for sl, need := range p.needAfter[k] {
		if need && (sl < first || sl >= w && a.dictOf[sl-w] < first) {
			probe.slots = append(probe.slots, sl)
		}
	}
	g := a.stages.Scan().GPU
	err := dt.each(c, g, q, codeCols, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
		view, err := a.chunkBatch(ch, dicts)
		if err != nil {
			return false, err
		}
		rows.Add(int64(ch.rows))
		v, release, _, err := a.pipelineRange(c, wq, p, view, 0, k+1, 0)
		if err != nil || v == nil {
			return false, err
		}
		defer release()
		return false, a.graceProbeRows(c, wq, jr, probe, v, a.stages.Join(k).ProbeKeys)
	})
	if err != nil {
		return &graceProbeErr{err}
	}
	end := a.stages.NumJoins() + 1
	for i := 0; i < len(jr.groups); i++ {
		if err := a.loadPass(c, q, p, i); err != nil {
			a.unloadPass(p)
			// A pass whose tables find no room is split in two, its
			// rows not run yet: the passes before it may have sent
			// theirs (GPUJoinRows), so the run cannot start again.
			lo, hi := jr.groups[i][0], jr.groups[i][1]
			if hi-lo < 2 || !errors.Is(err, errs.ResourcesExhausted) {
				return err
			}
			mid := (lo + hi) / 2
			jr.groups[i][1] = mid
			jr.groups = slices.Insert(jr.groups, i+1, [2]int{mid, hi})
			i--
			continue
		}
		stop, err := a.gracePassRows(c, q, p, probe, k, end, sink)
		a.unloadPass(p)
		jr.passes.Add(1)
		if err != nil || stop {
			return err
		}
	}
	return nil
}

// graceProbe is the probe side's rows at the first partitioned join, in
// host partitions: their slots (pipeline slots, in order) and per
// partition its batches of those slots.
type graceProbe struct {
	slots []int
	mu    sync.Mutex
	parts []*gqmem.SpillableBatches // nil: no row yet
}

func (gp *graceProbe) close() {
	for _, sb := range gp.parts {
		if sb != nil {
			sb.Close()
		}
	}
}

// graceProbeRows hashes v's rows by their columns keys into the
// partitions and brings their slots to host memory: one gather grouping
// them by partition, one download, and a batch of each partition's rows.
func (a *GPUAggregate) graceProbeRows(c *exec.Context, q *arrowgpu.Queue, jr *joinGraceRun, gp *graceProbe, v *arrowgpu.Batch, keys []int) error {
	kc := make([]*arrowgpu.Column, len(keys))
	for i, pk := range keys {
		kc[i] = v.Cols[pk]
	}
	perm, offs, err := q.HashPartition(kc, arrowgpu.Buffer{}, v.Len, joinGraceParts)
	if err != nil {
		return err
	}
	defer perm.Free()
	cols := make([]*arrowgpu.Column, len(gp.slots))
	for x, sl := range gp.slots {
		if cols[x] = v.Cols[sl]; cols[x] == nil {
			return errs.New(errs.Internal, "GPU grace join: slot %d of the probe rows is missing", sl)
		}
	}
	got, err := q.GatherMany(cols, perm, v.Len, false)
	if err != nil {
		return err
	}
	defer freeColumns(got)
	fields := make([]arrow.Field, len(got))
	for x, col := range got {
		fields[x] = arrow.Field{Name: fmt.Sprintf("slot%d", gp.slots[x]), Type: col.Type, Nullable: true}
	}
	before := q.BytesToHost
	b, err := q.DownloadBatch(&arrowgpu.Batch{Len: v.Len, Cols: got, Schema: arrow.NewSchema(fields, nil)}, c.Alloc)
	jr.probeToHost.Add(q.BytesToHost - before)
	if err != nil {
		return err
	}
	defer b.Release()
	jr.probeRows.Add(b.NumRows())
	for pt := range joinGraceParts {
		lo, hi := int64(offs[pt]), int64(offs[pt+1])
		if hi == lo {
			continue
		}
		pb, err := compactRows(c, b, lo, hi)
		if err != nil {
			return err
		}
		gp.mu.Lock()
		if gp.parts[pt] == nil {
			gp.parts[pt] = gqmem.NewSpillableBatches(c.Mem, c.Stats, pb.Schema(), gracePartPriority)
		}
		sb := gp.parts[pt]
		gp.mu.Unlock()
		sb.Append(pb)
	}
	return nil
}

// graceProbePiece is the most probe rows a pass uploads at once, and
// graceProbeMinPiece the fewest it cuts a piece down to.
const (
	graceProbePiece    = 1 << 18
	graceProbeMinPiece = 1 << 10
)

// gracePassRows runs the probe rows of the running pass's partitions
// through the pipeline from the first partitioned join k to its end
// (step end) into sink, in pieces of at most jr.piece rows. A piece whose
// upload or pipeline finds no device memory, before it reached sink, is
// cut in half, and so are the pieces after it: its rows are on the host
// and nothing of it went out, so only it runs again, not the whole grace
// join (whose retry would read the probe side again).
func (a *GPUAggregate) gracePassRows(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, gp *graceProbe, k, end int,
	sink func(*arrowgpu.Queue, *arrowgpu.Batch) (bool, error)) (bool, error) {
	jr := p.grace
	if jr.piece == 0 {
		jr.piece = graceProbePiece
	}
	var pending []arrow.RecordBatch
	defer func() { exec.ReleaseBatches(pending) }()
	// piece runs bs; sent says whether its rows reached sink.
	piece := func(bs []arrow.RecordBatch) (stop, sent bool, err error) {
		n := rowsOf(bs)
		b := &arrowgpu.Batch{Len: n, Cols: make([]*arrowgpu.Column, len(p.needAfter[k]))}
		defer b.Free()
		before := q.BytesToDevice
		for x, sl := range gp.slots {
			arrs := make([]arrow.Array, len(bs))
			for i, r := range bs {
				arrs[i] = r.Column(x)
			}
			col, _, err := uploadConcat(q, bs[0].Schema().Field(x).Type, arrs, c.Alloc)
			if err != nil {
				return false, false, err
			}
			b.Cols[sl] = col
		}
		jr.probeToDevice.Add(q.BytesToDevice - before)
		v, release, _, err := a.pipelineRange(c, q, p, b, k+1, end, 0)
		if err != nil || v == nil {
			return false, false, err
		}
		defer release()
		stop, err = sink(q, v)
		return stop, true, err
	}
	// run runs the pending batches, in pieces of at most jr.piece rows
	// (at least a batch each).
	run := func() (bool, error) {
		for len(pending) > 0 {
			take, rows := 1, int(pending[0].NumRows())
			for take < len(pending) && rows+int(pending[take].NumRows()) <= jr.piece {
				rows += int(pending[take].NumRows())
				take++
			}
			stop, sent, err := piece(pending[:take])
			if err != nil && !sent && take > 1 && jr.piece > graceProbeMinPiece && errors.Is(err, errs.ResourcesExhausted) && c.Err() == nil {
				jr.piece = max(rows/2, graceProbeMinPiece)
				continue
			}
			exec.ReleaseBatches(pending[:take])
			pending = pending[take:]
			if err != nil || stop {
				return stop, err
			}
		}
		return false, nil
	}
	for pt := jr.lo; pt < jr.hi; pt++ {
		sb := gp.parts[pt]
		if sb == nil {
			continue
		}
		gp.parts[pt] = nil
		if sb.Spilled() > 0 {
			jr.spilled.Add(1)
		}
		err := sb.ForEach(c.Alloc, func(b arrow.RecordBatch) error {
			if len(pending) > 0 && rowsOf(pending)+int(b.NumRows()) > jr.piece {
				if stop, err := run(); err != nil || stop {
					b.Release()
					return cmp.Or(err, errGraceStop)
				}
			}
			pending = append(pending, b)
			return nil
		})
		if errors.Is(err, errGraceStop) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
	return run()
}

// errGraceStop ends reading a partition when the sink is full.
var errGraceStop = errors.New("grace join stopped")

// joinGraceStats is the grace join's line in EXPLAIN ANALYZE, or nothing
// when it did not run.
func (a *GPUAggregate) joinGraceStats(c *exec.Context) []exec.Stat {
	jr := a.joinGraceState(c)
	if !jr.on {
		return nil
	}
	why := jr.why
	if jr.onePass {
		why += "; the build sides as filtered fit in one pass, the probe side not partitioned"
	}
	joins := make([]string, len(jr.set))
	for i, k := range jr.set {
		joins[i] = fmt.Sprint(k + 1)
	}
	return []exec.Stat{{Name: "grace join", Unit: "text", Text: fmt.Sprintf(
		"grace join, %d partitions (joins %s in %d passes; build %d rows, %s to host, %s back; probe %d rows, %s to host, %s back; %d partitions from disk; after: %s)",
		joinGraceParts, strings.Join(joins, ","), jr.passes.Load(), jr.buildRows.Load(), gqmem.FormatBytes(jr.toHost.Load()),
		gqmem.FormatBytes(jr.upBytes.Load()), jr.probeRows.Load(), gqmem.FormatBytes(jr.probeToHost.Load()),
		gqmem.FormatBytes(jr.probeToDevice.Load()), jr.spilled.Load(), why)}}
}
