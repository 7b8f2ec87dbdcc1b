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
			start := time.Now()
			res, err := e.Query(context.Background(), q)
			if err == nil {
				res.Release()
				t.Fatalf("%s: no error", q)
			}
			if !errors.Is(err, errs.ResourcesExhausted) || !strings.Contains(err.Error(), "did not end after 300 iterations") {
				t.Errorf("%s: %v", q, err)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s: failed after %v", q, d)
			}
			checkNoHeldMemory(t, e, q)
		}
		e.Close()
	}

	// Under a memory limit, a UNION recursion whose rows double each
	// iteration stops at the limit, long before the iteration limit.
	exec.MaxRecursion = 1_000_000
	e := newTestEngine(t, Options{MemoryLimit: 4 << 20})
	defer e.Close()
	q := "with recursive r(n, d) as (select 1, 0 union select n * 2 + k, d + 1 from r, (select 0 as k union all select 1) two) select count(*) from r"
	res, err := e.Query(context.Background(), q)
	if err == nil {
		res.Release()
		t.Fatalf("%s: no error under a 4 MiB limit", q)
	}
	if !errors.Is(err, errs.ResourcesExhausted) || !strings.Contains(err.Error(), "no longer fit in memory") {
		t.Errorf("%s: %v", q, err)
	}
	checkNoHeldMemory(t, e, q)

	// Cancelled: the query ends with the context, not at a limit.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err = e.Query(ctx, "with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t")
	if err == nil {
		res.Release()
		t.Fatal("endless recursion under a deadline: no error")
	}
	if !errors.Is(err, errs.Cancelled) {
		t.Errorf("endless recursion under a deadline: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled recursion ended after %v", d)
	}
	checkNoHeldMemory(t, e, "cancelled recursion")
}
