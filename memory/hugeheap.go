package memory

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// Backing a fresh heap with huge pages. A process that runs one script
// and exits grows its heap from nothing, and every 4 KiB page it grows
// into costs a page fault (the kernel zeroes the page; a page first
// read, then written, faults twice and interrupts the other cores to
// flush their TLBs). A query's tens of thousands of such faults can take
// a large share of a one-script process's CPU time (the figures are in
// benchmarks/results/issue32-cold32b-*.md); a long-lived process pays
// this once, on its first query. The Go runtime leaves transparent huge
// pages to the system's default, which is mostly "madvise": only memory
// marked MADV_HUGEPAGE gets them. AdviseHugeHeap marks the next stretch
// of heap the process grows into, so that its pages come 2 MiB (one
// fault) at a time.
//
// How: the runtime maps heap memory as it grows, and a mapping made later
// does not inherit a mark given before it, so the stretch is allocated
// (mapped, not touched: the runtime does not zero fresh memory), marked,
// dropped and collected. The allocator reuses the lowest free addresses
// first, so the heap's next growth lands in the marked stretch.
//
// Costs: one collection at start-up, of a heap that holds little, and
// resident memory that grows in 2 MiB steps. A free stretch that stays
// untouched is not resident; the runtime's scavenger returns it to the
// system over time like any free heap.

// ScriptHugeHeap is the stretch a one-script process (gq -c, gq -f, SQL on
// stdin) marks: the peak heap of TPC-H's largest queries at SF1, so that
// they fault in huge pages only; the heap beyond it grows in small pages.
const ScriptHugeHeap = 256 << 20

var hugeHeapOnce sync.Once

// AdviseHugeHeap marks the next n bytes the Go heap grows into for
// transparent huge pages (once per process; later calls do nothing). It
// does nothing where the system gives huge pages to no one (or to every
// mapping anyway), where GODEBUG=disablethp=1 asks the runtime for none,
// or where n is under two huge pages. Under a runtime memory limit
// (TieRuntimeLimit, GOMEMLIMIT) the stretch is at most a quarter of the
// limit: free heap counts against the limit until it is returned. Call it
// before PaceGC and before the heap holds much.
func AdviseHugeHeap(n int64) {
	hugeHeapOnce.Do(func() {
		page := hugePageSize()
		if page <= 0 || thpDisabledByGODEBUG() {
			return
		}
		if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 { // -1 reads it
			n = min(n, limit/4)
		}
		if n < 2*page {
			return
		}
		// No collection may start while the stretch is live (it would
		// keep it one more cycle); the forced one below frees it.
		prev := debug.SetGCPercent(-1)
		markStretch(n, page)
		runtime.GC()
		debug.SetGCPercent(prev)
	})
}

// markStretch allocates n bytes of heap, marks its whole huge pages for
// huge-page backing and drops it. It is a function of its own so that
// nothing on the caller's stack keeps the stretch alive.
//
//go:noinline
func markStretch(n, page int64) {
	b := noZero[byte](int(n))
	adviseHugePages(b, page)
	runtime.KeepAlive(b)
}
