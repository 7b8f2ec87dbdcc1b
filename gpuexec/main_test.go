package gpuexec

import (
	"os"
	"testing"

	"gq/arrowgpu"
	"gq/exec"
	gqmem "gq/memory"
)

// TestMain is the tests' edge for the environment, as cmd/gq's env.go is
// the binary's: the device settings (GQ_CUDA_SYNC, GQ_KERNEL_CACHE,
// GQ_LIBCUDA, GQ_LIBNVRTC, GQ_GPU_STREAMS) and GQ_SPILL_ALWAYS reach the
// packages, which read no environment themselves.
func TestMain(m *testing.M) {
	arrowgpu.Configure(arrowgpu.ConfigFromEnv(os.LookupEnv))
	SetStreams(os.Getenv("GQ_GPU_STREAMS"))
	exec.SetDefaultSpillAlways(gqmem.SpillAlwaysFromEnv(os.Getenv))
	os.Exit(m.Run())
}
