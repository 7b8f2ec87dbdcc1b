package exec

import (
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec/expr"
)

// GPUJoinRows is a join pipeline that emits rows: a scan and hash joins
// whose probe sides lead down to it (as a GPUAggregate runs them, minus
// the aggregation), for joins with no aggregation above them (TPC-H q02's
// and q20's, a query's joins under a top-N or a window). Per chunk of the
// scan the device filters the rows, runs the joins, evaluates Exprs (in
// one fused kernel, unless they are bare columns) and only the output rows
// come back.
//
// Pipe holds the scan, the joins and their build sides; its Keys are
// Exprs (the pipeline columns the output reads) and it has no aggregates
// — it runs none of its own. CPU is the same joins on the CPU (the
// fallback, taken only before the first row went out).
type GPUJoinRows struct {
	Pipe  *GPUAggregate
	Exprs []expr.Expr // over the pipeline columns
	Out   *arrow.Schema
	CPU   Node
	// TopN, when positive, is a top-N above (a Sort with a limit, which
	// still orders the rows) by output column Top.Col: each chunk brings
	// back only its rows that can be among the first TopN (SetTopN).
	TopN int
	Top  arrowgpu.TopKey

	fused                       *arrowgpu.Fused // Exprs, unless all are bare columns
	onCPU                       atomic.Bool
	rowsOut, toHost, devNS, ops atomic.Int64
}

// NewGPUJoinRows returns the node emitting exprs over the pipeline of
// scan and joins (their build sides: builds); an errs.Unsupported error
// says what the device lacks.
func NewGPUJoinRows(scan *GPUScan, joins []GPUJoin, builds []Node, exprs []expr.Expr, out *arrow.Schema, cpu Node) (*GPUJoinRows, error) {
	if scan.HostFilter != nil {
		return nil, errs.New(errs.Unsupported, "GPU joins: a filter the device lacks (%s)", scan.HostFilter)
	}
	pipe := &GPUAggregate{Scan: scan, Keys: exprs, Joins: joins, Builds: builds, Final: true, joinStats: make([]gpuJoinStats, len(joins))}
	for range exprs {
		pipe.dictOf = append(pipe.dictOf, -1)
	}
	for _, j := range joins {
		for _, f := range []expr.Expr{j.Filter, j.On} {
			if f != nil {
				if _, err := arrowgpu.GenerateFused(nil, f); err != nil {
					return nil, err
				}
			}
		}
	}
	r := &GPUJoinRows{Pipe: pipe, Exprs: exprs, Out: out, CPU: cpu}
	for _, e := range exprs {
		if _, ok := e.(*expr.Column); !ok {
			var err error
			if r.fused, err = arrowgpu.GenerateFused(exprs, nil); err != nil {
				return nil, err
			}
			break
		}
	}
	return r, nil
}

// SetTopN has each chunk bring back only its rows that a top-n by output
// column top.Col can keep (arrowgpu Queue.TopRows: those at least as good
// as the chunk's n-th best — a superset of the whole output's top n —
// NULLs placed as top says, NaNs always). An errs.Unsupported error (r
// unchanged) for a column without a device order.
func (r *GPUJoinRows) SetTopN(top arrowgpu.TopKey, n int) error {
	switch r.Out.Field(top.Col).Type.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.FLOAT64:
	default:
		return errs.New(errs.Unsupported, "GPU joins: a top-N by %s", r.Out.Field(top.Col).Type)
	}
	if r.TopN > 0 || n <= 0 {
		return errs.New(errs.Unsupported, "GPU joins: a second top-N")
	}
	r.TopN, r.Top = n, top
	return nil
}

func (r *GPUJoinRows) Schema() *arrow.Schema { return r.Out }
func (r *GPUJoinRows) Children() []Node      { return r.Pipe.Builds }
func (r *GPUJoinRows) Explain() string       { return "GPUJoinRows" }

// Device is where the joins ran (EXPLAIN ANALYZE).
func (r *GPUJoinRows) Device() string {
	if r.onCPU.Load() {
		return "CPU (fallback)"
	}
	return "GPU"
}

// AnalyzeStats reports the rows the scan fed the joins, bytes brought
// back, the time on the device and the joins' figures.
func (r *GPUJoinRows) AnalyzeStats() []Stat {
	a := r.Pipe
	return []Stat{
		{Name: "device rows", Value: a.rowsIn.Load()},
		{Name: "to device", Value: a.toDevice.Load(), Unit: "bytes"},
		{Name: "to host", Value: r.toHost.Load(), Unit: "bytes"},
		{Name: "device time", Unit: "text", Text: time.Duration(r.devNS.Load()).Round(time.Microsecond).String()},
		{Name: "device calls", Value: a.calls.Load()},
		{Name: "joins", Unit: "text", Text: a.joinStatsText()},
	}
}

