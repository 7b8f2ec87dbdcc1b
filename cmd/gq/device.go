package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"gq/arrowgpu"
)

// deviceFlag declares --device (env GQ_DEVICE): where operators run.
func deviceFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("GQ_DEVICE")
	if def == "" {
		def = "auto"
	}
	return fs.String("device", def, "where to run: auto (GPU when usable, else CPU), cpu, or gpu (fail without one) (env GQ_DEVICE)")
}

// probeGPU is arrowgpu.Probe, replaceable in tests.
var probeGPU = func() (fmt.Stringer, error) { return arrowgpu.Probe() }

// checkDevice resolves --device and returns a non-zero exit status when
// gq cannot run as asked. "gpu" without a usable GPU fails with what is
// missing (driver, device or NVRTC); "auto" quietly uses the CPU.
//
// GPU operators are not wired into the engine yet (arrowgpu holds the
// device layer and kernels): with a GPU present, "gpu" says that the query
// runs on the CPU rather than pretend otherwise.
func checkDevice(mode string, stderr io.Writer) int {
	switch mode {
	case "cpu", "auto":
		return 0
	case "gpu":
		rep, err := probeGPU()
		if err != nil {
			fmt.Fprintf(stderr, "Error: --device gpu: %v\n", err)
			return exitQuery
		}
		fmt.Fprintf(stderr, "gq: %v; GPU operators are not available yet, operators run on the CPU\n", rep)
		return 0
	}
	fmt.Fprintf(stderr, "Error: unknown --device %q (want auto, cpu or gpu)\n", mode)
	return exitUsage
}
