package exec

import (
	"os"
	"testing"

	gqmem "gq/memory"
)

// TestMain poisons freed buffers before they are recycled
// (gqmem.SetPoisonFreed): a read of a batch after its release then fails
// the checked results here instead of reading another batch's values.
func TestMain(m *testing.M) {
	gqmem.SetPoisonFreed(true)
	os.Exit(m.Run())
}
