package flight

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/benchmarks/tpch"
)

// TestHostileLoad mixes hostile clients into a load of honest ones on a
// server with a token and small limits: parameter floods, clients that
// stop reading their streams, DDL on the shared tables and bad tokens.
// Every honest answer must be right and every call succeed; the limits
// must hold within 10% while it runs; and once everyone leaves, no
// session, statement byte, table byte or query memory remains and the Go
// heap is back near its baseline. `make test` runs it for a few seconds
// with a few clients; `make soak` with 32 honest clients for
// -flight.soak.
func TestHostileLoad(t *testing.T) {
	dur, honest, hostile := 3*time.Second, 4, 4
	if *soak > 0 {
		dur, honest, hostile = *soak, 32, 8
	}
	const (
		token       = "good-token"
		sessStmt    = 16 << 20
		totalStmt   = 256 << 20
		sessTables  = 16 << 20
		streamIdle  = 400 * time.Millisecond
		maxSessions = 200
	)
	e := smallBatchEngine(t)
	srv, addr := startRobustServer(t, Config{Engine: e, AuthToken: token, MaxConcurrentQueries: runtime.NumCPU(),
		MaxSessionStmtBytes: sessStmt, MaxParamBytesTotal: totalStmt, MaxSessionTableBytes: sessTables,
		StreamIdleTimeout: streamIdle, MaxSessions: maxSessions, SessionIdleTimeout: 2 * time.Second})
	mix := []string{tpchQuery(t, 1), tpchQuery(t, 3), tpchQuery(t, 6), tpchQuery(t, 12),
		"select count(*) from orders where o_orderstatus = 'F'"}
	want := make([][]byte, len(mix))
	for i, q := range mix {
		want[i] = engineCSV(t, e, q)
	}
	base := bearer(context.Background(), token)
	param := bigString(3 << 20)
	defer param.Release()
	heapBefore := heapInUse()
	end := time.Now().Add(dur)
	ctx, cancel := context.WithDeadline(base, end)
	defer cancel()

	// The limits, watched while the load runs.
	var maxStmt, maxTables, maxSess atomic.Int64
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		for ctx.Err() == nil {
			for _, m := range []struct {
				v *atomic.Int64
				n int64
			}{{&maxStmt, srv.paramBytes.Load()}, {&maxTables, srv.tableBytes.Load()}, {&maxSess, int64(srv.sessions.len())}} {
				if m.n > m.v.Load() {
					m.v.Store(m.n)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()

	var wrong, failures, calls atomic.Int64
	var firstErr error
	var once sync.Once
	fail := func(what string, err error) {
		failures.Add(1)
		once.Do(func() { firstErr = fmt.Errorf("%s: %w", what, err) })
	}
	over := func(err error) bool {
		return ctx.Err() != nil || status.Code(err) == codes.DeadlineExceeded && time.Until(end) < time.Second
	}
	var hostileCalls [4]atomic.Int64
	var wg sync.WaitGroup
	for c := range honest {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := newClient(t, addr)
			for i := c; ctx.Err() == nil; i++ {
				k := i % len(mix)
				info, err := cl.Execute(ctx, mix[k])
				var bs []arrow.RecordBatch
				var schema *arrow.Schema
				if err == nil {
					schema, bs, err = fetch(ctx, t, cl, info)
				}
				if over(err) {
					release(bs)
					return
				}
				if err != nil {
					fail("honest "+mix[k][:min(30, len(mix[k]))], err)
				} else if cerr := tpch.CompareCSV(csvOf(t, schema, bs), want[k], ordered(mix[k])); cerr != nil {
					wrong.Add(1)
					fail("wrong answer", cerr)
				}
				release(bs)
				calls.Add(1)
			}
		}()
	}
	for h := range hostile {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kind := h % 4
			for ctx.Err() == nil {
				cl := dialOnce(t, addr)
				switch kind {
				case 0: // a parameter flood, refused at the session's bound
					for ctx.Err() == nil {
						p, err := cl.Prepare(ctx, "select length(?) as n")
						if err == nil {
							p.SetParameters(param)
							_, err = p.Execute(ctx)
						}
						if over(err) {
							break
						}
						if status.Code(err) == codes.ResourceExhausted {
							hostileCalls[kind].Add(1)
							break
						}
						if err != nil {
							fail("a parameter flood", err)
							break
						}
					}
				case 1: // a stream never read past its first batch
					info, err := cl.Execute(ctx, "select * from lineitem, nation")
					if err == nil {
						rdr, rerr := cl.DoGet(ctx, info.Endpoint[0].Ticket)
						if rerr == nil {
							rdr.Next()
							time.Sleep(2 * streamIdle)
							for rdr.Next() {
							}
							err = rdr.Err()
							rdr.Release()
						} else {
							err = rerr
						}
					}
					if !over(err) && status.Code(err) != codes.DeadlineExceeded {
						fail("an idle stream", err)
					}
					hostileCalls[kind].Add(1)
				case 2: // DDL on the shared tables, and a CTAS flood
					for _, ddl := range []string{"drop table lineitem", "create or replace view nation as select 1 as x"} {
						if _, err := cl.ExecuteUpdate(ctx, ddl); !over(err) && status.Code(err) != codes.InvalidArgument {
							fail(ddl, err)
						}
					}
					for i := 0; ctx.Err() == nil; i++ {
						_, err := cl.ExecuteUpdate(ctx, fmt.Sprintf("create table t%d as select o_orderkey from orders", i))
						if over(err) || status.Code(err) == codes.ResourceExhausted {
							break
						}
						if err != nil {
							fail("a CTAS flood", err)
							break
						}
					}
					hostileCalls[kind].Add(1)
				case 3: // bad tokens
					bad := bearer(context.Background(), fmt.Sprintf("%032x", time.Now().UnixNano()))
					bctx, bcancel := context.WithDeadline(bad, end)
					_, err := cl.Execute(bctx, "select count(*) from nation")
					bcancel()
					if !over(err) && status.Code(err) != codes.Unauthenticated {
						fail("a bad token", err)
					}
					hostileCalls[kind].Add(1)
				}
				cl.Close()
			}
		}()
	}
	wg.Wait()
	<-watchDone
	if failures.Load() > 0 {
		t.Errorf("%d failures (%d wrong answers), first: %v", failures.Load(), wrong.Load(), firstErr)
	}
	if calls.Load() == 0 {
		t.Fatal("no honest call finished")
	}
	t.Logf("%v: %d honest queries; hostile: %d floods refused, %d idle streams cut, %d DDL rounds, %d bad tokens; peaks: %d MiB statements, %d MiB tables, %d sessions",
		dur, calls.Load(), hostileCalls[0].Load(), hostileCalls[1].Load(), hostileCalls[2].Load(), hostileCalls[3].Load(),
		maxStmt.Load()>>20, maxTables.Load()>>20, maxSess.Load())
	floods := int64((hostile + 3) / 4)
	if maxStmt.Load() > floods*sessStmt*11/10 || maxStmt.Load() > totalStmt*11/10 {
		t.Errorf("statements held %d bytes at the peak, over %d floods' bound of %d each", maxStmt.Load(), floods, sessStmt)
	}
	if ddl := int64((hostile + 1) / 4); maxTables.Load() > ddl*sessTables*11/10 {
		t.Errorf("tables held %d bytes at the peak, over the sessions' quota of %d", maxTables.Load(), sessTables)
	}
	if maxSess.Load() > maxSessions*11/10 {
		t.Errorf("%d sessions at the peak, bound %d", maxSess.Load(), maxSessions)
	}
	// Everyone has left: the sessions go with their connections.
	deadline := time.Now().Add(10 * time.Second)
	for (srv.sessions.len() > 0 || srv.paramBytes.Load() != 0 || srv.tableBytes.Load() != 0) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := srv.sessions.len(); n != 0 || srv.paramBytes.Load() != 0 || srv.tableBytes.Load() != 0 {
		t.Errorf("after the load: %d sessions, %d statement bytes, %d table bytes", n, srv.paramBytes.Load(), srv.tableBytes.Load())
	}
	waitHeld(t, e)
	waitIdle(t, srv, "after the load")
	heapAfter := heapInUse()
	t.Logf("Go heap in use: %.1f MiB before, %.1f MiB after", float64(heapBefore)/(1<<20), float64(heapAfter)/(1<<20))
	if heapAfter > heapBefore+heapBefore/10+8<<20 {
		t.Errorf("the heap grew from %.1f to %.1f MiB", float64(heapBefore)/(1<<20), float64(heapAfter)/(1<<20))
	}
}
