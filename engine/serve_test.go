package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/errs"
	"gq/format"
	gqmem "gq/memory"
	"gq/shuffle"
)

// drainCSV reads a stream whole and renders it as CSV. Each batch is
// copied out of the query's memory as it comes, as a client sending it
// on would free it, so that the query's live bytes are its own.
func drainCSV(t *testing.T, s *Stream) ([]byte, error) {
	t.Helper()
	defer s.Close()
	var bs []arrow.RecordBatch
	for {
		b, ok := s.Next()
		if !ok {
			break
		}
		cp, err := detach(s.Schema, []arrow.RecordBatch{b})
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, cp...)
	}
	defer func() {
		for _, b := range bs {
			b.Release()
		}
	}()
	if err := s.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := format.WriteCSV(&buf, s.Schema, bs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), nil
}

// TestQueryMemoryLimitSpillsFirst: a sort over its query's limit spills
// and finishes; under a limit too small for its batches in flight a join
// fails with ResourcesExhausted; nothing stays held.
func TestQueryMemoryLimitSpillsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts lineitem")
	}
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	const limit = 24 << 20
	plain := testNew(cat, Options{BatchSize: 8192})
	defer plain.Close()
	spillDir := t.TempDir()
	e := testNew(cat, Options{BatchSize: 8192, QueryMemoryLimit: limit, SpillDir: spillDir})
	defer e.Close()
	ctx := context.Background()

	s, err := plain.ServeStream(ctx, sortQuery)
	if err != nil {
		t.Fatal(err)
	}
	want, err := drainCSV(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = e.ServeStream(ctx, sortQuery); err != nil {
		t.Fatal(err)
	}
	got, err := drainCSV(t, s)
	if err != nil {
		t.Fatalf("sort under a %s query limit: %v", gqmem.FormatBytes(limit), err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the spilled sort differs from the in-memory one")
	}
	spilled := mustStat(s.Stats, gqmem.StatSpillBytesHostToDisk)
	if spilled <= 0 {
		t.Fatal("the sort did not spill under its query limit")
	}
	t.Logf("sort of %d bytes of CSV under a %s query limit: spilled %s, peak %s", len(want), gqmem.FormatBytes(limit),
		gqmem.FormatBytes(int64(spilled)), gqmem.FormatBytes(int64(mustStat(s.Stats, gqmem.StatPeakHostBytes))))

	// Under a tiny limit even the spilling operators' batches in flight
	// are too much: the query fails with ResourcesExhausted.
	tiny := testNew(cat, Options{BatchSize: 8192, QueryMemoryLimit: 256 << 10})
	defer tiny.Close()
	s, err = tiny.ServeStream(ctx, "select count(*) from lineitem a join lineitem b on a.l_orderkey = b.l_orderkey and a.l_comment = b.l_comment")
	if err == nil {
		_, err = drainCSV(t, s)
	}
	if !errors.Is(err, errs.ResourcesExhausted) {
		t.Fatalf("join over a tiny limit: %v, want ResourcesExhausted", err)
	}
	checkNoHeldMemory(t, tiny, "after the failed query")
	checkNoHeldMemory(t, e, "after the spilled sort")
	open := 0
	queryResources.Range(func(any, any) bool { open++; return true })
	if open != 0 {
		t.Errorf("%d query buffer resources not closed", open)
	}
	if ents, _ := os.ReadDir(spillDir); len(ents) != 0 {
		t.Errorf("%d files left in the spill directory", len(ents))
	}
}

// TestServeStreamRanks: statements cancelled at rank 0 before they reach
// their exchanges leave the followers in step, so later statements still
// run on every rank and give the one-rank answer.
func TestServeStreamRanks(t *testing.T) {
	cat := func() *catalog.Catalog {
		c := catalog.New()
		if err := c.RegisterDir(tpchData(t)); err != nil {
			t.Fatal(err)
		}
		return c
	}
	comms := shuffle.NewLocal(3)
	engines := make([]*Engine, 3)
	for r := range engines {
		engines[r] = testNew(cat(), Options{Comm: comms[r], Threads: 2})
		defer engines[r].Close()
	}
	done := make(chan error, 2)
	for r := 1; r < 3; r++ {
		go func() { done <- engines[r].FollowStatements(context.Background()) }()
	}
	single := testNew(cat(), Options{Threads: 2})
	defer single.Close()
	const q = "select c_mktsegment, count(*) as n from orders join customer on o_custkey = c_custkey group by c_mktsegment order by c_mktsegment"
	res, err := single.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	format.WriteCSV(&want, res.Schema, res.Batches)
	res.Release()

	for i := range 3 {
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		if s, err := engines[0].ServeStream(cancelled, q); err == nil {
			_, err = drainCSV(t, s)
			if !errors.Is(err, errs.Cancelled) {
				t.Fatalf("cancelled statement %d: %v", i, err)
			}
		} else if !errors.Is(err, errs.Cancelled) {
			t.Fatalf("cancelled statement %d: %v", i, err)
		}
		s, err := engines[0].ServeStream(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := drainCSV(t, s)
		if err != nil {
			t.Fatalf("statement after a cancelled one: %v", err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("3 ranks:\n%s\none rank:\n%s", got, want.Bytes())
		}
	}
	// A follower's failure reaches rank 0: a view only rank 0 knows.
	if _, err := engines[0].Query(context.Background(), "create view only_here as select * from nation"); err != nil {
		t.Fatal(err)
	}
	if s, err := engines[0].ServeStream(context.Background(), "select count(*) from only_here"); err == nil {
		_, err = drainCSV(t, s)
		if err == nil {
			t.Fatal("a statement that fails on the followers succeeded")
		}
	}
	if _, err := engines[1].ServeStream(context.Background(), q); !errors.Is(err, errs.Internal) {
		t.Errorf("ServeStream on rank 1: %v, want an Internal error", err)
	}
	engines[0].StopFollowers()
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("follower: %v", err)
		}
	}
	for _, c := range comms {
		c.Close()
	}
}
