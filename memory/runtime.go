package memory

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// RuntimeHeadroom is how far above the HOST limit TieRuntimeLimit puts the
// Go runtime's soft memory limit: room for what the limit does not cover
// (the runtime and binary, table metadata, batches in flight between
// operators, the Parquet reader's pages, operators' Go slices) before the
// collector works harder.
const RuntimeHeadroom = 64 << 20

var tieMu sync.Mutex

// TieRuntimeLimit sets the Go runtime's soft memory limit
// (debug.SetMemoryLimit) to hostLimit + RuntimeHeadroom. Without it the
// collector lets the heap grow to twice what is live (GOGC=100), so a
// query held under --memory-limit still had twice its memory resident
// (TPC-H SF1 q09 under a 10 MiB limit: 217 MiB peak RSS; tied, 118 MiB).
// It leaves the runtime alone (and returns a no-op) when hostLimit is
// Unlimited or not positive, when GOMEMLIMIT is set (the user's choice
// wins) or when a limit is already set. The returned func restores the
// previous limit (for tests and a process that runs several engines).
func TieRuntimeLimit(hostLimit int64) (undo func()) {
	if hostLimit <= 0 || hostLimit == Unlimited || hostLimit > math.MaxInt64-RuntimeHeadroom {
		return func() {}
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return func() {}
	}
	tieMu.Lock()
	defer tieMu.Unlock()
	if debug.SetMemoryLimit(-1) != math.MaxInt64 { // -1 reads it
		return func() {}
	}
	debug.SetMemoryLimit(hostLimit + RuntimeHeadroom)
	return func() {
		tieMu.Lock()
		defer tieMu.Unlock()
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
