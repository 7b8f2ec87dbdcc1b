package memory

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPacedPercent(t *testing.T) {
	const budget = 256 << 20
	for _, c := range []struct {
		live int64
		want int
	}{
		{0, maxPacedGOGC},
		{1 << 20, maxPacedGOGC}, // 255 MiB of room: capped
		{32 << 20, 700},         // goal 32 + 224 = 256 MiB
		{64 << 20, 300},         // goal 256 MiB
		{budget / 2, 100},       // half the budget: GOGC=100
		{budget / 3 * 2, 50},    // two thirds: the floor
		{budget, 50},            // above: never under minPacedGOGC
		{4 * budget, 50},
	} {
		if got := pacedPercent(c.live, budget); got != c.want {
			t.Errorf("pacedPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// gcPercent reads GOGC as the runtime has it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestPaceGC checks that after a collection the pacer sets GOGC from the
// live heap (a test process's few MiB: the cap), and that stopping it
// restores GOGC=100; and that a GOGC in the environment turns it off.
func TestPaceGC(t *testing.T) {
	if v, ok := os.LookupEnv("GOGC"); ok {
		t.Skipf("GOGC=%s is set: PaceGC leaves it alone", v)
	}
	stop := PaceGC(minHeapBudget)
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != maxPacedGOGC && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs after the cycle
	}
	if got := gcPercent(); got != maxPacedGOGC {
		t.Fatalf("GOGC %d after collections with a few MiB live, want %d", got, maxPacedGOGC)
	}
	if again := PaceGC(1 << 30); gcPercent() != maxPacedGOGC {
		t.Fatal("a second PaceGC changed GOGC")
	} else {
		again()
	}
	stop()
	if got := gcPercent(); got != 100 {
		t.Fatalf("GOGC %d after stop, want 100", got)
	}
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := gcPercent(); got != 100 {
		t.Fatalf("GOGC %d after a collection once stopped, want 100", got)
	}

	t.Setenv("GOGC", "150")
	PaceGC(minHeapBudget)()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := gcPercent(); got != 100 {
		t.Fatalf("GOGC %d with GOGC set in the environment, want the runtime's own (100 here)", got)
	}
}

func TestStaleGOGC(t *testing.T) {
	const budget = 256 << 20
	for _, c := range []struct {
		heap    int64
		percent int
		want    bool
	}{
		{100 << 20, 2000, false}, // within the budget
		{budget + budget/4, 2000, false},
		{budget + budget/4 + 1, 2000, true}, // GOGC set for a smaller live heap
		{1 << 30, 100, false},               // GOGC 100 or less: the live heap is large anyway
		{1 << 30, 50, false},
	} {
		if got := staleGOGC(c.heap, budget, c.percent); got != c.want {
			t.Errorf("staleGOGC(%d MiB, GOGC %d) = %v, want %v", c.heap>>20, c.percent, got, c.want)
		}
	}
}

func TestHeapBudgetFor(t *testing.T) {
	if got := HeapBudgetFor(0); got != minHeapBudget {
		t.Errorf("no data: budget %d, want the minimum %d", got, minHeapBudget)
	}
	if got := HeapBudgetFor(512 << 20); got != 256<<20 && got != max(HostMemory()/8, minHeapBudget) {
		t.Errorf("512 MiB of data: budget %d, want 256 MiB or an eighth of the machine", got)
	}
	if got := HeapBudgetFor(64 << 30); got > maxHeapBudget {
		t.Errorf("64 GiB of data: budget %d over the maximum %d", got, maxHeapBudget)
	}
	if host := HostMemory(); host > 0 {
		if got := HeapBudgetFor(host); got > max(host/8, minHeapBudget) {
			t.Errorf("data as large as the machine: budget %d over an eighth of it", got)
		}
	}
}

// TestQueriesIdle: once a query that kept most of the budget live ends,
// QueriesIdle collects, so GOGC is paced again from the (now small) live
// heap instead of staying at the floor that query left.
func TestQueriesIdle(t *testing.T) {
	if v, ok := os.LookupEnv("GOGC"); ok {
		t.Skipf("GOGC=%s is set: PaceGC leaves it alone", v)
	}
	const budget = 2 * ScriptHeapBudget
	stop := PaceGC(budget)
	defer stop()
	live := make([]byte, budget) // past two thirds of the budget
	for i := range live {
		live[i] = 1
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != minPacedGOGC && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs after the cycle
	}
	if got := gcPercent(); got != minPacedGOGC {
		t.Fatalf("GOGC %d with the budget live, want %d", got, minPacedGOGC)
	}
	runtime.KeepAlive(live)
	live = nil
	QueriesIdle()
	for gcPercent() == minPacedGOGC && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := gcPercent(); got <= 100 {
		t.Fatalf("GOGC %d after QueriesIdle with the heap dead, want it paced from a small live heap", got)
	}
}
