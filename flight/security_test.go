package flight

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"gq/errs"
)

// The probes of issue 28 against the Flight SQL server, each asserting
// the safe outcome: a client cannot change what another sees nor use its
// statements, and every limit (parameters, tables, slots, tokens,
// shutdown) holds.

// count runs a one-value query and returns its value; err is the call's.
func countOf(ctx context.Context, t *testing.T, cl *flightsql.Client, sql string) (int64, error) {
	t.Helper()
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		return 0, err
	}
	_, bs, err := fetch(ctx, t, cl, info)
	defer release(bs)
	if err != nil {
		return 0, err
	}
	if len(bs) != 1 || bs[0].NumRows() != 1 {
		t.Fatalf("%s: want one row, got %v", sql, bs)
	}
	return bs[0].Column(0).(*array.Int64).Value(0), nil
}

// TestSessionDDL: DDL from client A is invisible to client B, and no
// client can drop or replace a shared table; with AllowDDL both are
// shared again.
func TestSessionDDL(t *testing.T) {
	addr, _ := startServer(t, Config{})
	a, b := newClient(t, addr), newClient(t, addr)
	ctx := testCtx(t)
	if _, err := a.ExecuteUpdate(ctx, "create view mine as select n_nationkey from nation"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ExecuteUpdate(ctx, "create table mytab as select r_regionkey from region"); err != nil {
		t.Fatal(err)
	}
	if n, err := countOf(ctx, t, a, "select count(*) from mine join mytab on n_nationkey = r_regionkey"); err != nil || n != 5 {
		t.Fatalf("A's own view and table: %d, %v", n, err)
	}
	for _, q := range []string{"select count(*) from mine", "select count(*) from mytab"} {
		_, err := countOf(ctx, t, b, q)
		wantCode(t, "B reading A's object: "+q, err, codes.InvalidArgument)
	}
	// B may use the same names for its own objects.
	if _, err := b.ExecuteUpdate(ctx, "create view mine as select r_regionkey from region"); err != nil {
		t.Fatal(err)
	}
	if n, err := countOf(ctx, t, a, "select count(*) from mine"); err != nil || n != 25 {
		t.Fatalf("A's view after B made its own of that name: %d, %v", n, err)
	}
	// GetTables lists one's own objects, not the other's.
	names := func(cl *flightsql.Client) string {
		info, err := cl.GetTables(ctx, &flightsql.GetTablesOpts{})
		if err != nil {
			t.Fatal(err)
		}
		_, bs, err := fetch(ctx, t, cl, info)
		defer release(bs)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range bs {
			col := r.Column(2).(*array.String)
			for i := range col.Len() {
				out = append(out, col.Value(i))
			}
		}
		return strings.Join(out, ",")
	}
	if got := names(b); strings.Contains(got, "mytab") || !strings.Contains(got, "mine") || !strings.Contains(got, "lineitem") {
		t.Errorf("B's tables: %s", got)
	}
	for _, ddl := range []string{"drop table lineitem", "drop table if exists lineitem", "drop view if exists nation",
		"create or replace view region as select 1 as x", "create table nation as select 1 as x"} {
		_, err := a.ExecuteUpdate(ctx, ddl)
		// CREATE TABLE of a taken name fails as it always did ("already
		// exists"); the rest say why.
		if status.Code(err) != codes.InvalidArgument || !strings.HasPrefix(ddl, "create table") && !strings.Contains(err.Error(), "--allow-ddl") {
			t.Errorf("%s from a client: %v (want InvalidArgument naming --allow-ddl)", ddl, err)
		}
	}
	if _, err := b.ExecuteUpdate(ctx, "drop table mytab"); status.Code(err) != codes.InvalidArgument {
		t.Errorf("B dropping A's table: %v", err)
	}
	if n, err := countOf(ctx, t, b, "select count(*) from nation"); err != nil || n != 25 {
		t.Fatalf("the shared nation after A's attempts: %d, %v", n, err)
	}

	// --allow-ddl: DDL changes what every client sees, as before.
	shared, _ := startServer(t, Config{AllowDDL: true})
	c, d := newClient(t, shared), newClient(t, shared)
	if _, err := c.ExecuteUpdate(ctx, "create view everyone as select n_nationkey from nation"); err != nil {
		t.Fatal(err)
	}
	if n, err := countOf(ctx, t, d, "select count(*) from everyone"); err != nil || n != 25 {
		t.Fatalf("another client reading a shared view: %d, %v", n, err)
	}
	if _, err := c.ExecuteUpdate(ctx, "drop table region"); err != nil {
		t.Fatalf("--allow-ddl: dropping a shared table: %v", err)
	}
	_, err := countOf(ctx, t, d, "select count(*) from region")
	wantCode(t, "a dropped shared table", err, codes.InvalidArgument)
}

// rawClient is a Flight client of addr below Flight SQL, to send
// commands the Flight SQL client would not.
func rawClient(t *testing.T, addr string) flight.Client {
	t.Helper()
	raw, err := flight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// TestPreparedOtherSession: a prepared statement belongs to the client
// that made it — another's handle is not found, for running, binding or
// closing — and a session holds a bounded number of them.
func TestPreparedOtherSession(t *testing.T) {
	addr, _ := startServer(t, Config{MaxPrepared: 5})
	a := newClient(t, addr)
	ctx := testCtx(t)
	prep, err := a.Prepare(ctx, "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	h := prep.Handle()
	mallory := rawClient(t, addr)
	_, err = mallory.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD,
		Cmd: anyOf(t, &pb.CommandPreparedStatementQuery{PreparedStatementHandle: h})})
	wantCode(t, "another session running A's handle", err, codes.NotFound)
	act, err := mallory.DoAction(ctx, &flight.Action{Type: flightsql.ClosePreparedStatementActionType,
		Body: anyOf(t, &pb.ActionClosePreparedStatementRequest{PreparedStatementHandle: h})})
	if err == nil {
		_, err = act.Recv()
	}
	wantCode(t, "another session closing A's handle", err, codes.NotFound)
	// A's statement still runs.
	info, err := prep.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(ctx, t, a, info)
	release(bs)
	if err != nil {
		t.Fatal(err)
	}
	// Five open statements per session here: the sixth is refused, and
	// closing one makes room.
	var open []*flightsql.PreparedStatement
	for range 4 {
		p, err := a.Prepare(ctx, "select 1")
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, p)
	}
	_, err = a.Prepare(ctx, "select 1")
	wantCode(t, "a sixth prepared statement", err, codes.ResourceExhausted)
	if _, err := newClient(t, addr).Prepare(ctx, "select 1"); err != nil {
		t.Errorf("another session's first statement: %v", err)
	}
	open[0].Close(ctx)
	if _, err := a.Prepare(ctx, "select 1"); err != nil {
		t.Errorf("after closing one: %v", err)
	}
}

