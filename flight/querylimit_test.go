package flight

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/catalog"
	"gq/engine"
	gqmem "gq/memory"
)

// limitedEngine is an engine over the TPC-H tables whose queries may each
// hold at most limit bytes.
func limitedEngine(t *testing.T, limit int64) *engine.Engine {
	t.Helper()
	cat := catalog.New()
	if err := cat.RegisterDir(tpchDir(t)); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{QueryMemoryLimit: limit})
	t.Cleanup(func() { e.Close() })
	return e
}

// TestQueryMemoryLimit: under a tiny per-query limit, a query over
// lineitem (whose batches alone outgrow it) fails alone with
// ResourceExhausted while small queries run beside it and after it; the
// memory comes back.
func TestQueryMemoryLimit(t *testing.T) {
	e := limitedEngine(t, 256<<10)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	const big = "select l_orderkey, l_partkey, l_suppkey, count(*) from lineitem group by l_orderkey, l_partkey, l_suppkey"
	const small = "select n_name from nation order by n_name"

	var wg sync.WaitGroup
	stop := make(chan struct{})
	smallOK := 0
	wg.Add(1)
	go func() { // small queries while the big one runs
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			rows, err := runRows(ctx, t, cl, small)
			if err != nil || rows != 25 {
				t.Errorf("concurrent small query: %d rows, %v", rows, err)
				return
			}
			smallOK++
		}
	}()
	_, err := runRows(ctx, t, cl, big)
	close(stop)
	wg.Wait()
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "query memory limit exceeded") {
		t.Fatalf("big query: %v; want ResourceExhausted, query memory limit exceeded", err)
	}
	if smallOK == 0 {
		t.Error("no small query ran beside the big one")
	}
	if rows, err := runRows(ctx, t, cl, small); err != nil || rows != 25 {
		t.Errorf("small query after the failure: %d rows, %v", rows, err)
	}
	waitHeld(t, e)
	if r := e.Memory().Reserved(gqmem.Host); r != 0 {
		t.Errorf("%d bytes still reserved", r)
	}
	t.Logf("%d small queries ran beside the failing one; error: %v", smallOK, err)
}

// runRows runs sql through the client and counts its rows.
func runRows(ctx context.Context, t *testing.T, cl *flightsql.Client, sql string) (int64, error) {
	t.Helper()
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		return 0, err
	}
	_, got, err := fetch(ctx, t, cl, info)
	defer release(got)
	var n int64
	for _, b := range got {
		n += b.NumRows()
	}
	return n, err
}
