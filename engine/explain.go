package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"gq/parser/sqlparser"

	"gq/exec"
	"gq/expr"
	gqmem "gq/memory"
	"gq/physical"
)

// ExplainKey is the schema metadata key that marks a result as plan text
// (EXPLAIN, EXPLAIN ANALYZE): a terminal client prints its one value as
// is, rather than boxed with escaped newlines.
const ExplainKey = "gq.explain"

// IsExplain reports whether a result's schema is plan text.
func IsExplain(s *arrow.Schema) bool {
	if s == nil {
		return false
	}
	_, ok := s.Metadata().GetValue(ExplainKey)
	return ok
}

// explainResult is text as a one-row, one-column "plan" result marked
// with ExplainKey.
func explainResult(text string) *Result {
	md := arrow.NewMetadata([]string{ExplainKey}, []string{"true"})
	schema := arrow.NewSchema([]arrow.Field{{Name: "plan", Type: expr.String}}, &md)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer bld.Release()
	bld.Field(0).(*array.StringBuilder).Append(strings.TrimRight(text, "\n"))
	return &Result{Schema: schema, Batches: []arrow.RecordBatch{bld.NewRecordBatch()}}
}

// explainAnalyze runs the query with every operator instrumented
// (exec.Instrument), discards its rows and returns the plan annotated with
// what each operator did. Under ranks every rank runs it; rank 0's figures
// are shown.
func (e *Engine) explainAnalyze(ctx context.Context, ast sqlparser.Statement) (*Result, error) {
	_, root, err := e.plan(ctx, ast)
	root, ops, err := e.distribute(ctx, root, err)
	if err != nil {
		return nil, e.agree(ctx, err)
	}
	a := exec.Instrument(trackProgress(ctx, root))
	if e.gpu != nil {
		// The pool is the process's: with other queries running at the
		// same time, their device memory counts in this peak too.
		e.gpu.ResetPoolPeak()
	}
	var calls0 int64
	var dev0 deviceCounts
	if e.gpu != nil {
		calls0 = e.gpu.Calls()
		dev0 = e.deviceCounts()
	}
	copts, qa, qs := e.queryContext(exec.Options{Threads: e.opts.Threads, BatchSize: e.opts.BatchSize})
	c := exec.NewContext(ctx, copts)
	var rows int64
	start := time.Now()
	err = exec.Run(c, a, func(b arrow.RecordBatch) error {
		rows += b.NumRows()
		return nil
	})
	total := time.Since(start)
	e.finishQuery(qa, qs)
	if err != nil {
		e.abortRanks(ops, err)
	}
	if err = e.agree(ctx, err); err != nil {
		return nil, err
	}
	return explainResult(physical.ExplainAnalyze(a, total, rows) + memoryLine(qs) + e.deviceLine(calls0, dev0)), nil
}

// deviceCounts are the device's running counts that EXPLAIN ANALYZE
// shows the query's share of: tables the cache evicted and their bytes,
// streamed chunks on the device and on the CPU.
type deviceCounts struct{ evictions, evicted, streamed, onHost int64 }

func (e *Engine) deviceCounts() deviceCounts {
	var d deviceCounts
	d.evictions, d.evicted = e.gpu.Evictions()
	d.streamed, d.onHost = e.gpu.StreamedChunks()
	return d
}

// deviceLine is EXPLAIN ANALYZE's summary of the device ("" on the CPU):
// the pool's peak during the query, its size, and the table cache; the
// device calls since calls0 and the evictions and streamed chunks since
// dev0 (with other queries running, theirs count).
func (e *Engine) deviceLine(calls0 int64, dev0 deviceCounts) string {
	if e.gpu == nil {
		return ""
	}
	d := e.deviceCounts()
	cache := fmt.Sprintf("Device table cache: %d tables evicted (%s dropped from the DEVICE tier, reloaded from their files on use); %d chunks streamed through the device, %d on the CPU for want of device memory\n",
		d.evictions-dev0.evictions, physical.HumanBytes(d.evicted-dev0.evicted), d.streamed-dev0.streamed, d.onHost-dev0.onHost)
	st := e.gpu.PoolStats()
	tables, bytes := e.gpu.Cached()
	opened := ""
	if d := e.gpu.OpenTime(); d > 0 {
		opened = fmt.Sprintf("; the device opened in %s (driver, NVRTC, context, pool: in the background of the query that first used it)", d.Round(100*time.Microsecond))
	}
	return fmt.Sprintf("Device memory: peak %s in use of a %s pool; table cache %d tables, %s\n%sDevice calls: %d%s\n",
		physical.HumanBytes(st.Peak), physical.HumanBytes(st.Size), tables, physical.HumanBytes(bytes), cache, e.gpu.Calls()-calls0, opened)
}

// memoryLine summarises a query's memory statistics for EXPLAIN ANALYZE:
// peak bytes allocated and reserved, and each kind of spill that happened.
func memoryLine(qs *gqmem.Statistics) string {
	snap := qs.Snapshot()
	parts := []string{"peak " + physical.HumanBytes(int64(snap[gqmem.StatPeakHostBytes].Value)) + " allocated"}
	if r := snap[gqmem.StatPeakReservedBytes].Value; r > 0 {
		parts = append(parts, physical.HumanBytes(int64(r))+" reserved")
	}
	var names []string
	for name := range snap {
		if strings.HasPrefix(name, "spill-bytes-") {
			names = append(names, name)
		}
	}
	// Spills first, then what was read back (the directions towards the
	// device), each in name order.
	readBack := func(name string) bool {
		return name == gqmem.StatSpillBytesDiskToHost || name == gqmem.StatSpillBytesHostToDevice
	}
	sort.Slice(names, func(i, j int) bool {
		if ri, rj := readBack(names[i]), readBack(names[j]); ri != rj {
			return rj
		}
		return names[i] < names[j]
	})
	spilled := false
	for _, name := range names {
		if v := snap[name].Value; v > 0 {
			verb := "spilled "
			if readBack(name) {
				verb = "read back "
			}
			parts = append(parts, verb+physical.HumanBytes(int64(v))+" "+strings.TrimPrefix(name, "spill-bytes-"))
			spilled = true
		}
	}
	if !spilled {
		parts = append(parts, "nothing spilled")
	}
	return "Memory: " + strings.Join(parts, ", ") + "\n"
}
