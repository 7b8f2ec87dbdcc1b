package engine

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
	"gq/catalog"
)

// The device's join pipelines (a GPUAggregate running joins) give the
// CPU's results on TPC-H, on the GPU when the machine has one, else on
// gqemu: inner joins with build keys unique (lookups) or not (q07, q09,
// q10, q12: every matching pair), q04's semi join, q13's left join, q21's
// semi and anti joins with a condition on each pair, build sides that are
// joins themselves flattened into the pipeline (q03, q05, q07, q08, q18,
// q21) or swapped with the probe side (q09, q10): every join on the
// device, q16's NOT IN and count(DISTINCT) too; joins with no aggregation
// above them emit their rows from the device (GPUJoinRows: q02, q11, q20);
// scalar subqueries' single joins (q02, q17, q20); and nothing falls back
// to the CPU.
func TestGPUJoinPipeline(t *testing.T) {
	if !arrowgpu.DriverPresent() {
		if err := emulator.Enable(); err != nil {
			t.Skip("no GPU and no emulator: ", err)
		}
	}
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warned []string
	gpu := New(cat, Options{Device: "gpu", FallbackMode: "warn", Warn: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		warned = append(warned, s)
	}})
	if gpu.gpuErr != nil {
		t.Skip(gpu.gpuErr)
	}
	cpu := New(cat, Options{Device: "cpu"})
	run := func(e *Engine, sql string) []string {
		t.Helper()
		res, err := e.Query(context.Background(), sql)
		if err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
		defer res.Release()
		return resultLines(res)
	}
	for _, q := range []struct {
		name  string
		joins int
	}{{"q03", 2}, {"q04", 1}, {"q05", 5}, {"q07", 5}, {"q08", 7}, {"q09", 5}, {"q10", 3}, {"q12", 1}, {"q13", 1}, {"q14", 1}, {"q16", 2}, {"q18", 3}, {"q19", 1}, {"q21", 5}, {"q02", 9}, {"q11", 3}, {"q17", 3}, {"q20", 6}} {
		b, err := os.ReadFile("../testdata/tpch/queries/" + q.name + ".sql")
		if err != nil {
			t.Fatal(err)
		}
		sql := strings.TrimSuffix(strings.TrimSpace(string(b)), ";")
		plan := strings.Join(run(gpu, "explain "+sql), "\n")
		if got := strings.Count(plan, "⋈"); got != q.joins {
			t.Errorf("%s: %d joins on the device, want %d:\n%s", q.name, got, q.joins, plan)
		}
		mu.Lock()
		warned = nil
		mu.Unlock()
		want, got := run(cpu, sql), run(gpu, sql)
		if !slices.Equal(got, want) {
			t.Errorf("%s: GPU\n%s\nCPU\n%s", q.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		mu.Lock()
		if slices.ContainsFunc(warned, func(w string) bool { return strings.Contains(w, "runs on the CPU:") }) {
			t.Errorf("%s: fell back to the CPU: %q", q.name, warned)
		}
		mu.Unlock()
	}
}
