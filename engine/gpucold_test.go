package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
)

// In a one-shot process (GPUColdRowsPerThread set), a query over tables
// not in device memory that hold fewer rows than the threshold runs on
// the CPU, saying so under fallback_mode=warn; above it the GPU takes its
// operators. Answers are the same either way.
func TestGPUColdRule(t *testing.T) {
	if !arrowgpu.DriverPresent() {
		if err := emulator.Enable(); err != nil {
			t.Skip("no GPU and no emulator: ", err)
		}
	}
	ctx := context.Background()
	var answers []string
	for _, tc := range []struct {
		perThread int64
		onGPU     bool
	}{{1000, false}, {10, true}} {
		var mu sync.Mutex
		var warned []string
		e := newTestEngine(t, Options{Device: "gpu", FallbackMode: "warn", Threads: 2, GPUColdRowsPerThread: tc.perThread,
			Warn: func(s string) { mu.Lock(); warned = append(warned, s); mu.Unlock() }})
		if err := e.Exec(ctx, "create table cold as select x, x % 7 as k from range(1500) t(x)", func(r *Result) error { r.Release(); return nil }); err != nil {
			t.Fatal(err)
		}
		const q = "select k, sum(x) from cold group by k order by k"
		plan := queryText(t, e, ctx, "explain "+q)
		if got := strings.Contains(plan, "GPU"); got != tc.onGPU {
			t.Errorf("%d rows per thread: plan on the GPU %v, want %v:\n%s", tc.perThread, got, tc.onGPU, plan)
		}
		answers = append(answers, queryText(t, e, ctx, q))
		mu.Lock()
		said := strings.Contains(strings.Join(warned, "\n"), "the query runs on the CPU: its tables not yet in device memory hold 1500 rows")
		mu.Unlock()
		if said == tc.onGPU {
			t.Errorf("%d rows per thread: warned of the CPU %v; warnings %q", tc.perThread, said, warned)
		}
		e.Close()
	}
	if answers[0] != answers[1] {
		t.Errorf("CPU answer %q, GPU answer %q", answers[0], answers[1])
	}
}
