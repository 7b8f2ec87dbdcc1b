package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gq/catalog"
	"gq/errs"
	"gq/format"
	gqmem "gq/memory"
)

// sortQuery sorts the whole of lineitem by a key with many ties and a
// string, so the external merge is checked for order and stability.
const sortQuery = "select l_orderkey, l_linenumber, l_shipmode, l_comment, l_extendedprice from lineitem order by l_shipmode, l_comment desc, l_orderkey, l_linenumber"

// resultDigest runs sql on e and returns a digest of its CSV output, the
// bytes of its batches and its statistics.
func resultDigest(t *testing.T, e *Engine, sql string) ([32]byte, int64, *gqmem.Statistics) {
	t.Helper()
	res, err := e.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Release()
	var bytes int64
	for _, b := range res.Batches {
		bytes += gqmem.BatchBytes(b)
	}
	h := sha256.New()
	if err := format.WriteCSV(h, res.Schema, res.Batches); err != nil {
		t.Fatal(err)
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d, bytes, res.Stats
}

// TestExternalSort sorts lineitem (SF 0.1) under a HOST limit more than
// ten times smaller than its input and checks the result equals the
// in-memory sort's, that the sort spilled, and that no byte of memory and
// no spill file is left.
func TestExternalSort(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts lineitem twice")
	}
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	const limit = 2 << 20
	plain := testNew(cat, Options{BatchSize: 8192})
	defer plain.Close()
	start := time.Now()
	want, inBytes, _ := resultDigest(t, plain, sortQuery)
	inMem := time.Since(start)

	spillDir := t.TempDir()
	e := testNew(cat, Options{BatchSize: 8192, MemoryLimit: limit, SpillDir: spillDir})
	defer e.Close()
	start = time.Now()
	got, _, st := resultDigest(t, e, sortQuery)
	external := time.Since(start)
	if got != want {
		t.Fatalf("external sort differs from the in-memory sort")
	}
	if inBytes < 10*limit {
		t.Fatalf("input is %s, not ten times the %s limit", gqmem.FormatBytes(inBytes), gqmem.FormatBytes(limit))
	}
	spilled, _ := st.GetStat(gqmem.StatSpillBytesHostToDisk)
	read, _ := st.GetStat(gqmem.StatSpillBytesDiskToHost)
	if spilled.Value <= 0 || read.Value < spilled.Value {
		t.Fatalf("spilled %v, read back %v", spilled, read)
	}
	peak, _ := st.GetStat(gqmem.StatPeakHostBytes)
	t.Logf("input %s, limit %s: in memory %v, external %v; spilled %s in %d files (%.2fs), read back %s; peak reserved %s, peak allocated %s",
		gqmem.FormatBytes(inBytes), gqmem.FormatBytes(limit), inMem.Round(time.Millisecond), external.Round(time.Millisecond),
		gqmem.FormatBytes(int64(spilled.Value)), spilled.Count, mustStat(st, gqmem.StatSpillTimeHostToDisk),
		gqmem.FormatBytes(int64(read.Value)), gqmem.FormatBytes(e.Memory().PeakReserved(gqmem.Host)), gqmem.FormatBytes(int64(peak.Value)))
	checkNoHeldMemory(t, e, "after the external sort")
	if ents, _ := os.ReadDir(spillDir); len(ents) != 0 {
		t.Fatalf("%d files left in the spill directory", len(ents))
	}
	if e.Memory().Reserved(gqmem.Host) != 0 {
		t.Fatalf("%d bytes still reserved", e.Memory().Reserved(gqmem.Host))
	}

	// Top-N with an N too large for memory goes through the same path.
	topq := "select o_orderkey, o_comment from orders order by o_comment desc, o_orderkey limit 60000 offset 1000"
	wantTop, _, _ := resultDigest(t, plain, topq)
	gotTop, _, topSt := resultDigest(t, e, topq)
	if gotTop != wantTop {
		t.Fatalf("external top-N differs from the in-memory top-N")
	}
	if mustStat(topSt, gqmem.StatSpillBytesHostToDisk) <= 0 {
		t.Fatalf("the large top-N did not spill")
	}
	checkNoHeldMemory(t, e, "after the external top-N")
}

func mustStat(st *gqmem.Statistics, name string) float64 {
	s, _ := st.GetStat(name)
	return s.Value
}

