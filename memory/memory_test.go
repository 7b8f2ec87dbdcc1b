package memory

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
)

func TestParseLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20}, {"4GiB", 4 << 30}, {"512 MiB", 512 << 20}, {"2GB", 2e9},
		{"64k", 64 << 10}, {"1.5KiB", 1536}, {"", Unlimited}, {"0", Unlimited}, {"50%", 500}, {"100%", 1000},
	} {
		got, err := ParseLimit(c.in, 1000)
		if err != nil || got != c.want {
			t.Errorf("ParseLimit(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"4XB", "abc", "-5", "150%", "0%"} {
		if _, err := ParseLimit(bad, 1000); !errors.Is(err, errs.Syntax) {
			t.Errorf("ParseLimit(%q): %v, want a syntax error", bad, err)
		}
	}
	env := map[string]string{"GQ_MEMORY_LIMIT": "16MiB"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	l, err := LimitsFromEnv(lookup)
	if err != nil || l[Host] != 16<<20 || l[Device] != Unlimited {
		t.Errorf("LimitsFromEnv = %v, %v", l, err)
	}
	env["GQ_DISK_LIMIT"] = "lots"
	if _, err := LimitsFromEnv(lookup); !errors.Is(err, errs.Syntax) {
		t.Errorf("LimitsFromEnv with GQ_DISK_LIMIT=lots: %v, want a syntax error", err)
	}
	for v, want := range map[string]bool{"": false, "0": false, "no": false, "FALSE": false, "1": true, "yes": true} {
		if got := SpillAlwaysFromEnv(func(string) string { return v }); got != want {
			t.Errorf("SpillAlwaysFromEnv(GQ_SPILL_ALWAYS=%q) = %v, want %v", v, got, want)
		}
	}
}

// fakeSpill frees its bytes (a reservation) when spilled and records the
// order spills happened in.
type fakeSpill struct {
	res   *Reservation
	name  string
	order *[]string
}

func (f *fakeSpill) Spill(t Tier, n int64) int64 {
	if t != Host || f.res.Size() == 0 {
		return 0
	}
	freed := f.res.Size()
	f.res.Release()
	*f.order = append(*f.order, f.name)
	return freed
}

func TestReserveSpillsLowestPriorityFirst(t *testing.T) {
	l := NoLimits()
	l[Host] = 100
	br := NewBufferResource(Options{Limits: l})
	defer br.Close()
	var order []string
	for _, p := range []struct {
		name string
		prio int
	}{{"high", 5}, {"low", 1}, {"mid", 3}} {
		r, err := br.Reserve(Host, 30, false)
		if err != nil {
			t.Fatal(err)
		}
		br.SpillManager().Add(&fakeSpill{res: r, name: p.name, order: &order}, p.prio)
	}
	// 90 reserved: 40 more needs 30 freed, one buffer: the lowest.
	r, err := br.Reserve(Host, 40, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != 1 || order[0] != "low" {
		t.Fatalf("spilled %v, want [low]", order)
	}
	// 100 reserved; 80 needs everything else, then still does not fit.
	_, err = br.Reserve(Host, 80, false)
	if !errors.Is(err, errs.ResourcesExhausted) {
		t.Fatalf("over-limit reservation: %v, want resources exhausted", err)
	}
	if len(order) != 3 || order[1] != "mid" || order[2] != "high" {
		t.Fatalf("spill order %v", order)
	}
	// Overbooking succeeds past the limit.
	ob, err := br.Reserve(Host, 80, true)
	if err != nil || br.Available(Host) != -20 {
		t.Fatalf("overbooking: %v, available %d", err, br.Available(Host))
	}
	ob.Release()
	r.Release()
	if br.Reserved(Host) != 0 {
		t.Fatalf("reserved %d after releasing everything", br.Reserved(Host))
	}
}

func TestSpillableBatchesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	l := NoLimits()
	l[Host] = 1 << 20
	br := NewBufferResource(Options{Limits: l, SpillDir: dir})
	defer br.Close()
	alloc := NewAllocator(nil, nil)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	sb := NewSpillableBatches(br, nil, schema, 0)
	mk := func(start, n int) arrow.RecordBatch {
		bld := array.NewInt64Builder(alloc)
		defer bld.Release()
		for i := range n {
			bld.Append(int64(start + i))
		}
		a := bld.NewArray()
		defer a.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a}, int64(n))
	}
	sb.Append(mk(0, 1000))
	sb.Append(mk(1000, 1000))
	if freed := br.SpillManager().spill(Host, 1); freed < 16000 {
		t.Fatalf("spill freed %d bytes", freed)
	}
	sb.Append(mk(2000, 500))
	if br.SpillFiles().Live() != 1 {
		t.Fatalf("%d spill files", br.SpillFiles().Live())
	}
	bs, err := sb.Take(alloc)
	if err != nil {
		t.Fatal(err)
	}
	next := int64(0)
	for _, b := range bs {
		col := b.Column(0).(*array.Int64)
		for i := range col.Len() {
			if col.Value(i) != next {
				t.Fatalf("row %d = %d", next, col.Value(i))
			}
			next++
		}
		b.Release()
	}
	if next != 2500 {
		t.Fatalf("read back %d rows", next)
	}
	if br.SpillFiles().Live() != 0 || br.Reserved(Host) != 0 || alloc.Live() != 0 {
		t.Fatalf("left: %d files, %d reserved, %d bytes live", br.SpillFiles().Live(), br.Reserved(Host), alloc.Live())
	}
	st, _ := br.Statistics().GetStat(StatSpillBytesHostToDisk)
	if st.Count < 1 || st.Value < 16000 {
		t.Fatalf("spill stat %+v", st)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("spill dir holds %d files", len(ents))
	}
}

