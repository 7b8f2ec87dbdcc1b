package flight

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestLoad is the server load test of `make bench`: GQ_FLIGHT_LOAD=60s
// runs GQ_FLIGHT_CLIENTS (default 32) clients for that long, each looping
// over a mix of TPC-H queries, prepared point lookups and metadata calls
// on loopback. It reports queries/s and p50/p99 latency, fails on any
// error, and checks that the engine holds no query memory afterwards and
// the Go heap is back near its baseline.
func TestLoad(t *testing.T) {
	dur, err := time.ParseDuration(os.Getenv("GQ_FLIGHT_LOAD"))
	if err != nil {
		t.Skip("set GQ_FLIGHT_LOAD=60s to run the load test")
	}
	clients := 32
	if n, err := strconv.Atoi(os.Getenv("GQ_FLIGHT_CLIENTS")); err == nil && n > 0 {
		clients = n
	}
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e, MaxConcurrentQueries: runtime.NumCPU()})
	heapBefore := heapInUse()

	mix := []string{tpchQuery(t, 1), tpchQuery(t, 3), tpchQuery(t, 6), tpchQuery(t, 10), tpchQuery(t, 12), tpchQuery(t, 14),
		"select count(*) from orders where o_orderstatus = 'F'"}
	end := time.Now().Add(dur)
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	var failures []error
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := newClient(t, addr)
			prep, err := cl.Prepare(context.Background(), "select o_totalprice from orders where o_orderkey = ?")
			if err != nil {
				mu.Lock()
				failures = append(failures, err)
				mu.Unlock()
				return
			}
			defer prep.Close(context.Background())
			for i := c; ctx.Err() == nil; i++ {
				start := time.Now()
				var err error
				switch k := i % (len(mix) + 2); {
				case k < len(mix):
					err = runOnce(ctx, t, cl, mix[k])
				case k == len(mix):
					p := paramBatch([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, func(b *array.RecordBuilder) {
						b.Field(0).(*array.Int64Builder).Append(int64(1 + 4*(i%1000)))
					})
					prep.SetParameters(p)
					info, perr := prep.Execute(ctx)
					if err = perr; err == nil {
						var bs []arrow.RecordBatch
						_, bs, err = fetch(ctx, t, cl, info)
						release(bs)
					}
					p.Release()
				default:
					info, terr := cl.GetTables(ctx, nil)
					if err = terr; err == nil {
						var bs []arrow.RecordBatch
						_, bs, err = fetch(ctx, t, cl, info)
						release(bs)
					}
				}
				if ctx.Err() != nil || status.Code(err) == codes.DeadlineExceeded && time.Until(end) < time.Second {
					// The run ended under this call. The server sees the
					// deadline gRPC sends it a moment before this ctx
					// does: without the second test the loop went on
					// failing in microseconds until ctx noticed (1000-3500
					// errors, all within 10 ms of the end).
					return
				}
				mu.Lock()
				if err != nil {
					failures = append(failures, err)
				} else {
					lat = append(lat, time.Since(start))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d errors, first: %v", len(failures), failures[0])
	}
	if len(lat) == 0 {
		t.Fatal("no call finished")
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	t.Logf("%d clients, %v: %d calls, %.1f calls/s, p50 %v, p99 %v, max %v",
		clients, dur, len(lat), float64(len(lat))/dur.Seconds(), pct(0.50), pct(0.99), lat[len(lat)-1])
	waitHeld(t, e)
	heapAfter := heapInUse()
	t.Logf("Go heap in use: %d MiB before, %d MiB after; engine query memory held: %d bytes",
		heapBefore>>20, heapAfter>>20, e.HeldBytes())
	if heapAfter > heapBefore+64<<20 {
		t.Errorf("heap grew from %d to %d MiB", heapBefore>>20, heapAfter>>20)
	}
}

// runOnce runs sql and drops its result.
func runOnce(ctx context.Context, t *testing.T, cl *flightsql.Client, sql string) error {
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		return err
	}
	_, bs, err := fetch(ctx, t, cl, info)
	release(bs)
	return err
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
