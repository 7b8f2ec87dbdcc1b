package gpuexec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	gqmem "gq/memory"
)

// The grace join: a GPUAggregate whose join build sides do not fit in
// device memory beside what the pipeline needs runs on the device in
// several passes instead of falling back to the CPU.
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
// adds up every pass's rows.
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
// keys land in one partition, where its table finds them. A join whose
// build side gives a string group key is not partitioned: its codes come
// from a dictionary made per table, which would differ between passes.
//
// It starts when the build sides' estimated tables pass half the device
// memory left (joinGraceBefore), or when a run without it runs out of
// device memory while its build sides are large (joinGraceable); a pass
// that runs out of memory starts again with passes of half the rows, up
// to joinGraceRetries times, past which the CPU twin runs.

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

// joinGraceRun is a grace join's state in one run of a GPUAggregate: the
// partitioned build sides (kept over the run's retries) and the figures
// EXPLAIN ANALYZE shows.
type joinGraceRun struct {
	on     bool
	why    string
	shrink int
	set    []int // the joins partitioned, in pipeline order
	sides  []*graceSide
	groups [][2]int // the passes' partitions [lo, hi)
	lo, hi int      // the running pass's

	passes, toHost, upBytes atomic.Int64
	buildRows               atomic.Int64
	probeIn, probeKept      atomic.Int64
	spilled                 atomic.Int64
}

// graceSide is one partitioned build side.
type graceSide struct {
	parts    []*gqmem.SpillableBatches
	rows     []int
	bytes    []int64
	allRows  int
	nullKeys bool
}

func (s *graceSide) close() {
	for _, sb := range s.parts {
		if sb != nil {
			sb.Close()
		}
	}
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
	first := a.firstCol(k)
	for _, d := range a.dictOf {
		if d >= first && d < first+len(j.Cols) {
			return "a string group key from its build side (coded per table)"
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
func (a *GPUAggregate) joinGraceBefore() string {
	g := a.stages.Scan().GPU
	if a.stages.NumJoins() == 0 || g.Wait() != nil || g.mem == nil {
		return ""
	}
	if set, _ := a.joinGraceSet(); set == nil {
		return ""
	}
	var need int64
	for k := range a.stages.Joins() {
		need += a.buildEstimate(k)
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

// joinGraced runs fn (a run of the aggregation), as a grace join when
// joinGraceBefore says so or when fn runs out of device memory and
// joinGraceable says so, retried with smaller passes when a grace join
// runs out of device memory. Its partitions are freed when the run ends.
func (a *GPUAggregate) joinGraced(c *exec.Context, fn func() error) error {
	jr := a.joinGraceState(c)
	if !jr.on {
		if why := a.joinGraceBefore(); why != "" {
			jr.on, jr.why = true, why
		}
	}
	for {
		err := fn()
		if err == nil || c.Err() != nil || !errors.Is(err, errs.ResourcesExhausted) {
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
		case jr.shrink < joinGraceRetries:
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
// run) and grouped into passes that fit the device memory left now.
func (a *GPUAggregate) attachGrace(c *exec.Context, p *gpuPipeline) error {
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
	jr.groups = jr.groups[:0]
	for lo := 0; lo < joinGraceParts; {
		hi := lo + 1
		for hi < joinGraceParts && jr.passBytes(lo, hi+1) <= budget {
			hi++
		}
		jr.groups = append(jr.groups, [2]int{lo, hi})
		lo = hi
	}
	p.grace = jr
	return nil
}

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
	s := &graceSide{parts: make([]*gqmem.SpillableBatches, joinGraceParts), rows: make([]int, joinGraceParts), bytes: make([]int64, joinGraceParts)}
	for pt := range s.parts {
		s.parts[pt] = gqmem.NewSpillableBatches(c.Mem, c.Stats, sch, gracePartPriority)
	}
	if gs, _ := scanBuild(build); gs != nil {
		gs.state(c).noJoinFilters.Store(true)
	}
	jr := a.joinGraceState(c)
	var first error
	for b := range build.Open(c) {
		if first != nil || b.NumRows() == 0 {
			b.Release()
			continue
		}
		s.allRows += int(b.NumRows())
		for _, bk := range j.BuildKeys {
			s.nullKeys = s.nullKeys || b.Column(bk).NullN() > 0
		}
		pbs, err := part.Split(c, b)
		b.Release()
		if err != nil {
			first = err
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
	if first == nil {
		first = c.Err()
	}
	if first != nil {
		s.close()
		return nil, first
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
		db, err := a.batchesBuild(c, q, k, a.firstCol(k), bs)
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

// passes runs fn once (without a grace join) or once per pass of p's
// grace join, its tables put on the device before and freed after; it
// stops early when fn asks to (a full table).
func (a *GPUAggregate) passes(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, fn func() (stop bool, err error)) error {
	if p == nil || p.grace == nil {
		_, err := fn()
		return err
	}
	for i := range p.grace.groups {
		if err := a.loadPass(c, q, p, i); err != nil {
			a.unloadPass(p)
			return err
		}
		stop, err := fn()
		a.unloadPass(p)
		p.grace.passes.Add(1)
		if err != nil || stop {
			return err
		}
	}
	return nil
}

// gracePartition keeps the rows of cur (keys: its columns of the
// partitioned joins' probe keys) whose keys hash into the running pass's
// partitions (keep gathers them); false when none does.
func (jr *joinGraceRun) gracePartition(q *arrowgpu.Queue, cur *arrowgpu.Batch, keys []int, keep func(arrowgpu.Buffer, int) error) (bool, error) {
	cols := make([]*arrowgpu.Column, len(keys))
	for i, pk := range keys {
		cols[i] = cur.Cols[pk]
	}
	n := cur.Len
	jr.probeIn.Add(int64(n))
	perm, offs, err := q.HashPartition(cols, arrowgpu.Buffer{}, n, joinGraceParts)
	if err != nil {
		return false, err
	}
	defer perm.Free()
	lo, hi := int(offs[jr.lo]), int(offs[jr.hi])
	jr.probeKept.Add(int64(hi - lo))
	switch {
	case hi == lo:
		return false, nil
	case hi-lo == n:
		return true, nil
	}
	idx := arrowgpu.Buffer{Ptr: perm.Ptr + arrowgpu.DevPtr(4*lo), Size: int64(4 * (hi - lo))}
	return true, keep(idx, hi-lo)
}

// joinGraceStats is the grace join's line in EXPLAIN ANALYZE, or nothing
// when it did not run.
func (a *GPUAggregate) joinGraceStats(c *exec.Context) []exec.Stat {
	jr := a.joinGraceState(c)
	if !jr.on {
		return nil
	}
	joins := make([]string, len(jr.set))
	for i, k := range jr.set {
		joins[i] = fmt.Sprint(k + 1)
	}
	return []exec.Stat{{Name: "grace join", Unit: "text", Text: fmt.Sprintf(
		"grace join, %d partitions (joins %s in %d passes; %d build rows, %s to host, %s back to the device, %d partitions from disk; probe rows %d→%d at the partition filter; after: %s)",
		joinGraceParts, strings.Join(joins, ","), jr.passes.Load(), jr.buildRows.Load(), gqmem.FormatBytes(jr.toHost.Load()),
		gqmem.FormatBytes(jr.upBytes.Load()), jr.spilled.Load(), jr.probeIn.Load(), jr.probeKept.Load(), jr.why)}}
}