// bigString is a one-row batch of one string parameter of n bytes.
func bigString(n int) arrow.RecordBatch {
	v := strings.Repeat("x", n)
	return paramBatch([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.StringBuilder).Append(v)
	})
}

// TestParameterFlood: prepared statements with 3 MB parameters bound
// (the probe: 1,000 of them grew the server by 2.8 GB) are refused with
// ResourceExhausted once the session's bytes pass its bound, a parameter
// set past the statement's bound is refused as it is read, and once the
// client goes its session's memory is given back: the Go heap returns to
// its baseline.
func TestParameterFlood(t *testing.T) {
	e := newEngine(t)
	srv, addr := startRobustServer(t, Config{Engine: e})
	ctx := testCtx(t)
	warm := newClient(t, addr)
	if _, err := countOf(ctx, t, warm, "select count(*) from nation"); err != nil {
		t.Fatal(err)
	}
	param := bigString(3 << 20)
	defer param.Release()
	before := heapInUse()

	cl, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	refused := -1
	for i := range 1000 {
		p, err := cl.Prepare(ctx, "select length(?) as n")
		if err == nil {
			p.SetParameters(param)
			_, err = p.Execute(ctx)
		}
		if err != nil {
			wantCode(t, fmt.Sprintf("statement %d", i), err, codes.ResourceExhausted)
			refused = i
			break
		}
	}
	if refused < 0 {
		t.Fatal("1,000 statements with 3 MB parameters each were all taken")
	}
	if held := srv.paramBytes.Load(); held > defaultSessionStmtBytes*11/10 {
		t.Errorf("the session holds %d bytes of statements, over its bound of %d", held, defaultSessionStmtBytes)
	}
	t.Logf("refused at statement %d; %d MiB held", refused, srv.paramBytes.Load()>>20)
	// One statement's parameters past its bound, in several batches.
	p, err := newClient(t, addr).Prepare(ctx, "select length(?) as n")
	if err != nil {
		t.Fatal(err)
	}
	batches := make([]arrow.RecordBatch, 3)
	for i := range batches {
		batches[i] = param
	}
	rdr, err := array.NewRecordReader(param.Schema(), batches)
	if err != nil {
		t.Fatal(err)
	}
	p.SetRecordReader(rdr)
	_, err = p.Execute(ctx)
	wantCode(t, "9 MB of parameters for one statement", err, codes.ResourceExhausted)

	cl.Close()
	deadline := time.Now().Add(10 * time.Second)
	for srv.paramBytes.Load() > int64(len(p.Handle())+64) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	after := heapInUse()
	t.Logf("Go heap in use: %.1f MiB before, %.1f MiB after the flood", float64(before)/(1<<20), float64(after)/(1<<20))
	if after > before+before/10+4<<20 {
		t.Errorf("the heap grew from %.1f to %.1f MiB", float64(before)/(1<<20), float64(after)/(1<<20))
	}
}

