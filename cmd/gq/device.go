package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"gq/arrowgpu"
	"gq/engine"
)

// deviceFlag declares --device (env GQ_DEVICE): where operators run, and
// --fallback-mode (env GQ_FALLBACK_MODE): what happens to operators the GPU
// cannot run.
func deviceFlag(fs *flag.FlagSet) (device, fallback *string) {
	def := getenv("GQ_DEVICE")
	if def == "" {
		def = "auto"
	}
	return fs.String("device", def, "where to run: auto (GPU when usable, else CPU), cpu, or gpu (fail without one) (env GQ_DEVICE)"),
		fs.String("fallback-mode", getenv("GQ_FALLBACK_MODE"), "operators the GPU cannot run: warn (run them on the CPU, say so; the default with --device gpu), raise (fail the query) or silent (the default with auto) (env GQ_FALLBACK_MODE)")
}

// driverPresent is arrowgpu.DriverPresent, replaceable in tests.
var driverPresent = arrowgpu.DriverPresent

// probeGPU is arrowgpu.Probe, replaceable in tests.
var probeGPU = func() (fmt.Stringer, error) { return arrowgpu.Probe() }

// checkDevice resolves --device and returns a non-zero exit status when
// gq cannot run as asked. "gpu" without a usable GPU fails with what is
// missing (driver, device or NVRTC); "auto" quietly uses the CPU.
//
// On the GPU, the operators physical.PlaceOnGPU can place run on the
// device (EXPLAIN marks each [GPU] or [CPU]) and the rest on the CPU;
// "gpu" says so.
func checkDevice(mode string, stderr io.Writer) int {
	switch mode {
	case "cpu", "auto":
		return 0
	case "gpu":
		// Opening the device (driver initialisation, context, pool) is
		// left to the engine, in the background of the first query that
		// uses it; here only whether a driver library is there at all, so
		// that a machine without one fails at once, saying what is missing.
		if !driverPresent() {
			if _, err := probeGPU(); err != nil {
				fmt.Fprintf(stderr, "Error: --device gpu: %v\n", err)
				return exitQuery
			}
		}
		fmt.Fprintln(stderr, "gq: --device gpu: operators run on the GPU where they can (EXPLAIN marks each), the rest on the CPU")
		return 0
	}
	fmt.Fprintf(stderr, "Error: unknown --device %q (want auto, cpu or gpu)\n", mode)
	return exitUsage
}

// coldRowsPerThread is engine.Options.GPUColdRowsPerThread for a process
// that runs one script: GQ_GPU_COLD_ROWS_PER_THREAD when set (0: always
// load to the GPU), else engine.DefaultGPUColdRowsPerThread.
func coldRowsPerThread() int64 {
	if v, ok := lookupEnv("GQ_GPU_COLD_ROWS_PER_THREAD"); ok {
		n, _ := strconv.ParseInt(v, 10, 64)
		return max(n, 0)
	}
	return engine.DefaultGPUColdRowsPerThread
}