func TestTempSpillDirRemovedOnClose(t *testing.T) {
	br := NewBufferResource(Options{Limits: NoLimits()})
	dir, err := br.SpillFiles().Dir()
	if err != nil {
		t.Fatal(err)
	}
	br.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("spill dir %s still there: %v", dir, err)
	}
}

// TestPeriodicSpillCheck: an overbooked tier is spilled back under its
// limit by the periodic check, without any further Reserve.
func TestPeriodicSpillCheck(t *testing.T) {
	l := NoLimits()
	l[Host] = 100
	br := NewBufferResource(Options{Limits: l})
	defer br.Close()
	var order []string
	r, _ := br.Reserve(Host, 80, false)
	over, err := br.Reserve(Host, 50, true) // overbooked: 130 of 100, nothing to spill yet
	if err != nil || br.Available(Host) != -30 {
		t.Fatalf("overbooking: %v, available %d", err, br.Available(Host))
	}
	defer over.Release()
	br.SpillManager().Add(&fakeSpill{res: r, name: "a", order: &order}, 0)
	br.SpillManager().StartPeriodicCheck(time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for br.Available(Host) < 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	br.SpillManager().stopPeriodic()
	if br.Available(Host) < 0 || len(order) != 1 {
		t.Fatalf("periodic check: available %d, spilled %v", br.Available(Host), order)
	}
}

// TestTempSpillDirGoesWithLastFile: a temporary spill directory is removed
// once its last file is, so an engine never closed leaves none behind.
func TestTempSpillDirGoesWithLastFile(t *testing.T) {
	br := NewBufferResource(Options{Limits: NoLimits()})
	defer br.Close()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	w, err := br.SpillFiles().Create(schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := br.SpillFiles().Dir()
	f, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	f.Remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("spill dir %s still there after its last file: %v", dir, err)
	}
}

// TestChildStatistics: a child's events are its own and also its
// parent's; siblings do not see each other's.
func TestChildStatistics(t *testing.T) {
	parent := NewStatistics(true)
	a, b := NewChildStatistics(parent), NewChildStatistics(parent)
	a.AddStat(StatSpillBytesHostToDisk, 100)
	b.AddStat(StatSpillBytesHostToDisk, 20)
	b.SetMax(StatPeakHostBytes, 7)
	if st, _ := a.GetStat(StatSpillBytesHostToDisk); st.Value != 100 || st.Count != 1 {
		t.Errorf("child a: %+v", st)
	}
	if st, _ := parent.GetStat(StatSpillBytesHostToDisk); st.Value != 120 || st.Count != 2 {
		t.Errorf("parent: %+v", st)
	}
	if st, _ := parent.GetStat(StatPeakHostBytes); st.Value != 7 {
		t.Errorf("parent peak: %+v", st)
	}
	// A child of a disabled (or no) parent still counts its own.
	c := NewChildStatistics(nil)
	c.AddStat("x", 1)
	if st, _ := c.GetStat("x"); st.Value != 1 {
		t.Errorf("orphan child: %+v", st)
	}
}

// TestChildAllocator: a child's bytes count in it and in its ancestors,
// and freeing them uncounts them everywhere.
func TestChildAllocator(t *testing.T) {
	root := NewAllocator(nil, nil)
	q := NewAllocator(nil, root)
	op := NewChildAllocator(q)
	b := op.Allocate(1000)
	q.Free(q.Allocate(24))
	if op.Live() != 1000 || q.Live() != 1000 || root.Live() != 1000 || q.Peak() != 1024 || op.Peak() != 1000 {
		t.Errorf("live op %d q %d root %d, peak q %d op %d", op.Live(), q.Live(), root.Live(), q.Peak(), op.Peak())
	}
	op.Free(b)
	if op.Live() != 0 || q.Live() != 0 || root.Live() != 0 || op.Peak() != 1000 {
		t.Errorf("after free: live op %d q %d root %d, peak op %d", op.Live(), q.Live(), root.Live(), op.Peak())
	}
}
