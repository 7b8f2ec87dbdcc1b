package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"gq/errs"
	"gq/exec"
)

// A recursion that never ends fails in bounded time: at the iteration
// limit, at the memory limit, or when the query is cancelled, with no
// batch or goroutine left behind.
func TestRecursiveCTERunaway(t *testing.T) {
	defer func(n int) { exec.MaxRecursion = n }(exec.MaxRecursion)
	exec.MaxRecursion = 300
	endless := []string{
		// One row an iteration, forever.
		"with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t",
		// A cycle walked with UNION ALL: no row is ever dropped.
		"with recursive r(n) as (select 1 union all select e.dst from r join (select 1 as src, 2 as dst union all select 2, 1) e on e.src = r.n) select count(*) from r",
		// UNION whose rows are all new (the depth grows).
		"with recursive r(n, d) as (select 1, 0 union select n, d + 1 from r) select max(d) from r",
	}
	for _, opts := range []Options{{}, {Threads: 3, BatchSize: 2, SpillAlways: true}} {
		e := newTestEngine(t, opts)
		for _, q := range endless {
			failsWithin(t, e, context.Background(), q, errs.ResourcesExhausted, "did not end after 300 iterations")
		}
		e.Close()
	}

	// Under a memory limit, a UNION recursion whose rows double each
	// iteration stops at the limit, long before the iteration limit.
	exec.MaxRecursion = 1_000_000
	e := newTestEngine(t, Options{MemoryLimit: 4 << 20})
	defer e.Close()
	failsWithin(t, e, context.Background(),
		"with recursive r(n, d) as (select 1, 0 union select n * 2 + k, d + 1 from r, (select 0 as k union all select 1) two) select count(*) from r",
		errs.ResourcesExhausted, "no longer fit in memory")

	// Cancelled: the query ends with the context, not at a limit.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	failsWithin(t, e, ctx, "with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t", errs.Cancelled, "")
}

// failsWithin runs q on e under ctx and checks that it fails with an
// error of kind whose text holds want, within 20 seconds, leaving no
// query memory held.
func failsWithin(t *testing.T, e *Engine, ctx context.Context, q string, kind error, want string) {
	t.Helper()
	start := time.Now()
	res, err := e.Query(ctx, q)
	if err == nil {
		res.Release()
		t.Fatalf("%s: no error", q)
	}
	if !errors.Is(err, kind) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want %v containing %q", q, err, kind, want)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("%s: failed after %v", q, d)
	}
	checkNoHeldMemory(t, e, q)
}
