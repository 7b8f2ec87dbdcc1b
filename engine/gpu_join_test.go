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

// The device's join pipelines (a GPUAggregate running inner joins whose
// build keys are unique) give the CPU's results on TPC-H, on the GPU when
// the machine has one, else on gqemu; a build side with duplicate keys
// falls back to the CPU and says why.
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
		name     string
		joins    int
		fallback bool // build keys not unique
	}{{"q03", 1, false}, {"q05", 2, false}, {"q08", 3, false}, {"q14", 1, false}, {"q19", 1, false}, {"q10", 2, true}} {
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
		fellBack := slices.ContainsFunc(warned, func(w string) bool { return strings.Contains(w, "runs on the CPU") })
		notUnique := slices.ContainsFunc(warned, func(w string) bool { return strings.Contains(w, "build keys are not unique") })
		mu.Unlock()
		if fellBack != q.fallback || notUnique != q.fallback {
			t.Errorf("%s: warnings %q (want a fallback for duplicate build keys: %v)", q.name, warned, q.fallback)
		}
	}
}
