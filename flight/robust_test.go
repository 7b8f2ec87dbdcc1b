package flight

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"gq/benchmarks/tpch"
	gqmem "gq/memory"
)

// soak is `make soak`'s loop length for TestServerRobustness: 0 runs one
// short round (make test); a duration repeats the rounds that long.
var soak = flag.Duration("flight.soak", 0, "TestServerRobustness: repeat its rounds this long (0: one short round)")

// robustness figures: how much of each round runs, and the slack allowed
// when comparing with the baseline.
const (
	robustDisconnects = 6    // streams dropped mid-way per round
	robustConns       = 1000 // connections opened and dropped per round
	robustParallel    = 50   // of those at once
	goroutineSlack    = 10
	heapSlack         = 32 << 20
	callTimeout       = 15 * time.Second // a call slower than this is a hang
)

// count is the number of queries the server is running.
func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.running)
}

// tombstones is the number of cancelled ids the server remembers.
func (r *registry) tombstones() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.cancelled)
}

// cancelFlood cancels n random, never issued statement ids, in requests
// of up to 20000 endpoints (about 1.3 MB each, below gRPC's 4 MiB): any
// client may send any id, and the server keeps each as a tombstone so a
// late DoGet of it fails.
func cancelFlood(t *testing.T, cl *flightsql.Client, n int) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*callTimeout)
	defer cancel()
	for sent := 0; sent < n; {
		k := min(n-sent, 20000)
		eps := make([]*flight.FlightEndpoint, k)
		for i := range eps {
			tkt, err := flightsql.CreateStatementQueryTicket(encodeHandle(newID(), ""))
			if err != nil {
				t.Fatal(err)
			}
			eps[i] = &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: tkt}}
		}
		res, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{Info: &flight.FlightInfo{Endpoint: eps}})
		if err != nil {
			t.Fatalf("cancelling %d unknown ids: %v", k, err)
		}
		if res.GetStatus() != flight.CancelStatusCancelled {
			t.Fatalf("cancelling %d unknown ids: status %v", k, res.GetStatus())
		}
		sent += k
	}
	return n
}

// waitIdle waits for the server to run no query: a query frees its
// memory (waitHeld) a moment before it leaves the registry.
func waitIdle(t *testing.T, srv *Server, when string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for srv.queries.count() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d queries still running", when, srv.queries.count())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startRobustServer is startServer that also hands back the *Server, so
// the test can see its running queries.
func startRobustServer(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	cfg.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Shutdown()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, lis.Addr().String()
}

// TestServerRobustness throws malformed requests, clients that leave
// mid-stream and a thousand short-lived connections (some speaking
// garbage) at one server, then checks that it still answers correctly and
// that its goroutines, Go heap and query memory are back to where they
// started. `make soak` repeats the rounds for -flight.soak.
func TestServerRobustness(t *testing.T) {
	e := smallBatchEngine(t)
	srv, addr := startRobustServer(t, Config{Engine: e})
	dial := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	cl, err := flightsql.NewClient(addr, nil, nil, dial...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	q := tpchQuery(t, 3)
	want := engineCSV(t, e, q)
	checkAnswer := func(what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		info, err := cl.Execute(ctx, q)
		if err != nil {
			t.Fatalf("%s: TPC-H q3: %v", what, err)
		}
		schema, got, err := fetch(ctx, t, cl, info)
		defer release(got)
		if err != nil {
			t.Fatalf("%s: TPC-H q3: %v", what, err)
		}
		if err := tpch.CompareCSV(csvOf(t, schema, got), want, ordered(q)); err != nil {
			t.Fatalf("%s: TPC-H q3: %v", what, err)
		}
	}
	checkAnswer("before")
	waitHeld(t, e)
	// The baseline: the client's connection is up and the engine warm.
	goBefore := runtime.NumGoroutine()
	heapBefore := heapInUse()

	start := time.Now()
	var rounds, requests, conns, dropped, cancels int
	for {
		rounds++
		requests += malformedRequests(t, addr, cl)
		if t.Failed() {
			return
		}
		dropped += dropStreams(t, addr, robustDisconnects)
		waitHeld(t, e)
		waitIdle(t, srv, fmt.Sprintf("round %d, after its clients left mid-stream", rounds))
		conns += churnConnections(t, addr, robustConns, robustParallel)
		// More unknown ids than the server keeps tombstones for: the
		// registry must stay bounded (and each cancel cheap).
		cancels += cancelFlood(t, cl, maxTombstones+maxTombstones/2)
		if n := srv.queries.tombstones(); n > maxTombstones {
			t.Fatalf("round %d: the server keeps %d cancelled ids, more than %d", rounds, n, maxTombstones)
		}
		if t.Failed() {
			return
		}
		t.Logf("round %d (%v): %d malformed requests, %d streams dropped, %d connections, %d unknown ids cancelled so far; %d goroutines",
			rounds, time.Since(start).Round(time.Millisecond), requests, dropped, conns, cancels, runtime.NumGoroutine())
		if time.Since(start) >= *soak {
			break
		}
	}

	checkAnswer("after")
	waitHeld(t, e)
	waitIdle(t, srv, "at the end")
	for tier := range gqmem.Tier(gqmem.NumTiers) {
		if n := e.Memory().Reserved(tier); n != 0 {
			t.Errorf("the engine still reserves %d bytes of %v", n, tier)
		}
	}
	// Connection goroutines end shortly after their connection closes.
	goAfter := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); goAfter > goBefore+goroutineSlack && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		goAfter = runtime.NumGoroutine()
	}
	heapAfter := heapInUse()
	t.Logf("%d rounds in %v: %d malformed requests, %d streams dropped, %d connections, %d unknown ids cancelled; goroutines %d before, %d after; Go heap in use %.1f MiB before, %.1f MiB after; engine query memory %d bytes",
		rounds, time.Since(start).Round(time.Millisecond), requests, dropped, conns, cancels,
		goBefore, goAfter, float64(heapBefore)/(1<<20), float64(heapAfter)/(1<<20), e.HeldBytes())
	if goAfter > goBefore+goroutineSlack {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after, %d before (slack %d):\n%s", goAfter, goBefore, goroutineSlack, buf[:runtime.Stack(buf, true)])
	}
	if heapAfter > heapBefore+heapSlack {
		t.Errorf("Go heap grew from %.1f to %.1f MiB (slack %d MiB)",
			float64(heapBefore)/(1<<20), float64(heapAfter)/(1<<20), heapSlack>>20)
	}
}

