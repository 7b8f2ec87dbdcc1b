package flight

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/engine"
	"gq/format"
)

// The tests serve TPC-H data: the repository's SF 0.1 set when present
// (make data), else SF 0.01 generated once into a temporary directory.
const sf01Dir = "../data/tpch-sf0.1"

var (
	dataOnce sync.Once
	dataDir  string
	dataErr  error
	tmpData  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if tmpData != "" {
		os.RemoveAll(tmpData)
	}
	os.Exit(code)
}

func tpchDir(t testing.TB) string {
	t.Helper()
	dataOnce.Do(func() {
		if _, err := os.Stat(sf01Dir); err == nil {
			dataDir = sf01Dir
			return
		}
		tmpData, dataErr = os.MkdirTemp("", "gq-flight-tpch")
		if dataErr == nil {
			dataErr = tpch.Generate(0.01, tmpData)
			dataDir = tmpData
		}
	})
	if dataErr != nil {
		t.Fatalf("TPC-H data: %v", dataErr)
	}
	return dataDir
}

// newEngine is an engine over the TPC-H tables.
func newEngine(t testing.TB) *engine.Engine {
	t.Helper()
	cat := catalog.New()
	if err := cat.RegisterDir(tpchDir(t)); err != nil {
		t.Fatal(err)
	}
	e := engine.New(cat, engine.Options{})
	t.Cleanup(func() { e.Close() })
	return e
}

// logBuf collects a server's JSON log lines.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startServer serves cfg on a loopback port until the test ends and
// returns its address and log.
func startServer(t testing.TB, cfg Config) (string, *logBuf) {
	t.Helper()
	if cfg.Engine == nil {
		cfg.Engine = newEngine(t)
	}
	logs := &logBuf{}
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
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
	return lis.Addr().String(), logs
}

// newClient is an arrow-go Flight SQL client of addr.
func newClient(t testing.TB, addr string, opts ...grpc.DialOption) *flightsql.Client {
	t.Helper()
	cl := dialOnce(t, addr, opts...)
	t.Cleanup(func() { cl.Close() })
	return cl
}

// dialOnce is newClient for a client its caller closes: a loop making
// thousands of them must not keep each alive in the test's clean-ups.
func dialOnce(t testing.TB, addr string, opts ...grpc.DialOption) *flightsql.Client {
	t.Helper()
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	cl, err := flightsql.NewClient(addr, nil, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// fetch reads every endpoint of info and checks each stream's schema is
// the FlightInfo's.
func fetch(ctx context.Context, t *testing.T, cl *flightsql.Client, info *flight.FlightInfo) (*arrow.Schema, []arrow.RecordBatch, error) {
	t.Helper()
	want, err := flight.DeserializeSchema(info.Schema, nil)
	if err != nil {
		t.Fatalf("FlightInfo schema: %v", err)
	}
	var out []arrow.RecordBatch
	for _, ep := range info.Endpoint {
		rdr, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			return want, out, err
		}
		if !rdr.Schema().Equal(want) {
			t.Errorf("stream schema %v, FlightInfo schema %v", rdr.Schema(), want)
		}
		for rdr.Next() {
			b := rdr.RecordBatch()
			b.Retain()
			out = append(out, b)
		}
		err = rdr.Err()
		rdr.Release()
		if err != nil {
			return want, out, err
		}
	}
	return want, out, nil
}

func release(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// csvOf renders batches as CSV, the form tpch.CompareCSV compares.
func csvOf(t *testing.T, schema *arrow.Schema, bs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := format.WriteCSV(&buf, schema, bs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// engineCSV is the engine's own answer to sql, as CSV.
func engineCSV(t *testing.T, e *engine.Engine, sql string) []byte {
	t.Helper()
	res, err := e.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	defer res.Release()
	return csvOf(t, res.Schema, res.Batches)
}

// readAll drains an array.RecordReader.
func readAll(t *testing.T, rdr array.RecordReader) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	defer rdr.Release()
	var out []arrow.RecordBatch
	for rdr.Next() {
		b := rdr.RecordBatch()
		b.Retain()
		out = append(out, b)
	}
	if err := rdr.Err(); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return rdr.Schema(), out
}

func ordered(sql string) bool { return strings.Contains(strings.ToLower(sql), "order by") }

// waitHeld waits for the engine to hold no query memory (a cancelled
// query frees its batches as its goroutines stop).
func waitHeld(t *testing.T, e *engine.Engine) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.HeldBytes() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("engine still holds %d bytes", e.HeldBytes())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
