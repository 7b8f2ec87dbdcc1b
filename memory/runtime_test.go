package memory

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

func TestTieRuntimeLimit(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: TieRuntimeLimit leaves the runtime alone")
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Skipf("a runtime memory limit (%d) is already set", got)
	}
	TieRuntimeLimit(Unlimited)()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("no HOST limit set the runtime's to %d", got)
	}
	undo := TieRuntimeLimit(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != 1<<30+runtimeHeadroom {
		undo()
		t.Fatalf("runtime limit %d, want %d", got, 1<<30+runtimeHeadroom)
	}
	// A second tie (another engine in the process) keeps the first.
	TieRuntimeLimit(1 << 20)()
	if got := debug.SetMemoryLimit(-1); got != 1<<30+runtimeHeadroom {
		undo()
		t.Fatalf("a second tie changed the runtime limit to %d", got)
	}
	undo()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("undo left the runtime limit at %d", got)
	}
}