// TestCTASFlood: a session's CREATE TABLE AS tables stop at its quota
// with ResourceExhausted (the table past it is not kept); dropping one
// makes room.
func TestCTASFlood(t *testing.T) {
	const quota = 32 << 20
	srv, addr := startRobustServer(t, Config{Engine: newEngine(t), MaxSessionTableBytes: quota})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	made := 0
	var err error
	for ; made < 200; made++ {
		if _, err = cl.ExecuteUpdate(ctx, fmt.Sprintf("create table t%d as select l_orderkey from lineitem", made)); err != nil {
			break
		}
	}
	wantCode(t, fmt.Sprintf("table %d", made), err, codes.ResourceExhausted)
	if made == 0 {
		t.Fatal("not one table fits")
	}
	if held := srv.tableBytes.Load(); held > quota {
		t.Errorf("the session's tables hold %d bytes, over its quota of %d", held, quota)
	}
	_, err = countOf(ctx, t, cl, fmt.Sprintf("select count(*) from t%d", made))
	wantCode(t, "the refused table", err, codes.InvalidArgument)
	if _, err := cl.ExecuteUpdate(ctx, "drop table t0"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ExecuteUpdate(ctx, fmt.Sprintf("create table t%d as select l_orderkey from lineitem", made)); err != nil {
		t.Errorf("after a drop: %v", err)
	}
	t.Logf("%d tables under a %d MiB quota, %d bytes held", made, quota>>20, srv.tableBytes.Load())
}

// TestSessionExpiry: a session idle past its timeout is freed — its
// tables and prepared statements go, and their bytes with them — though
// its connection stays open.
func TestSessionExpiry(t *testing.T) {
	srv, addr := startRobustServer(t, Config{Engine: newEngine(t), SessionIdleTimeout: 300 * time.Millisecond})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	if _, err := cl.ExecuteUpdate(ctx, "create table mine as select * from orders"); err != nil {
		t.Fatal(err)
	}
	prep, err := cl.Prepare(ctx, "select count(*) from mine")
	if err != nil {
		t.Fatal(err)
	}
	if srv.tableBytes.Load() == 0 || srv.paramBytes.Load() == 0 || srv.sessions.len() != 1 {
		t.Fatalf("before: %d table bytes, %d statement bytes, %d sessions", srv.tableBytes.Load(), srv.paramBytes.Load(), srv.sessions.len())
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.sessions.len() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := srv.sessions.len(); n != 0 || srv.tableBytes.Load() != 0 || srv.paramBytes.Load() != 0 {
		t.Fatalf("after the idle timeout: %d sessions, %d table bytes, %d statement bytes", n, srv.tableBytes.Load(), srv.paramBytes.Load())
	}
	_, err = prep.Execute(ctx)
	wantCode(t, "a statement of the expired session", err, codes.NotFound)
	_, err = countOf(ctx, t, cl, "select count(*) from mine")
	wantCode(t, "a table of the expired session", err, codes.InvalidArgument)
}

// TestIdleStreamSlot: with one query slot, a client that starts a large
// result and stops reading loses the slot after the stream idle timeout,
// and another client's query then runs.
func TestIdleStreamSlot(t *testing.T) {
	srv, addr := startRobustServer(t, Config{Engine: smallBatchEngine(t), MaxConcurrentQueries: 1, StreamIdleTimeout: 300 * time.Millisecond})
	ctx := testCtx(t)
	idle := newClient(t, addr)
	info, err := idle.Execute(ctx, "select * from lineitem, nation")
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := idle.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if !rdr.Next() {
		t.Fatal(rdr.Err())
	}
	// The idle client now reads nothing more.
	start := time.Now()
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n, err := countOf(qctx, t, newClient(t, addr), "select count(*) from nation")
	if err != nil || n != 25 {
		t.Fatalf("a second client behind an idle stream: %d, %v", n, err)
	}
	t.Logf("the second client ran after %v", time.Since(start).Round(time.Millisecond))
	if srv.queries.count() != 0 {
		t.Errorf("%d queries still running", srv.queries.count())
	}
	// The idle client, reading again, learns why its stream ended.
	for rdr.Next() {
	}
	wantCode(t, "the idle stream", rdr.Err(), codes.DeadlineExceeded)
}

// TestTokenExpiry: basic-auth session tokens are bounded in number (the
// least recently used goes), expire when idle, and expire at their
// lifetime however busy.
func TestTokenExpiry(t *testing.T) {
	srv, addr := startRobustServer(t, Config{Engine: newEngine(t), Users: map[string]string{"alice": "pw"},
		MaxSessions: 50, SessionIdleTimeout: 500 * time.Millisecond, TokenLifetime: 1500 * time.Millisecond})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	first, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "pw")
	if err != nil {
		t.Fatal(err)
	}
	for range 500 {
		if _, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "pw"); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.sessions.len(); n > 50 {
		t.Errorf("%d session tokens held, over the bound of 50", n)
	}
	_, err = countOf(first, t, cl, "select count(*) from nation")
	wantCode(t, "the oldest token after 500 more handshakes", err, codes.Unauthenticated)

	busy, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "pw")
	if err != nil {
		t.Fatal(err)
	}
	idle, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "pw")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	idleChecked := false
	for time.Since(start) < 5*time.Second {
		_, err := countOf(busy, t, cl, "select count(*) from nation")
		if err != nil {
			wantCode(t, "a busy token", err, codes.Unauthenticated)
			break
		}
		if !idleChecked && time.Since(start) > 700*time.Millisecond {
			idleChecked = true
			_, err := countOf(idle, t, cl, "select count(*) from nation")
			wantCode(t, "a token idle past its timeout", err, codes.Unauthenticated)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if age := time.Since(start); age < 1200*time.Millisecond || age > 3*time.Second {
		t.Errorf("a busy token lasted %v; its lifetime is 1.5 s", age)
	}
}

// TestEmptyPassword: a users file with an empty password is refused,
// naming its line.
func TestEmptyPassword(t *testing.T) {
	file := filepath.Join(t.TempDir(), "users")
	os.WriteFile(file, []byte("alice:pw\n# bob has none\nbob:\n"), 0o600)
	if _, err := ReadUsers(file); err == nil || !strings.Contains(err.Error(), "users:3: user bob has an empty password") {
		t.Fatalf("ReadUsers: %v", err)
	}
}

// TestErrorCodes: file errors are NotFound, PermissionDenied or
// InvalidArgument — not Unavailable, which clients retry — save for
// passing conditions.
func TestErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want codes.Code
	}{
		{errs.Wrap(errs.IO, &fs.PathError{Op: "open", Path: "/x.parquet", Err: fs.ErrNotExist}, "table x"), codes.NotFound},
		{errs.Wrap(errs.IO, &fs.PathError{Op: "open", Path: "/x.parquet", Err: fs.ErrPermission}, "table x"), codes.PermissionDenied},
		{errs.Wrap(errs.IO, errors.New("not a parquet file (bad magic)"), "x.parquet"), codes.InvalidArgument},
		{errs.Wrap(errs.IO, &fs.PathError{Op: "read", Path: "/x", Err: syscall.EISDIR}, "x"), codes.InvalidArgument},
		{errs.Wrap(errs.IO, &fs.PathError{Op: "open", Path: "/x", Err: syscall.EMFILE}, "x"), codes.Unavailable},
		{errs.Wrap(errs.IO, &fs.PathError{Op: "write", Path: "/spill", Err: syscall.ENOSPC}, "spill"), codes.ResourceExhausted},
		{errs.New(errs.Binding, "table x does not exist"), codes.InvalidArgument},
	} {
		if got := status.Code(toStatus(tc.err)); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.err, got, tc.want)
		}
	}
	// End to end: a table whose file went away.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gone.csv"), []byte("a,b\n1,2\n"), 0o600)
	e := newEngine(t)
	if err := e.Catalog().RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "gone.csv"))
	addr, _ := startServer(t, Config{Engine: e})
	_, err := countOf(testCtx(t), t, newClient(t, addr), "select count(*) from gone")
	if c := status.Code(err); c == codes.Unavailable || c == codes.OK {
		t.Errorf("a table whose file was removed: %v", err)
	}
}

