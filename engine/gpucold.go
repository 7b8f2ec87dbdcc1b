package engine

import (
	"fmt"

	"gq/catalog"
	"gq/exec"
)

// DefaultGPUColdRowsPerThread is Options.GPUColdRowsPerThread's default
// in a one-shot process (gq -c, gq -f): below it, the CPU answers a query
// over tables not yet in the device cache sooner than the device can be
// opened, filled and closed again. The CPU engine reads and aggregates a
// few million rows a second per thread (TPC-H q01); the device costs a
// fixed few hundred milliseconds to open and release, and its load reads
// the same Parquet pages the CPU would — so it pays only where the CPU's
// own work is longer than that fixed cost.
const DefaultGPUColdRowsPerThread = 2_000_000

// coldOnCPU says why plan n runs on the CPU although Device is "gpu" or
// "auto": in a process that runs one script (GPUColdRowsPerThread > 0),
// the tables its scans would load into the device cache, those not there
// yet, hold fewer rows than GPUColdRowsPerThread × Threads. "" when the
// plan goes to the GPU.
func (e *Engine) coldOnCPU(n exec.Node) string {
	per := e.opts.GPUColdRowsPerThread
	if per <= 0 {
		return ""
	}
	seen := map[catalog.Table]bool{}
	var rows int64
	known := true
	var walk func(exec.Node)
	walk = func(n exec.Node) {
		if s, ok := n.(*exec.Scan); ok && !seen[s.Table] {
			seen[s.Table] = true
			if !e.gpu.Holds(s.Table) {
				if r := s.Table.Stats().RowCount; r >= 0 {
					rows += r
				} else {
					known = false
				}
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	limit := per * int64(e.opts.Threads)
	// A plan that scans no table (select 1) has nothing to weigh: it
	// opens the device like any other, so that --device gpu fails
	// without one.
	if len(seen) == 0 || !known || rows >= limit {
		return ""
	}
	return fmt.Sprintf("the query runs on the CPU: its tables not yet in device memory hold %d rows, fewer than the %d (%d per thread, GQ_GPU_COLD_ROWS_PER_THREAD) a one-shot process loads to the GPU", rows, limit, per)
}
