package arrowgpu

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// The GPU tests share one device, pool and queue, set up here. Without a
// driver, device or NVRTC they skip, printing why; the CPU tests run
// regardless. On a GPU machine without Go, run the binary that
// `make gpu-bundle` builds: build/gpu/arrowgpu.test -test.v (make test-gpu)

var gpu struct {
	skip    string // why GPU tests skip; "" when a GPU is ready
	noNVRTC string // why kernel tests skip; "" when NVRTC loaded
	dv      *Device
	pool    *Pool
	q       *Queue
}

// gpuPoolSize is the tests' device reservation.
const gpuPoolSize = 2 << 30

// TestMain is the tests' edge: the GQ_* variables (gqemu's GQ_LIBCUDA,
// GQ_LIBNVRTC and GQ_KERNEL_CACHE among them) configure arrowgpu as gq's
// do.
func TestMain(m *testing.M) {
	flag.Parse()
	Configure(ConfigFromEnv(os.LookupEnv))
	setupGPU()
	code := m.Run()
	if gpu.q != nil {
		gpu.q.Close()
		if st := gpu.pool.Stats(); st.InUse != 0 {
			fmt.Printf("arrowgpu: device memory leaked by tests: %v\n", st)
			code = 1
		}
		gpu.pool.Close()
		gpu.dv.Close()
	}
	os.Exit(code)
}

func setupGPU() {
	d, err := Load()
	if err != nil {
		gpu.skip = err.Error()
		fmt.Printf("arrowgpu: GPU tests skip: %v\n", err)
		return
	}
	fmt.Printf("arrowgpu: driver %s (CUDA %s), %d device(s)\n", d.Path(), d.Version(), d.DeviceCount())
	// Kernels need NVRTC; memory and copies do not, so those tests still
	// run without it.
	if c, err := LoadNVRTC(); err != nil {
		gpu.noNVRTC = err.Error()
		fmt.Printf("arrowgpu: kernel tests skip: %v\n", err)
	} else {
		fmt.Printf("arrowgpu: NVRTC %s (%s), architectures %v\n", c.Version(), c.Path(), c.Archs)
	}
	// A fresh kernel cache, so the tests time a cold compile and then a hit.
	if _, ok := os.LookupEnv("GQ_KERNEL_CACHE"); !ok {
		dir, err := os.MkdirTemp("", "gq-kernels-")
		if err == nil {
			c := Configured()
			c.KernelCache = dir
			Configure(c)
		}
	}
	if gpu.dv, err = d.Open(0); err != nil {
		gpu.skip = err.Error()
		fmt.Printf("arrowgpu: GPU tests skip: %v\n", err)
		return
	}
	fmt.Printf("arrowgpu: %v\n", gpu.dv.Info())
	if gpu.pool, err = NewPool(gpu.dv, gpuPoolSize, nil); err != nil {
		gpu.skip = "pool: " + err.Error()
		fmt.Printf("arrowgpu: GPU tests skip: %v\n", gpu.skip)
		gpu.dv.Close()
		gpu.dv = nil
		return
	}
	if gpu.q, err = gpu.dv.NewQueue(gpu.pool, 0); err != nil {
		gpu.skip = "queue: " + err.Error()
		fmt.Printf("arrowgpu: GPU tests skip: %v\n", gpu.skip)
		gpu.pool.Close()
		gpu.dv.Close()
		gpu.q = nil
	}
}

// needGPU skips t without a GPU and fails it if the pool holds more at the
// end than at the start (a device memory leak).
func needGPU(t *testing.T) *Queue {
	t.Helper()
	if gpu.skip != "" {
		t.Skip("no GPU: " + gpu.skip)
	}
	before := gpu.pool.Stats().InUse
	t.Cleanup(func() {
		if after := gpu.pool.Stats().InUse; after != before {
			t.Errorf("device memory in use went from %d to %d bytes", before, after)
		}
	})
	return gpu.q
}

// needKernels is needGPU for tests that compile kernels (NVRTC).
func needKernels(t *testing.T) *Queue {
	t.Helper()
	q := needGPU(t)
	if gpu.noNVRTC != "" {
		t.Skip("no NVRTC: " + gpu.noNVRTC)
	}
	return q
}