// TestLogTruncated: a 1 MiB statement is logged by its first KiB, its
// length and a hash, not whole.
func TestLogTruncated(t *testing.T) {
	addr, logs := startServer(t, Config{})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	sql := "select count(*) from nation where n_name <> '" + strings.Repeat("y", 1<<20) + "'"
	if n, err := countOf(ctx, t, cl, sql); err != nil || n != 25 {
		t.Fatalf("%d, %v", n, err)
	}
	_, err := cl.Execute(ctx, sql+" and no_such_column = 1")
	wantCode(t, "a failing 1 MiB statement", err, codes.InvalidArgument)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	seen := 0
	for _, l := range lines {
		if len(l) > 8<<10 {
			t.Errorf("a log line of %d bytes: %.200s…", len(l), l)
		}
		if strings.Contains(l, `"sql_bytes"`) && strings.Contains(l, `"sql_sha256"`) {
			seen++
		}
	}
	if seen < 2 {
		t.Errorf("%d log lines name the statement by length and hash, want 2:\n%.2000s", seen, logs.String())
	}
}

// TestShutdownFast: Shutdown returns within a second while one query
// runs and another client holds a stream it does not read (whose DoGet
// is blocked in a gRPC Send that GracefulStop would wait on for ever).
func TestShutdownFast(t *testing.T) {
	srv, addr := startRobustServer(t, Config{Engine: smallBatchEngine(t), StreamIdleTimeout: -1})
	ctx := testCtx(t)
	stuck := newClient(t, addr)
	info, err := stuck.Execute(ctx, "select * from lineitem, nation")
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := stuck.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if !rdr.Next() {
		t.Fatal(rdr.Err())
	}
	running := make(chan error, 1)
	go func() {
		_, err := countOf(ctx, t, newClient(t, addr), "select count(*) from lineitem a, lineitem b where a.l_quantity < b.l_quantity")
		running <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); srv.queries.count() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d queries running, want 2", srv.queries.count())
		}
	}
	start := time.Now()
	done := make(chan struct{})
	go func() { srv.Shutdown(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown still waiting after 10 s")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Shutdown took %v", took)
	} else {
		t.Logf("Shutdown took %v", took.Round(time.Millisecond))
	}
	if err := <-running; err == nil {
		t.Error("the running query was not stopped")
	}
}

