package flight

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/engine"
	"gq/shuffle"
)

// rankEngines starts n ranks over the local communicator: rank 0's engine
// is returned for a server, the others follow it until the test ends.
func rankEngines(t *testing.T, n int) (*engine.Engine, []*shuffle.Statistics) {
	t.Helper()
	comms := shuffle.NewLocal(n)
	stats := make([]*shuffle.Statistics, n)
	engines := make([]*engine.Engine, n)
	for r := range n {
		cat := catalog.New()
		if err := cat.RegisterDir(tpchDir(t)); err != nil {
			t.Fatal(err)
		}
		stats[r] = shuffle.NewStatistics()
		engines[r] = engine.New(cat, engine.Options{Comm: comms[r], Threads: 2, ShuffleStats: stats[r]})
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, n-1)
	for r := 1; r < n; r++ {
		go func() { done <- engines[r].FollowStatements(ctx) }()
	}
	t.Cleanup(func() {
		engines[0].StopFollowers()
		timeout := time.After(10 * time.Second)
		for r := 1; r < n; r++ {
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("follower: %v", err)
				}
			case <-timeout:
				t.Error("a follower did not stop")
			}
		}
		cancel()
		for r := range n {
			engines[r].Close()
			comms[r].Close()
		}
	})
	return engines[0], stats
}

// TestServeUnderRanks serves three ranks: TPC-H queries, DDL and a
// prepared statement run on every rank and give the one-rank answers; a
// cancelled query stops on every rank and the next ones still run.
func TestServeUnderRanks(t *testing.T) {
	lead, stats := rankEngines(t, 3)
	single := newEngine(t)
	addr, _ := startServer(t, Config{Engine: lead, AllowDDL: true})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	// Without --allow-ddl a session's DDL is refused under ranks (the other
	// ranks know no session), saying so.
	strict, _ := startServer(t, Config{Engine: lead})
	if _, err := newClient(t, strict).ExecuteUpdate(ctx, "create view v as select 1 as x"); status.Code(err) != codes.Unimplemented ||
		!strings.Contains(err.Error(), "--allow-ddl") {
		t.Fatalf("DDL under ranks without --allow-ddl: %v", err)
	}
	for _, n := range []int{1, 3, 6, 10, 18} {
		t.Run(fmt.Sprintf("q%02d", n), func(t *testing.T) {
			sql := tpchQuery(t, n)
			info, err := cl.Execute(ctx, sql)
			if err != nil {
				t.Fatal(err)
			}
			schema, got, err := fetch(ctx, t, cl, info)
			defer release(got)
			if err != nil {
				t.Fatal(err)
			}
			if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, single, sql), ordered(sql)); err != nil {
				t.Error(err)
			}
		})
	}
	// DDL runs on every rank: a view made through the server is there
	// when a distributed query plans on every rank.
	if _, err := cl.ExecuteUpdate(ctx, "create view big_orders as select o_orderkey, o_custkey from orders where o_totalprice > 400000"); err != nil {
		t.Fatal(err)
	}
	const viewQuery = "select count(*) as n from big_orders join customer on o_custkey = c_custkey"
	info, err := cl.Execute(ctx, viewQuery)
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err := fetch(ctx, t, cl, info)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := single.Query(ctx, "create view big_orders as select o_orderkey, o_custkey from orders where o_totalprice > 400000"); err != nil {
		t.Fatal(err)
	}
	if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, single, viewQuery), false); err != nil {
		t.Error(err)
	}
	release(got)
	// A prepared statement's execution, parameters bound, runs everywhere.
	prep, err := cl.Prepare(ctx, "select o_orderpriority, count(*) as n from orders join customer on o_custkey = c_custkey where c_nationkey = ? group by o_orderpriority order by o_orderpriority")
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(ctx)
	params := paramBatch([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).Append(7)
	})
	defer params.Release()
	prep.SetParameters(params)
	if info, err = prep.Execute(ctx); err != nil {
		t.Fatal(err)
	}
	schema, got, err = fetch(ctx, t, cl, info)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Error("the prepared statement returned no rows")
	}
	if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, single, "select o_orderpriority, count(*) as n from orders join customer on o_custkey = c_custkey where c_nationkey = 7 group by o_orderpriority order by o_orderpriority"), true); err != nil {
		t.Error(err)
	}
	release(got)
	// A query that fails on every rank fails cleanly, and the ranks go on.
	if info, err := cl.Execute(ctx, "select no_such_column from lineitem"); err == nil {
		_, got, err = fetch(ctx, t, cl, info)
		release(got)
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("bad query: %v, want InvalidArgument", err)
		}
	}
	// A client that cancels mid-stream stops the statement everywhere.
	cctx, cancel := context.WithCancel(ctx)
	info, err = cl.Execute(cctx, "select l_orderkey, l_comment from lineitem order by l_comment")
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(cctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	rdr.Next()
	cancel()
	for rdr.Next() {
	}
	rdr.Release()
	sql := tpchQuery(t, 6)
	info, err = cl.Execute(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err = fetch(ctx, t, cl, info)
	defer release(got)
	if err != nil {
		t.Fatalf("query after a cancelled one: %v", err)
	}
	if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, single, sql), false); err != nil {
		t.Error(err)
	}
	// Concurrent clients: their statements take turns across the ranks.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rows, err := runRows(ctx, t, newClient(t, addr), tpchQuery(t, 6)); err != nil || rows != 1 {
				t.Errorf("concurrent q06: %d rows, %v", rows, err)
			}
		}()
	}
	wg.Wait()
	waitHeld(t, lead)
	// The followers did their share: they sent rows through exchanges.
	for r := 1; r < 3; r++ {
		if st := stats[r].Get(shuffle.StatPayloadSend); st.Count == 0 {
			t.Errorf("rank %d sent nothing: the statements did not run there", r)
		}
	}
}
