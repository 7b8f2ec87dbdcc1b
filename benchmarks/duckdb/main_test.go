package duckdb

import (
	"os"
	"testing"

	"gq/engine"
)

// TestMain is the tests' edge: the device's GQ_* variables (gqemu's
// GQ_LIBCUDA and GQ_LIBNVRTC among them, for GQ_DEVICE=gpu make
// difftest) configure the layers under the engine as gq's do; each
// engine takes the others through Options.WithEnv.
func TestMain(m *testing.M) {
	engine.ConfigureDevice(os.LookupEnv)
	os.Exit(m.Run())
}