// garbage is n random bytes.
func garbage(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// anyOf is cmd packed in an Any, the form Flight SQL commands take.
func anyOf(t *testing.T, cmd proto.Message) []byte {
	t.Helper()
	a, err := anypb.New(cmd)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expectCode checks err is a gRPC status with one of codes: a client
// error answered as such, not a hang (DeadlineExceeded from callTimeout)
// nor a transport failure.
func expectCode(t *testing.T, what string, err error, want ...codes.Code) {
	t.Helper()
	got := status.Code(err)
	for _, c := range want {
		if got == c {
			return
		}
	}
	t.Errorf("%s: got %v (%v), want one of %v", what, got, err, want)
}

// stillServes checks the server answers a normal query after what.
func stillServes(t *testing.T, cl *flightsql.Client, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	info, err := cl.Execute(ctx, "select count(*) from nation")
	if err != nil {
		t.Fatalf("after %s: %v", what, err)
	}
	_, bs, err := fetch(ctx, t, cl, info)
	defer release(bs)
	if err != nil {
		t.Fatalf("after %s: %v", what, err)
	}
	if len(bs) != 1 || bs[0].NumRows() != 1 || bs[0].Column(0).(*array.Int64).Value(0) != 25 {
		t.Fatalf("after %s: count(*) from nation is not 25: %v", what, bs)
	}
}

// malformedRequests sends each kind of bad request once and returns how
// many it sent. Byte-level garbage goes through a raw Flight client, the
// rest through the Flight SQL client.
func malformedRequests(t *testing.T, addr string, cl *flightsql.Client) int {
	t.Helper()
	raw, err := flight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	n := 0
	try := func(what string, call func(ctx context.Context) error, want ...codes.Code) {
		t.Helper()
		n++
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		expectCode(t, what, call(ctx), want...)
		stillServes(t, cl, what)
	}
	// doGet reads a raw DoGet stream to its end: its status comes with
	// the first Recv.
	doGet := func(tkt []byte) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			s, err := raw.DoGet(ctx, &flight.Ticket{Ticket: tkt})
			if err != nil {
				return err
			}
			for {
				if _, err := s.Recv(); err != nil {
					if err == io.EOF {
						return nil
					}
					return err
				}
			}
		}
	}
	info := func(cmd []byte) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := raw.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: cmd})
			return err
		}
	}
	action := func(typ string, body []byte) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			s, err := raw.DoAction(ctx, &flight.Action{Type: typ, Body: body})
			if err != nil {
				return err
			}
			for {
				if _, err := s.Recv(); err != nil {
					if err == io.EOF {
						return nil
					}
					return err
				}
			}
		}
	}
	doPut := func(msgs ...*flight.FlightData) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			s, err := raw.DoPut(ctx)
			if err != nil {
				return err
			}
			for _, m := range msgs {
				if err := s.Send(m); err != nil {
					break // the server answered already: Recv has its status
				}
			}
			s.CloseSend()
			for {
				if _, err := s.Recv(); err != nil {
					if err == io.EOF {
						return nil
					}
					return err
				}
			}
		}
	}
	bad := []codes.Code{codes.InvalidArgument, codes.Unimplemented, codes.NotFound}
	stmt := anyOf(t, &pb.CommandStatementQuery{Query: "select count(*) from nation"})

	// DoGet.
	try("DoGet of garbage ticket bytes", doGet(garbage(64)), bad...)
	try("DoGet of an empty ticket", doGet(nil), bad...)
	short, err := flightsql.CreateStatementQueryTicket([]byte("no-such-handle"))
	if err != nil {
		t.Fatal(err)
	}
	try("DoGet of an unknown statement handle", doGet(short), bad...)
	try("DoGet of a truncated ticket", doGet(short[:len(short)/2]), bad...)
	try("DoGet of an Any with an unknown type", doGet(anyOf(t, &anypb.Any{TypeUrl: "type.googleapis.com/no.Such", Value: garbage(8)})), bad...)
	closed, err := cl.Execute(context.Background(), "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.CancelFlightInfo(context.Background(), &flight.CancelFlightInfoRequest{Info: closed}); err != nil {
		t.Fatal(err)
	}
	try("DoGet of a cancelled query's ticket", doGet(closed.Endpoint[0].Ticket.Ticket), codes.Canceled)

	// GetFlightInfo.
	try("GetFlightInfo of a garbage command", info(garbage(64)), bad...)
	try("GetFlightInfo of an empty command", info(nil), bad...)
	try("GetFlightInfo of an Any with an unknown type URL", info(anyOf(t, &anypb.Any{TypeUrl: "type.googleapis.com/no.Such", Value: stmt})), bad...)
	try("GetFlightInfo of a truncated command", info(stmt[:len(stmt)-7]), bad...)
	try("GetFlightInfo of a path descriptor", func(ctx context.Context) error {
		_, err := raw.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"lineitem"}})
		return err
	}, bad...)

	// DoPut.
	try("DoPut of garbage data", doPut(&flight.FlightData{DataHeader: garbage(32), DataBody: garbage(256)}), bad...)
	try("DoPut with a garbage descriptor", doPut(&flight.FlightData{
		FlightDescriptor: &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: garbage(40)},
		DataHeader:       garbage(32)}), bad...)
	try("DoPut of a statement update with garbage data", doPut(&flight.FlightData{
		FlightDescriptor: &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: anyOf(t, &pb.CommandStatementUpdate{Query: "drop view nope"})},
		DataHeader:       garbage(32), DataBody: garbage(64)}), append(bad, codes.FailedPrecondition)...)
	try("DoPut without any message", doPut(), bad...)

	// DoAction.
	try("DoAction of an unknown type", action("NoSuchAction", garbage(16)), bad...)
	try("ClosePreparedStatement with a garbage body", action(flightsql.ClosePreparedStatementActionType, garbage(48)), bad...)
	try("ClosePreparedStatement of an unknown handle", action(flightsql.ClosePreparedStatementActionType,
		anyOf(t, &pb.ActionClosePreparedStatementRequest{PreparedStatementHandle: garbage(32)})), bad...)
	try("CancelFlightInfo with a garbage body", action(flight.CancelFlightInfoActionType, garbage(48)), bad...)
	try("CancelFlightInfo without a FlightInfo", func(ctx context.Context) error {
		_, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{})
		return err
	}, bad...)
	try("CancelFlightInfo of a malformed statement handle", func(ctx context.Context) error {
		_, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{Info: &flight.FlightInfo{
			Endpoint: []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: short}}}}})
		return err
	}, bad...)
	try("CreatePreparedStatement with a garbage body", action(flightsql.CreatePreparedStatementActionType, garbage(48)), bad...)

	// Through the Flight SQL client.
	try("bad SQL", func(ctx context.Context) error {
		_, err := cl.Execute(ctx, "selec count(*) frm nation")
		return err
	}, codes.InvalidArgument)
	try("an unknown table", func(ctx context.Context) error {
		_, err := cl.Execute(ctx, "select * from no_such_table")
		return err
	}, codes.InvalidArgument)
	try("preparing bad SQL", func(ctx context.Context) error {
		_, err := cl.Prepare(ctx, "select from where ?")
		return err
	}, codes.InvalidArgument)
	// The client refuses to use a statement it closed, so the server-side
	// close goes through the raw client.
	closeRaw := func(ctx context.Context, h []byte) error {
		return action(flightsql.ClosePreparedStatementActionType,
			anyOf(t, &pb.ActionClosePreparedStatementRequest{PreparedStatementHandle: h}))(ctx)
	}
	try("a prepared statement executed after close", func(ctx context.Context) error {
		p, err := cl.Prepare(ctx, "select n_name from nation where n_nationkey = 1")
		if err != nil {
			return err
		}
		if err := closeRaw(ctx, p.Handle()); err != nil {
			return err
		}
		_, err = p.Execute(ctx)
		return err
	}, codes.NotFound)
	try("a prepared statement closed twice", func(ctx context.Context) error {
		p, err := cl.Prepare(ctx, "select n_name from nation")
		if err != nil {
			return err
		}
		if err := closeRaw(ctx, p.Handle()); err != nil {
			return err
		}
		return closeRaw(ctx, p.Handle())
	}, codes.NotFound)
	withParams := func(fields []arrow.Field, fill func(b *array.RecordBuilder)) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			p, err := cl.Prepare(ctx, "select n_name from nation where n_nationkey = ?")
			if err != nil {
				return err
			}
			defer p.Close(context.Background())
			params := paramBatch(fields, fill)
			defer params.Release()
			p.SetParameters(params)
			info, err := p.Execute(ctx)
			if err != nil {
				return err
			}
			_, bs, err := fetch(ctx, t, cl, info)
			release(bs)
			return err
		}
	}
	i64 := arrow.PrimitiveTypes.Int64
	try("too many parameters", withParams([]arrow.Field{{Name: "a", Type: i64}, {Name: "b", Type: i64}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int64Builder).Append(1)
		b.Field(1).(*array.Int64Builder).Append(2)
	}), codes.InvalidArgument)
	try("no parameter column", withParams(nil, func(*array.RecordBuilder) {}), codes.InvalidArgument)
	try("two parameter rows", withParams([]arrow.Field{{Name: "a", Type: i64}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	}), codes.InvalidArgument, codes.Unimplemented)
	try("a parameter of an unsupported type", withParams([]arrow.Field{{Name: "a", Type: arrow.ListOf(i64)}}, func(b *array.RecordBuilder) {
		lb := b.Field(0).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int64Builder).Append(1)
	}), codes.InvalidArgument, codes.Unimplemented)
	return n
}

