package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/errs"
	"gq/format"
	"gq/shuffle"
)

// rankEngines returns n engines over the local backend, each with its own
// catalog over dir (views and CREATE TABLE AS are per rank, as in
// separate processes).
func rankEngines(t *testing.T, n int, dir string, stats *shuffle.Statistics) []*Engine {
	t.Helper()
	comms := shuffle.NewLocal(n)
	out := make([]*Engine, n)
	for r := range n {
		cat := catalog.New()
		if dir != "" {
			if err := cat.RegisterDir(dir); err != nil {
				t.Fatal(err)
			}
		}
		out[r] = testNew(cat, Options{Threads: 2, Comm: comms[r], ShuffleStats: stats})
	}
	return out
}

// runRanks runs sql on every engine at once (SPMD) and returns each
// rank's CSV of its last result and its error.
func runRanks(ctx context.Context, engines []*Engine, sql string) ([]string, []error) {
	outs := make([]string, len(engines))
	errs := make([]error, len(engines))
	var wg sync.WaitGroup
	for r, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			errs[r] = e.Exec(ctx, sql, func(res *Result) error {
				defer res.Release()
				buf.Reset()
				return format.WriteCSV(&buf, res.Schema, res.Batches)
			})
			outs[r] = buf.String()
		}()
	}
	wg.Wait()
	realignRanks(engines)
	return outs, errs
}

// realignRanks moves every rank's statement sequence to the furthest one,
// as a server's rank 0 does with its followers' done messages
// (collectDone): a script stopped on some ranks before a statement's
// exchanges (a cancelled context is seen at different moments) leaves
// them apart, and the next statement's exchanges would not meet. The CLI
// needs no such step: there a failed rank ends the job.
func realignRanks(engines []*Engine) {
	var seq uint32
	for _, e := range engines {
		seq = max(seq, e.ranks.seq.Load())
	}
	for _, e := range engines {
		e.ranks.seq.Store(seq)
	}
}

// TestTPCHRanks runs the 22 TPC-H queries (and q15 as a view script) on
// three ranks of the local backend: rank 0 must print the expected
// answer and the other ranks nothing.
func TestTPCHRanks(t *testing.T) {
	dir := tpchData(t)
	stats := shuffle.NewStatistics()
	engines := rankEngines(t, 3, dir, stats)
	names := []string{"q15_view"}
	for n := 1; n <= 22; n++ {
		names = append(names, fmt.Sprintf("q%02d", n))
	}
	for _, q := range names {
		t.Run(q, func(t *testing.T) {
			before := runtime.NumGoroutine()
			checkTPCHRanks(t, engines, q)
			checkGoroutines(t, before)
		})
	}
	t.Logf("shuffle statistics over all queries:\n%s", stats.Report())
	if stats.Get(shuffle.StatPayloadSend).Value == 0 {
		t.Error("no payload went through the shuffler")
	}
}

// TestRankDeathFailsOthers kills rank 2 while ranks 0 and 1 wait in a
// query's first exchange: both must fail with a communication error
// naming rank 2, within seconds.
func TestRankDeathFailsOthers(t *testing.T) {
	engines := rankEngines(t, 3, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan []error)
	go func() {
		_, got := runRanks(ctx, engines[:2], "SELECT 1")
		done <- got
	}()
	time.Sleep(50 * time.Millisecond)
	engines[2].opts.Comm.(*shuffle.Local).Kill()
	select {
	case got := <-done:
		for r, err := range got {
			if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank 2") {
				t.Errorf("rank %d: got %v, want a communication error naming rank 2", r, err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ranks still waiting 10s after rank 2 died")
	}
}

// TestRankAsymmetryDetected gives rank 1 a catalog without table t: rank 1
// fails to bind, and the other ranks must fail too (naming rank 1)
// instead of waiting for it in an exchange.
func TestRankAsymmetryDetected(t *testing.T) {
	engines := rankEngines(t, 3, "", nil)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for _, r := range []int{0, 2} {
		if err := engines[r].Catalog().Register(catalog.NewMemTable("t", schema, nil), false); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, got := runRanks(ctx, engines, "SELECT x FROM t")
	if !errors.Is(got[1], errs.Binding) {
		t.Errorf("rank 1: got %v, want its binding error", got[1])
	}
	for _, r := range []int{0, 2} {
		if got[r] == nil || !strings.Contains(got[r].Error(), "rank 1") {
			t.Errorf("rank %d: got %v, want an error naming rank 1", r, got[r])
		}
	}
}

// checkTPCHRanks runs TPC-H query q (SF0.1) on every rank at once: rank 0
// prints the expected result, the others only a header.
func checkTPCHRanks(t *testing.T, engines []*Engine, q string) {
	t.Helper()
	sql, err := os.ReadFile("../testdata/tpch/queries/" + q + ".sql")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../testdata/tpch/sf0.1/" + q + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	outs, errs := runRanks(ctx, engines, string(sql))
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	ordered := strings.Contains(strings.ToLower(string(sql)), "order by")
	if err := tpch.CompareCSV([]byte(outs[0]), want, ordered); err != nil {
		t.Errorf("rank 0: %v", err)
	}
	for r := 1; r < len(outs); r++ {
		if lines := strings.Count(outs[r], "\n"); lines > 1 {
			t.Errorf("rank %d printed %d lines, want only a header", r, lines)
		}
	}
}