// TestMemoryLimitTooSmall: a limit smaller than one batch fails with
// ResourcesExhausted, leaves nothing behind, and the engine goes on.
func TestMemoryLimitTooSmall(t *testing.T) {
	e := newTestEngine(t, Options{MemoryLimit: 64})
	defer e.Close()
	_, err := e.Query(context.Background(), "select name from people order by name")
	if !errors.Is(err, errs.ResourcesExhausted) {
		t.Fatalf("got %v, want resources exhausted", err)
	}
	t.Log(err)
	checkNoHeldMemory(t, e, "after the failed sort")
	res, err := e.Query(context.Background(), "select count(*) from people")
	if err != nil {
		t.Fatal(err)
	}
	if res.NumRows() != 1 {
		t.Fatalf("%d rows", res.NumRows())
	}
	res.Release()
	checkNoHeldMemory(t, e, "after the next query")
}

// TestCancelledSpillingQueryFreesEverything cancels an external sort once
// it has spilled and checks no memory, reservation or spill file is left.
func TestCancelledSpillingQueryFreesEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("reads lineitem")
	}
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{BatchSize: 8192, MemoryLimit: 1 << 20, SpillDir: t.TempDir()})
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		res, err := e.Query(ctx, sortQuery)
		if err == nil {
			res.Release()
		}
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for e.Memory().SpillFiles().Written() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	err := <-done
	if !errors.Is(err, errs.Cancelled) {
		t.Fatalf("got %v, want cancelled", err)
	}
	if e.Memory().SpillFiles().Written() == 0 {
		t.Fatal("the sort never spilled")
	}
	checkNoHeldMemory(t, e, "after the cancelled sort")
	if n := e.Memory().Reserved(gqmem.Host); n != 0 {
		t.Fatalf("%d bytes still reserved", n)
	}
}

// TestSQLLogicSpillAlways runs the sqllogictest files with every spillable
// buffer spilled at every opportunity (GQ_SPILL_ALWAYS's mode), so every
// sort goes through sorted runs on disk and the merge, and checks nothing
// is left behind after each statement.
func TestSQLLogicSpillAlways(t *testing.T) {
	files, err := filepath.Glob("../testdata/sql/*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, opts := range []Options{{SpillAlways: true}, {Threads: 3, BatchSize: 2, SpillAlways: true, MemoryLimit: 1 << 20}} {
		for _, file := range files {
			t.Run(fmt.Sprintf("%s/batch=%d", filepath.Base(file), opts.BatchSize), func(t *testing.T) {
				runTestFile(t, file, opts, false)
			})
		}
	}
}

// TestTPCHMemoryLimit runs the 22 TPC-H queries (SF 0.1) under a 1 MiB
// HOST limit: sorts and join build sides spill, the answers stay those
// of the reference, and nothing is left behind.
func TestTPCHMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs TPC-H")
	}
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{BatchSize: 8192, MemoryLimit: 1 << 20, SpillDir: t.TempDir()})
	defer e.Close()
	for n := 1; n <= 22; n++ {
		q := fmt.Sprintf("q%02d", n)
		t.Run(q, func(t *testing.T) {
			runTPCHQuery(t, e, "../testdata/tpch/queries/"+q+".sql", "../testdata/tpch/sf0.1/"+q+".csv")
		})
	}
	st := e.Statistics()
	spilled, _ := st.GetStat(gqmem.StatSpillBytesHostToDisk)
	if spilled.Value <= 0 {
		t.Fatal("nothing spilled under the limit")
	}
	t.Logf("spilled %s over the 22 queries", gqmem.FormatBytes(int64(spilled.Value)))
}

// TestSlicedStringKeys: LIMIT ... OFFSET and the external merge emit
// sliced batches, whose string offsets do not start at zero; grouping on
// several string keys over them must read the right bytes (it panicked).
func TestSlicedStringKeys(t *testing.T) {
	e := newTestEngine(t, Options{})
	defer e.Close()
	res, err := e.Query(context.Background(), "select name, city, count(*) from (select * from people limit 3 offset 2) t group by name, city order by 1")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	var got bytes.Buffer
	if err := format.WriteCSV(&got, res.Schema, res.Batches); err != nil {
		t.Fatal(err)
	}
	if want := "name,city,count(*)\nCarol,Paris,1\nDave,,1\nEve,Berlin,1\n"; got.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", got.String(), want)
	}
}