// dropStreams starts n large results, reads one batch of each and goes
// away: half cancel the call's context, half close the connection.
func dropStreams(t *testing.T, addr string, n int) int {
	t.Helper()
	for i := range n {
		c, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		info, err := c.Execute(ctx, "select * from lineitem")
		if err != nil {
			t.Fatal(err)
		}
		rdr, err := c.DoGet(ctx, info.Endpoint[0].Ticket)
		if err != nil {
			t.Fatal(err)
		}
		if !rdr.Next() {
			t.Fatalf("no first batch: %v", rdr.Err())
		}
		if i%2 == 0 {
			cancel()
			rdr.Release()
			c.Close()
		} else {
			c.Close() // the connection goes while the stream is open
			rdr.Release()
			cancel()
		}
	}
	return n
}

// churnConnections opens n connections, par at a time, and drops each:
// a Flight SQL call then Close, a connection made and closed without a
// call, raw TCP that writes garbage, and raw TCP closed at once. It
// returns how many it made.
func churnConnections(t *testing.T, addr string, n, par int) int {
	t.Helper()
	var failures atomic.Int64
	var firstErr error
	var once sync.Once
	fail := func(err error) {
		failures.Add(1)
		once.Do(func() { firstErr = err })
	}
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			defer cancel()
			switch i % 4 {
			case 0: // a cheap call
				c, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
				if err != nil {
					fail(err)
					return
				}
				defer c.Close()
				if _, err := c.GetSqlInfo(ctx, []flightsql.SqlInfo{flightsql.SqlInfoFlightSqlServerName}); err != nil {
					fail(fmt.Errorf("GetSqlInfo: %w", err))
				}
			case 1: // connected, no call
				conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
				if err != nil {
					fail(err)
					return
				}
				defer conn.Close()
				conn.Connect()
				for s := conn.GetState(); s != connectivity.Ready; s = conn.GetState() {
					if !conn.WaitForStateChange(ctx, s) {
						fail(errors.New("a gRPC connection never became ready"))
						return
					}
				}
			case 2, 3: // raw TCP: garbage, or nothing at all
				var d net.Dialer
				c, err := d.DialContext(ctx, "tcp", addr)
				if err != nil {
					fail(err)
					return
				}
				defer c.Close()
				if i%4 == 2 {
					// Half of these start like HTTP/2, so the server gets
					// past the preface before the garbage.
					if i%8 == 2 {
						c.Write([]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))
					}
					c.Write(garbage(512))
				}
			}
		}()
	}
	wg.Wait()
	if f := failures.Load(); f > 0 {
		t.Errorf("%d of %d connections failed, first: %v", f, n, firstErr)
	}
	return n
}
