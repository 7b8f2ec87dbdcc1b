package memory

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// runtimeHeadroom is how far above the HOST limit TieRuntimeLimit puts the
// Go runtime's soft memory limit: room for what the limit does not cover
// (the runtime and binary, table metadata, batches in flight between
// operators, the Parquet reader's pages, operators' Go slices) before the
// collector works harder. Measured on TPC-H SF1 under 1/4 limits (2
// threads): 64 MiB cut peak RSS further (q18 192 -> 116 MiB) but the heap
// that is live anyway then sat above the runtime limit and the GC ran
// non-stop (q18 2.3x, q21 1.6x the CPU time); 128 MiB costs no measurable
// CPU and still cuts peak RSS (q18 192 -> 165 MiB, q21 228 -> 165 MiB,
// q01 155 -> 145 MiB).
const runtimeHeadroom = 128 << 20

var tieMu sync.Mutex

// TieRuntimeLimit sets the Go runtime's soft memory limit
// (debug.SetMemoryLimit) to hostLimit + runtimeHeadroom. Without it the
// collector lets the heap grow to twice what is live (GOGC=100), so a
// query held under --memory-limit still had twice its memory resident.
// It leaves the runtime alone (and returns a no-op) when hostLimit is
// Unlimited or not positive, when GOMEMLIMIT is set (the user's choice
// wins) or when a limit is already set. The returned func restores the
// previous limit (for tests and a process that runs several engines).
func TieRuntimeLimit(hostLimit int64) (undo func()) {
	if hostLimit <= 0 || hostLimit == Unlimited || hostLimit > math.MaxInt64-runtimeHeadroom {
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
	debug.SetMemoryLimit(hostLimit + runtimeHeadroom)
	return func() {
		tieMu.Lock()
		defer tieMu.Unlock()
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
