package gpuexec

import (
	"time"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// Joins run from their build side. A semi or anti join whose build side
// is a large table of the device cache and whose probe rows are few
// (TPC-H q21's EXISTS and NOT EXISTS over lineitem: some 700K candidate
// rows at SF10 against 60M and 38M rows, whose builds took 12 and 21 ms
// on the H200; q04's 573K orders against 38M lineitem rows, 17 ms) is
// cheaper the other way round: a table of the probe rows' keys, and the
// build side's rows streamed against it, chunk by chunk, marking the
// probe rows that have a match.
//
// The rows reaching such a join are only known once the chunks have run,
// so a pipeline with candidates (fromBuildCandidates) defers their
// builds, runs its chunks up to the first of them and collects their
// rows (joinStash). If they stay few (fromBuildRatio), the collected rows
// go through the rest of the pipeline as one batch, each deferred join
// run from its build side when the rows are still few, else built then
// (joinStash.run); if they grow too many, the deferred joins are built
// and the chunks run again, as without candidates.

// fromBuildRatio is how many times the probe rows a build side must have
// for its join to run from it.
const fromBuildRatio = 4

// fromBuildCandidates marks the joins that may run from their build side
// (nil when none): semi and anti joins on keys (not NOT IN's null-aware
// ones), whose build side is a scan of the device cache of a table whose
// rows are known.
func (a *GPUAggregate) fromBuildCandidates() []bool {
	var marks []bool
	for k, j := range a.stages.Joins() {
		if j.Type != expr.JoinSemi && j.Type != expr.JoinAnti || j.NullAware || len(j.ProbeKeys) == 0 || a.buildRows(k) <= 0 {
			continue
		}
		if marks == nil {
			marks = make([]bool, a.stages.NumJoins())
		}
		marks[k] = true
	}
	return marks
}

// buildRows is the rows of the table join k's build side scans (0: not a
// scan of the device cache, or not known).
func (a *GPUAggregate) buildRows(k int) int64 {
	gs, _ := scanBuild(a.stages.Build(k))
	if gs == nil {
		return 0
	}
	return gs.CPU.Table.Stats().RowCount
}

// buildDeferred builds the deferred joins not built yet.
func (a *GPUAggregate) buildDeferred(c *exec.Context, p *gpuPipeline, deferred []bool) error {
	return a.runBuilds(c, p.builds, func(k int) bool { return deferred[k] && p.builds[k] == nil })
}

// fromBuild runs join k (a semi or anti join; first: the pipeline column
// of its first build column) over cur from its build side: a table of
// cur's keys; then per chunk of the build side's table in the device
// cache (streamed when over the budget for resident tables), its rows
// that pass the scan's device filter look up their keys there, each
// matching pair (passing On, if any) marks its row of cur; the rows of
// cur marked (anti: not marked) are kept. false when none is left.
func (a *GPUAggregate) fromBuild(c *exec.Context, q *arrowgpu.Queue, p *gpuPipeline, k, first int, cur *arrowgpu.Batch,
	keep func(arrowgpu.Buffer, int, []bool) error) (bool, error) {
	j := a.stages.Join(k)
	gs, proj := scanBuild(a.stages.Build(k))
	if gs == nil {
		return false, errs.New(errs.Internal, "GPU join %d: no build side to run from", k+1)
	}
	sc := gs.CPU
	g := gs.GPU
	st := &a.state(c).joins[k]
	t0 := time.Now()
	defer func() { st.buildNS.Add(int64(time.Since(t0))) }()
	st.fromBuild.Add(1)
	st.buildCached.Add(1)
	dt, loaded, err := gs.acquire(c, true)
	if err != nil {
		return false, err
	}
	defer g.cache.releaseView(dt)
	gs.state(c).toDevice.Add(loaded)
	keys := make([]*arrowgpu.Column, len(j.ProbeKeys))
	for i, pk := range j.ProbeKeys {
		keys[i] = cur.Cols[pk]
	}
	table, err := q.BuildJoinTable(keys, cur.Len)
	if err != nil {
		return false, err
	}
	defer table.Free()
	marks, err := q.NewMask(cur.Len)
	if err != nil {
		return false, err
	}
	defer marks.Free()
	var fused *arrowgpu.Fused
	if gs.DeviceFilter != nil {
		if fused, err = arrowgpu.GenerateFused(nil, gs.DeviceFilter); err != nil {
			return false, err
		}
	}
	// Per chunk: the build side's key columns, then the columns On reads
	// of it (by pipeline slot), and of cur.
	var onBuild, onCur []int
	if j.On != nil {
		for _, sl := range exec.ExprColumns(j.On, nil) {
			if sl >= first {
				onBuild = append(onBuild, sl)
			} else {
				onCur = append(onCur, sl)
			}
		}
	}
	nk := len(j.BuildKeys)
	err = dt.each(c, g, q, nil, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
		if ch.hostErr != nil {
			return false, ch.hostErr
		}
		cols := make([]*arrowgpu.Column, nk+len(onBuild))
		for x, bk := range j.BuildKeys {
			cols[x] = ch.col(buildCacheCol(sc, proj, bk))
		}
		for x, sl := range onBuild {
			cols[nk+x] = ch.col(buildCacheCol(sc, proj, j.Cols[sl-first]))
		}
		rows := ch.rows
		if fused != nil {
			view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, len(sc.Columns))}
			for p, o := range sc.Columns {
				view.Cols[p] = ch.col(o)
			}
			var err error
			if cols, rows, err = filterColumns(wq, fused, view, cols); err != nil || rows == 0 {
				return false, err
			}
			defer freeColumns(cols)
		}
		st.buildRows.Add(int64(rows))
		bi, ci, m, err := table.Expand(wq, cols[:nk], rows, false) // build side's rows, cur's rows
		if err != nil || m == 0 {
			return false, err
		}
		defer bi.Free()
		defer ci.Free()
		var pass *arrowgpu.Column
		if j.On != nil {
			// The condition's columns of each pair: cur's by the pair's
			// row of cur, the build side's by its row there.
			probe, build := make([]*arrowgpu.Column, len(cur.Cols)), make([]*arrowgpu.Column, len(cur.Cols))
			for _, sl := range onCur {
				probe[sl] = cur.Cols[sl]
			}
			for x, sl := range onBuild {
				build[sl] = cols[nk+x]
			}
			pairs, err := onPairs(wq, probe, build, ci, bi, m)
			if err != nil {
				return false, err
			}
			defer pairs.Free()
			if _, pass, err = wq.RunFused(p.ons[k], pairs); err != nil {
				return false, err
			}
			defer pass.Free()
		}
		return false, wq.MarkRowsInto(marks, ci, pass, m)
	})
	if err != nil {
		return false, err
	}
	if j.Type == expr.JoinAnti {
		if err := q.Invert(marks); err != nil {
			return false, err
		}
	}
	idx, n, err := q.Select(marks)
	if err != nil || n == 0 {
		return false, err
	}
	defer idx.Free()
	return true, keep(idx, n, p.needAfter[k+1])
}
