package flight

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"

	"gq/catalog"
	"gq/engine"
)

// bigQuery streams far more than gRPC buffers (lineitem joined with
// itself on the order key: about four times lineitem's rows), so the
// server is still producing when the client stops reading.
const bigQuery = "select a.l_orderkey, a.l_comment, b.l_comment from lineitem a join lineitem b on a.l_orderkey = b.l_orderkey"

// smallBatchEngine cuts results into many batches.
func smallBatchEngine(t *testing.T) *engine.Engine {
	t.Helper()
	cat := catalog.New()
	if err := cat.RegisterDir(tpchDir(t)); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{BatchSize: 4096})
	t.Cleanup(func() { e.Close() })
	return e
}

// openStream starts sql and reads its first batch.
func openStream(ctx context.Context, t *testing.T, addr, sql string) (*flight.FlightInfo, *flight.Reader) {
	t.Helper()
	cl := newClient(t, addr)
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	if !rdr.Next() {
		t.Fatalf("no first batch: %v", rdr.Err())
	}
	return info, rdr
}

// drain reads the rest of a stream and returns its error.
func drain(rdr *flight.Reader) error {
	defer rdr.Release()
	for rdr.Next() {
	}
	return rdr.Err()
}

// waitLog waits for a log line holding every one of subs.
func waitLog(t *testing.T, logs *logBuf, subs ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(logs.String(), "\n") {
			ok := true
			for _, s := range subs {
				ok = ok && strings.Contains(line, s)
			}
			if ok {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no log line with %q:\n%s", subs, logs.String())
}

// TestClientDisconnectCancels: a client that goes away mid-stream stops
// its query, and the query's memory and goroutines are freed.
func TestClientDisconnectCancels(t *testing.T) {
	e := smallBatchEngine(t)
	addr, logs := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	warm, err := cl.Execute(testCtx(t), "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(testCtx(t), t, cl, warm)
	release(bs)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine() // the connection's goroutines included
	ctx, cancel := context.WithCancel(testCtx(t))
	info, err := cl.Execute(ctx, bigQuery)
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	if !rdr.Next() {
		t.Fatalf("no first batch: %v", rdr.Err())
	}
	cancel()
	rdr.Release()
	waitLog(t, logs, `"query failed"`, `"phase":"run"`, "cancel")
	waitHeld(t, e)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the cancelled query, %d before", n, before)
	}
}

// TestCancelFlightInfo cancels a query before it runs and while it runs.
func TestCancelFlightInfo(t *testing.T) {
	e := smallBatchEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)

	info, err := cl.Execute(ctx, "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	res, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{Info: info})
	if err != nil || res.GetStatus() != flight.CancelStatusCancelled {
		t.Fatalf("cancel: %v %v", res, err)
	}
	_, bs, err := fetch(ctx, t, cl, info)
	release(bs)
	wantCode(t, "DoGet of a cancelled FlightInfo", err, codes.Canceled)

	info, rdr := openStream(ctx, t, addr, bigQuery)
	if _, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{Info: info}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "stream of a cancelled query", drain(rdr), codes.Canceled)
	waitHeld(t, e)
}

// TestQueryTimeout: a query over the timeout fails alone (wherever the
// timeout finds it: before its first batch or while the client dawdles);
// the server keeps serving.
func TestQueryTimeout(t *testing.T) {
	e := smallBatchEngine(t)
	addr, _ := startServer(t, Config{Engine: e, QueryTimeout: 300 * time.Millisecond})
	ctx := testCtx(t)
	cl := newClient(t, addr)
	info, err := cl.Execute(ctx, bigQuery)
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err == nil {
		if rdr.Next() {
			time.Sleep(500 * time.Millisecond)
		}
		err = drain(rdr)
	}
	wantCode(t, "query past its timeout", err, codes.DeadlineExceeded)
	info, err = cl.Execute(ctx, "select count(*) from region")
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(ctx, t, cl, info)
	release(bs)
	if err != nil {
		t.Fatalf("after a timed-out query: %v", err)
	}
	waitHeld(t, e)
}

// TestMaxConcurrentQueries: beyond the limit queries wait in line, and
// run once a slot frees.
func TestMaxConcurrentQueries(t *testing.T) {
	e := smallBatchEngine(t)
	addr, _ := startServer(t, Config{Engine: e, MaxConcurrentQueries: 1})
	ctx := testCtx(t)
	actx, cancelA := context.WithCancel(ctx)
	_, rdrA := openStream(actx, t, addr, bigQuery)

	done := make(chan error, 1)
	go func() {
		cl := newClient(t, addr)
		info, err := cl.Execute(ctx, "select count(*) from nation")
		if err == nil {
			var bs []arrow.RecordBatch
			_, bs, err = fetch(ctx, t, cl, info)
			release(bs)
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("second query ran beside the first (limit 1): %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancelA()
	rdrA.Release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("queued query never ran")
	}
	waitHeld(t, e)
}

// TestCancelADBC: an ADBC reader released mid-stream (its context
// cancelled) stops the server's query and frees its memory.
func TestCancelADBC(t *testing.T) {
	e := smallBatchEngine(t)
	addr, logs := startServer(t, Config{Engine: e})
	cn, err := adbcConn(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	st, err := cn.NewStatement()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.SetSqlQuery(bigQuery)
	rdr, _, err := st.ExecuteQuery(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rdr.Next() {
		t.Fatalf("no first batch: %v", rdr.Err())
	}
	cancel()
	rdr.Release()
	waitLog(t, logs, `"query failed"`, "cancel")
	waitHeld(t, e)
}