func (r *GPUJoinRows) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	s := r.Pipe.Scan
	c.Go(func() error {
		defer close(out)
		sent, err := r.run(c, out)
		s.GPU.noteErr(err)
		if err != nil && !sent && gpuFallback(err) && c.Err() == nil {
			return s.runOnCPU(c, "GPU joins over "+s.CPU.Table.Name(), err, r.CPU, &r.onCPU, out)
		}
		return err
	})
	return out
}

// run sends the output rows chunk by chunk, up to gpuStreams chunks at
// once; sent reports whether any went.
func (r *GPUJoinRows) run(c *Context, out chan<- arrow.RecordBatch) (sent bool, err error) {
	a := r.Pipe
	s := a.Scan
	g := s.GPU
	start, calls := time.Now(), g.dv.Calls()
	defer func() {
		r.devNS.Add(int64(time.Since(start)))
		a.calls.Add(g.dv.Calls() - calls)
	}()
	sc := s.CPU
	dt, loaded, err := g.cache.acquire(c, sc.Table, sc.Columns)
	if err != nil {
		return false, err
	}
	defer g.cache.release(dt.entry)
	a.toDevice.Add(loaded)
	q, err := g.queue()
	if err != nil {
		return false, err
	}
	defer g.putQueue(q)
	pipe, err := a.prepareJoins(c, q)
	if err != nil {
		return false, err
	}
	defer pipe.free()
	w := a.width()
	var anySent atomic.Bool
	err = g.eachChunk(c, q, len(dt.chunks), func(wq *arrowgpu.Queue, i int) (bool, error) {
		ch := dt.chunks[i]
		view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, w)}
		for p, o := range sc.Columns {
			view.Cols[p] = dt.cols[o][i]
		}
		a.rowsIn.Add(int64(ch.rows))
		cur, release, err := a.pipelineBatch(wq, pipe, view)
		if err != nil || cur == nil {
			return false, err
		}
		b, err := r.download(c, wq, cur)
		release()
		if err != nil {
			return false, err
		}
		r.rowsOut.Add(b.NumRows())
		anySent.Store(true)
		if !sendSlices(c, out, b) {
			return true, c.Err()
		}
		return false, nil
	})
	return anySent.Load(), err
}

// download evaluates the output over cur (the pipeline's batch) and
// brings it to the host.
func (r *GPUJoinRows) download(c *Context, q *arrowgpu.Queue, cur *arrowgpu.Batch) (arrow.RecordBatch, error) {
	cols := make([]*arrowgpu.Column, len(r.Exprs))
	if r.fused != nil {
		outs, _, err := q.RunFused(r.fused, cur)
		if err != nil {
			return nil, err
		}
		defer func() {
			for _, o := range outs {
				o.Free()
			}
		}()
		copy(cols, outs)
	} else {
		for k, e := range r.Exprs {
			cols[k] = cur.Cols[e.(*expr.Column).Index]
		}
	}
	n := cur.Len
	if r.TopN > 0 && n > r.TopN {
		idx, m, err := q.TopRows(cols[r.Top.Col], r.Top.Desc, r.Top.NullsFirst, r.TopN)
		if err != nil {
			return nil, err
		}
		if idx.Ptr != 0 { // else every row
			top, err := q.GatherMany(cols, idx, m, false)
			idx.Free()
			if err != nil {
				return nil, err
			}
			defer func() {
				for _, c := range top {
					c.Free()
				}
			}()
			cols, n = top, m
		}
	}
	// The device's types (a cache's Int32 dictionary codes never come
	// here: no codes are made), then the output's.
	fields := make([]arrow.Field, len(cols))
	for k, col := range cols {
		fields[k] = arrow.Field{Name: r.Out.Field(k).Name, Type: col.Type, Nullable: true}
	}
	before := q.BytesToHost
	b, err := q.DownloadBatch(&arrowgpu.Batch{Len: n, Cols: cols, Schema: arrow.NewSchema(fields, nil)}, c.Alloc)
	r.toHost.Add(q.BytesToHost - before)
	if err != nil {
		return nil, err
	}
	return conform(b, r.Out)
}
