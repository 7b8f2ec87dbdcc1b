package engine

import (
	"strings"
	"sync"
	"testing"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
)

// nested.test on the GPU engine (a device or gqemu): operators over nested
// columns run on the CPU, saying so, and every answer is the CPU's.
func TestSQLLogicNestedGPU(t *testing.T) {
	if !arrowgpu.DriverPresent() {
		if err := emulator.Enable(); err != nil {
			t.Skip("no GPU and no emulator: ", err)
		}
	}
	var mu sync.Mutex
	var warned []string
	opts := Options{Device: "gpu", FallbackMode: "warn", Warn: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		warned = append(warned, s)
	}}
	e := newTestEngine(t, opts)
	gpuErr := e.gpuErr
	e.Close()
	if gpuErr != nil {
		t.Skip(gpuErr)
	}
	runTestFile(t, "../testdata/sql/nested.test", opts, false)
	mu.Lock()
	defer mu.Unlock()
	for _, w := range warned {
		if strings.Contains(w, "has type list") || strings.Contains(w, "has type struct") || strings.Contains(w, "has type map") {
			return
		}
	}
	t.Errorf("no CPU fallback named a nested column; warnings:\n%s", strings.Join(warned, "\n"))
}
