package exec

import (
	"os"
	"testing"

	gqmem "gq/memory"
)

// TestMain poisons freed buffers before they are recycled
// (gqmem.SetPoisonFreed): a read of a batch after its release then fails
// the checked results here instead of reading another batch's values.
// It is the tests' edge: GQ_SPILL_ALWAYS=1 runs the operators of contexts
// given no buffer resource through the spill paths.
func TestMain(m *testing.M) {
	gqmem.SetPoisonFreed(true)
	SetDefaultSpillAlways(gqmem.SpillAlwaysFromEnv(os.Getenv))
	os.Exit(m.Run())
}

// TestDefaultMemoryFollowsTheMatrix: GQ_SPILL_ALWAYS, read by TestMain,
// reaches the buffer resource of contexts given none.
func TestDefaultMemoryFollowsTheMatrix(t *testing.T) {
	if got, want := unlimitedResource().SpillAlways(), gqmem.SpillAlwaysFromEnv(os.Getenv); got != want {
		t.Errorf("the default buffer resource spills always: %v; GQ_SPILL_ALWAYS=%q asks %v", got, os.Getenv("GQ_SPILL_ALWAYS"), want)
	}
}
