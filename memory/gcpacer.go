package memory

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Pacing the Go collector. A streaming query (scan, filter, aggregate into
// a few groups) keeps little live heap but allocates its whole input's
// worth of batches: TPC-H Q1 at SF1 allocates ~780 MiB with ~30 MiB live.
// With GOGC=100 the collector runs each time the heap doubles, ~25 times
// in that query, and every cycle stops each worker in its tight loop
// (runtime.asyncPreempt and suspendG were a quarter of Q1's CPU samples).
//
// PaceGC lets the heap grow to a budget between collections while what is
// live is well below it: after each collection it sets GOGC to
// 100*(budget-live)/live, never under minPacedGOGC (50). Once the live
// heap passes two thirds of the budget this is GOGC=50, so a query with a
// large live heap (a join's or an aggregation's table) peaks at one and a
// half times its live heap, below Go's default of twice; small ones grow,
// up to the budget. The soft memory limit of TieRuntimeLimit still caps
// the heap under --memory-limit.
//
// It is the pattern of Uber's GOGC tuner. The budget follows the data
// (HeapBudgetFor), within bounds: a query's garbage grows with what it
// scans, and at SF10 a 1 GiB budget took 10% off TPC-H q1, q3, q8, q9,
// q13 and q21 against 256 MiB, but 2.4 GiB was slower again than 1 GiB
// (14.4-14.9 s against 12.9-13.0 s): the more room, the longer freed
// memory sits idle and the colder it is when it is reused.

// minHeapBudget and maxHeapBudget bound the budget: below the minimum the
// collector's fixed cost per cycle dominates small queries (TPC-H SF1:
// 81 MiB was 10% slower than 241 MiB; 128 to 170 MiB, half its data, ran
// as fast as 256 MiB with a quarter less peak memory), above the maximum
// reuse goes cold.
const (
	minHeapBudget = 128 << 20
	maxHeapBudget = 1 << 30
)

// ScriptHeapBudget is the budget of a process that runs one script and
// exits (gq -c, gq -f, SQL on stdin). A long-lived process reuses the heap
// it grew to, but a fresh one pays a page fault and the kernel's zeroing
// for every page the first time the heap reaches it, so a budget it
// grows into only to exit is a cost without a return. On TPC-H SF1 at 2
// threads, one process per query, GOGC=100 (a heap near this budget)
// against the full budget took the same CPU (user+system within noise)
// and cut peak memory by up to 60% (q01 304-318 to 121-128 MiB, q06 114
// to 64-72, q13 283 to 188-201).
const ScriptHeapBudget = 64 << 20

// HeapBudgetFor is the budget for serving dataBytes of tables (their size
// on disk, catalog.DataBytes): half of it within
// [minHeapBudget, maxHeapBudget], and at most an eighth of the machine's
// memory.
func HeapBudgetFor(dataBytes int64) int64 {
	b := min(max(dataBytes/2, minHeapBudget), maxHeapBudget)
	if host := HostMemory(); host > 0 {
		b = min(b, max(host/8, minHeapBudget))
	}
	return b
}

// minPacedGOGC is GOGC once the live heap has outgrown two thirds of the
// budget: garbage may then reach half the live heap, not all of it as
// with Go's default of 100. A query with a large live heap (TPC-H q18's
// aggregation by l_orderkey) sets the run's peak memory: at SF1 its peak
// RSS went from 454-495 to 404-405 MiB, at the same speed.
const minPacedGOGC = 50

// maxPacedGOGC bounds GOGC when almost nothing is live, where the formula
// would ask for thousands of percent.
const maxPacedGOGC = 2000

var pacer struct {
	sync.Mutex
	on      bool
	budget  int64
	percent int // the GOGC last set
	sample  []metrics.Sample
}

// PaceGC starts pacing the collector to budget bytes of heap (at least
// ScriptHeapBudget) for the rest of the process (gq and gq serve call
// it) and returns a func that stops it and restores GOGC=100. It does nothing when the GOGC environment
// variable is set (the user's choice wins) or pacing is already on.
func PaceGC(budget int64) (stop func()) {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return func() {}
	}
	pacer.Lock()
	defer pacer.Unlock()
	if pacer.on {
		return func() {}
	}
	pacer.on = true
	pacer.budget = max(budget, ScriptHeapBudget)
	pacer.percent = 100
	pacer.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	armPacer()
	done := make(chan struct{})
	go watchHeap(done)
	return func() {
		pacer.Lock()
		defer pacer.Unlock()
		if pacer.on {
			pacer.on = false
			close(done)
			debug.SetGCPercent(100)
		}
	}
}