// TestPlanningTimeout: the query timeout covers planning (GetFlightInfo),
// not only the run: a statement whose binding is slow fails with
// DeadlineExceeded at the timeout. The statement plans in about 100 ms on
// a quiet machine, so the timeout is well below that.
func TestPlanningTimeout(t *testing.T) {
	addr, _ := startServer(t, Config{QueryTimeout: 10 * time.Millisecond})
	var sb strings.Builder
	sb.WriteString("select count(*) from lineitem")
	for range 4000 {
		sb.WriteString(" union all select count(*) from lineitem join orders on l_orderkey = o_orderkey")
	}
	start := time.Now()
	_, err := newClient(t, addr).Execute(testCtx(t), sb.String())
	wantCode(t, "planning past the timeout", err, codes.DeadlineExceeded)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("GetFlightInfo returned after %v under a 10 ms timeout", took)
	}
}

// TestPlaintextToTLS: a plaintext client of a TLS server is told the
// server needs TLS, instead of an EOF reading the server's preface.
func TestPlaintextToTLS(t *testing.T) {
	cert, _ := selfSigned(t)
	addr, logs := startServer(t, Config{TLS: &tls.Config{Certificates: []tls.Certificate{cert}}})
	ctx, cancel := context.WithTimeout(testCtx(t), 10*time.Second)
	defer cancel()
	_, err := newClient(t, addr).Execute(ctx, "select 1")
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "accepts only TLS") {
		t.Errorf("a plaintext client of a TLS server: %v", err)
	}
	if !strings.Contains(logs.String(), "plaintext client") {
		t.Errorf("nothing logged:\n%s", logs.String())
	}
}
