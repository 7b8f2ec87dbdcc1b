package engine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"gq/catalog"
	"gq/errs"
	gqmem "gq/memory"
	"gq/shuffle"
)

var (
	soakTime = flag.Duration("soak", 0, "run TestRandomCancellations this long (make soak); 0: a short fixed run")
	soakSeed = flag.Uint64("soak.seed", 1, "TestRandomCancellations' random seed")
)

// TestRandomCancellations runs TPC-H queries (SF 0.1) and stops each at a
// random point: a cancelled context, a time-out, or a streaming consumer
// that closes its stream after a few batches; on one thread and two, under
// a 4 MiB limit that makes them spill, and on three ranks.
// A query must end with its answer or a Cancelled error — nothing else —
// within seconds of being stopped, and then no byte of memory,
// reservation, spill file or goroutine may be left. `make test` runs a few dozen;
// `make soak` runs it for -soak.
func TestRandomCancellations(t *testing.T) {
	dir := tpchData(t)
	var qs, names []string
	for n := 1; n <= 22; n++ {
		if n == 15 { // a view script; its query is q15 in one statement elsewhere
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("../testdata/tpch/queries/q%02d.sql", n))
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, strings.TrimRight(strings.TrimSpace(string(b)), ";"))
		names = append(names, fmt.Sprintf("q%02d", n))
	}
	newEngine := func(opts Options) *Engine {
		cat := catalog.New()
		if err := cat.RegisterDir(dir); err != nil {
			t.Fatal(err)
		}
		return testNew(cat, opts)
	}
	single := []*Engine{
		newEngine(Options{Threads: 1}),
		newEngine(Options{Threads: 2}),
		newEngine(Options{Threads: 2, BatchSize: 8192, MemoryLimit: 4 << 20, SpillDir: t.TempDir()}),
	}
	ranks := rankEngines(t, 3, dir, nil)
	defer func() {
		for _, e := range append(single, ranks...) {
			e.Close()
		}
	}()
	rng := rand.New(rand.NewPCG(*soakSeed, 0))
	// took is each query's time uncancelled, per engine set: the points to
	// stop at are drawn from 0 to 1.2 times it, so that most runs stop
	// somewhere inside the query and some complete first.
	took := map[string]time.Duration{}
	calibrate := func(key string, f func(context.Context) error) time.Duration {
		if d, ok := took[key]; ok {
			return d
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := f(ctx); err != nil {
			t.Fatalf("%s uncancelled: %v", key, err)
		}
		took[key] = time.Since(start)
		return took[key]
	}
	deadline := time.Now().Add(*soakTime)
	before := runtime.NumGoroutine()
	var runs, stopped, completed int
	for i := 0; ; i++ {
		if *soakTime == 0 && i == 40 || *soakTime > 0 && time.Now().After(deadline) {
			break
		}
		q := rng.IntN(len(qs))
		mode := rng.IntN(4)
		ei := rng.IntN(len(single))
		e := single[ei]
		query := func(ctx context.Context) error {
			res, err := e.Query(ctx, qs[q])
			if err == nil {
				res.Release()
			}
			return err
		}
		onRanks := func(ctx context.Context) error {
			_, got := runRanks(ctx, ranks, qs[q])
			return errors.Join(got...)
		}
		var full time.Duration
		if mode == 3 {
			full = calibrate("ranks/"+names[q], onRanks)
		} else {
			full = calibrate(fmt.Sprint(ei, "/", names[q]), query)
		}
		delay := time.Duration(rng.Int64N(int64(full)*6/5 + 1))
		what := fmt.Sprintf("run %d: %s, mode %d, stopped after %v of %v", i, names[q], mode, delay, full)
		var err error
		var engines []*Engine
		switch mode {
		case 0, 1: // cancel (0) or time out (1) one engine's query
			engines = []*Engine{e}
			err = stopAfter(t, what, delay, mode == 1, query)
		case 2: // a streaming consumer that goes away after a few batches
			engines = []*Engine{e}
			err = stopAfter(t, what, 0, false, func(ctx context.Context) error {
				s, err := e.QueryStream(ctx, qs[q])
				if err != nil {
					return err
				}
				defer s.Close()
				for k := rng.IntN(3); k > 0; k-- {
					b, ok := s.Next()
					if !ok {
						return s.Err()
					}
					b.Release()
				}
				// Gone before the end: a stop like a cancellation.
				return errs.New(errs.Cancelled, "the consumer closed the stream")
			})
		case 3: // cancel the query on all three ranks
			engines = ranks
			err = stopAfter(t, what, delay, false, onRanks)
		}
		runs++
		switch {
		case err == nil:
			completed++
		case errors.Is(err, errs.Cancelled) && onlyCancelled(err):
			stopped++
		default:
			t.Fatalf("%s: got %v, want the answer or a cancelled error", what, err)
		}
		for _, e := range engines {
			checkNoHeldMemory(t, e, what)
			if n := e.Memory().Reserved(gqmem.Host); n != 0 {
				t.Fatalf("%s: %d bytes still reserved", what, n)
			}
		}
		if mode == 3 {
			// The next statement must run, and start by dropping what
			// the stopped one left in the ranks' mailboxes.
			if _, got := runRanks(context.Background(), ranks, "select count(*) from nation"); errors.Join(got...) != nil {
				t.Fatalf("%s: the next statement on the ranks: %v", what, errors.Join(got...))
			}
			for _, e := range ranks {
				if n := shuffle.Queued(e.opts.Comm); n != 0 {
					t.Fatalf("%s: rank %d holds %d messages nobody will take", what, e.Rank(), n)
				}
			}
		}
		checkGoroutines(t, before)
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("%d runs: %d stopped by a cancellation or time-out, %d completed first; no leak, no hang", runs, stopped, completed)
	if stopped == 0 || completed == 0 {
		t.Errorf("%d stopped, %d completed: the random points miss one side", stopped, completed)
	}
}

// stopAfter runs f with a context cancelled (or timed out) after delay and
// fails the test when f has not returned 15 s later: a hang.
func stopAfter(t *testing.T, what string, delay time.Duration, timeout bool, f func(context.Context) error) error {
	var ctx context.Context
	var cancel context.CancelFunc
	if timeout {
		ctx, cancel = context.WithTimeout(context.Background(), delay)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
		if delay > 0 {
			time.AfterFunc(delay, cancel)
		}
	}
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(delay + 15*time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("%s: still running 15 s after it was stopped (a hang):\n%s", what, buf[:runtime.Stack(buf, true)])
		return nil
	}
}

// onlyCancelled: every error joined in err (one per rank) is a
// cancellation, not a communication failure one rank's cancellation
// caused in another.
func onlyCancelled(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if e != nil && !errors.Is(e, errs.Cancelled) {
				return false
			}
		}
	}
	return true
}