// gcSentinel is garbage whose finalizer runs after the collection that
// found it unreachable. It holds a pointer so it is not batched with
// other tiny objects, whose finalizers wait until all of them are dead.
type gcSentinel struct{ _ *int }

// armPacer makes the next collection call pace.
func armPacer() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { pace() })
}

// pace sets GOGC from the heap the last collection found live, and arms
// itself for the next collection.
func pace() {
	pacer.Lock()
	defer pacer.Unlock()
	if !pacer.on {
		return
	}
	metrics.Read(pacer.sample)
	live := int64(0)
	if v := pacer.sample[0].Value; v.Kind() == metrics.KindUint64 {
		live = int64(min(v.Uint64(), math.MaxInt64))
	}
	if p := pacedPercent(live, pacer.budget); p != pacer.percent {
		debug.SetGCPercent(p)
		pacer.percent = p
	}
	armPacer()
}

// A high GOGC is right only for the live heap it was computed from:
// GOGC=2000, set after a collection that found a few MiB live between two
// queries, lets the next query, once its tables hold 25 MiB, grow the heap
// to 525 MiB before a collection corrects GOGC (TPC-H q10 at SF1 peaked
// once at 562 MiB against its usual 330-370). watchHeap looks at the heap
// every heapWatchPeriod and, while GOGC is above 100 and the heap has
// outgrown the budget by a quarter, sets GOGC=100: the collection that
// follows paces from the true live heap. (A soft memory limit as the
// backstop made TPC-H q18 and q09 at SF10 10% slower: the runtime returns
// memory to the OS eagerly under a limit.)
const heapWatchPeriod = 10 * time.Millisecond

func watchHeap(done <-chan struct{}) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(heapWatchPeriod)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			continue
		}
		heap := int64(min(sample[0].Value.Uint64(), math.MaxInt64))
		pacer.Lock()
		if pacer.on && staleGOGC(heap, pacer.budget, pacer.percent) {
			debug.SetGCPercent(100)
			pacer.percent = 100
		}
		pacer.Unlock()
	}
}

// staleGOGC reports whether a heap of heap bytes (live and garbage) shows
// that GOGC percent was set for a smaller live heap than there is now.
func staleGOGC(heap, budget int64, percent int) bool {
	return percent > 100 && heap > budget+budget/4
}

// pacedPercent is the GOGC that makes the heap goal budget for live bytes
// live, within [minPacedGOGC, maxPacedGOGC].
func pacedPercent(live, budget int64) int {
	if live <= 0 {
		return maxPacedGOGC
	}
	return int(min(max(100*(budget-live)/live, minPacedGOGC), maxPacedGOGC))
}

// QueriesIdle tells the pacer that no query is running. A query whose
// live heap outgrew two thirds of the budget leaves GOGC at its floor
// and the heap goal at one and a half times that live heap: its tables
// are garbage once it ends, but no collection comes until the next query
// has allocated up to that goal, on top of them, so the next query's
// peak stacks on the last one's (TPC-H SF10 in one process: q21 after
// q18 took the heap to 1663 MB, neither alone past 1550). A collection
// now finds the heap nearly empty and paces the next query from there.
// It runs in the background: the caller, done with its query, need not
// wait. Not in a script's process (its budget is ScriptHeapBudget), which
// mostly exits after its one query: there it would be work for nothing.
func QueriesIdle() {
	pacer.Lock()
	stale := pacer.on && pacer.budget > ScriptHeapBudget && goalPastBudget(pacer.percent)
	pacer.Unlock()
	if stale {
		go runtime.GC()
	}
}

// goalPastBudget reports whether GOGC percent, as the pacer sets it, puts
// the heap goal past the budget: only at the floor (pacedPercent aims
// every other value at the budget itself).
func goalPastBudget(percent int) bool { return percent <= minPacedGOGC }
