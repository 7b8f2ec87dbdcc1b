package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/trace"

	"gq/arrowgpu"
)

// deviceFlag declares --device (env GQ_DEVICE): where operators run, and
// --fallback-mode (env GQ_FALLBACK_MODE): what happens to operators the GPU
// cannot run.
func deviceFlag(fs *flag.FlagSet) (device, fallback *string) {
	def := os.Getenv("GQ_DEVICE")
	if def == "" {
		def = "auto"
	}
	return fs.String("device", def, "where to run: auto (GPU when usable, else CPU), cpu, or gpu (fail without one) (env GQ_DEVICE)"),
		fs.String("fallback-mode", os.Getenv("GQ_FALLBACK_MODE"), "operators the GPU cannot run: warn (run them on the CPU, say so; the default with --device gpu), raise (fail the query) or silent (the default with auto) (env GQ_FALLBACK_MODE)")
}

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
		r := trace.StartRegion(context.Background(), "gpu-probe")
		rep, err := probeGPU()
		r.End()
		if err != nil {
			fmt.Fprintf(stderr, "Error: --device gpu: %v\n", err)
			return exitQuery
		}
		fmt.Fprintf(stderr, "gq: %v; operators run on the GPU where they can (EXPLAIN marks each), the rest on the CPU\n", rep)
		return 0
	}
	fmt.Fprintf(stderr, "Error: unknown --device %q (want auto, cpu or gpu)\n", mode)
	return exitUsage
}
