package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"gq/benchmarks/tpch"
	"gq/format"
)

// TestServeUnderRRun starts `rrun -n 3 gq serve` (three processes over
// tcp; this test binary re-executes itself as gq) and a one-process
// `gq serve`, runs TPC-H queries through arrow-go's Flight SQL client on
// both and compares the answers; SIGTERM to rrun then leaves no rank
// behind.
func TestServeUnderRRun(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test skipped under -short")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin, "gq/cmd/rrun").CombinedOutput(); err != nil {
		t.Fatalf("building rrun: %v\n%s", err, out)
	}
	data := "../../data/tpch-sf0.1"
	if err := tpch.EnsureGenerated(0.1, data); err != nil {
		t.Fatal(err)
	}
	multiAddr, singleAddr := freePort(t), freePort(t)
	multi := exec.Command(filepath.Join(bin, "rrun"), "-n", "3", "-x", "GQ_TEST_AS_GQ=1", "-x", "GQ_THREADS=2",
		exe, "serve", "--listen", multiAddr, "--data", data, "--allow-ddl")
	single := exec.Command(exe, "serve", "--listen", singleAddr, "--data", data, "--threads", "2", "--allow-ddl")
	single.Env = append(os.Environ(), "GQ_TEST_AS_GQ=1", "RRUN_RANK=", "RRUN_NRANKS=")
	var multiErr, singleErr bytes.Buffer
	multi.Stderr, single.Stderr = &multiErr, &singleErr
	for _, c := range []*exec.Cmd{multi, single} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if c.ProcessState == nil {
				c.Process.Kill()
				c.Wait()
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mcl, scl := dialServer(ctx, t, multiAddr, &multiErr), dialServer(ctx, t, singleAddr, &singleErr)
	for _, n := range []int{1, 5, 10, 18} {
		sql := tpchSQL(t, n)
		start := time.Now()
		got := queryCSV(ctx, t, mcl, sql)
		took := time.Since(start)
		want := queryCSV(ctx, t, scl, sql)
		t.Logf("q%02d: 3 ranks %v, one process %v", n, took.Round(time.Millisecond), time.Since(start.Add(took)).Round(time.Millisecond))
		if err := tpch.CompareCSV(got, want, strings.Contains(sql, "order by")); err != nil {
			t.Errorf("q%02d: %v", n, err)
		}
	}
	// DDL through the server reaches every rank: the view plans everywhere.
	if _, err := mcl.ExecuteUpdate(ctx, "create view v_nation as select n_nationkey, n_name from nation"); err != nil {
		t.Fatal(err)
	}
	if got := queryCSV(ctx, t, mcl, "select count(*) from v_nation join customer on n_nationkey = c_nationkey"); !bytes.Contains(got, []byte("15000")) {
		t.Errorf("view query: %s", got)
	}
	if n := strings.Count(multiErr.String(), "following rank 0"); n != 2 {
		t.Errorf("%d ranks follow rank 0, want 2; stderr:\n%s", n, multiErr.String())
	}
	// SIGTERM to rrun ends every rank.
	multi.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- multi.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("rrun did not exit after SIGTERM\n%s", multiErr.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for left := ranksOf(exe, multiAddr); len(left) > 0; left = ranksOf(exe, multiAddr) {
		if time.Now().After(deadline) {
			t.Fatalf("ranks left after SIGTERM: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// freePort is a loopback address nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// dialServer waits for a server on addr and returns a client of it.
func dialServer(ctx context.Context, t *testing.T, addr string, stderr *bytes.Buffer) *flightsql.Client {
	t.Helper()
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no server on %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cl, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// queryCSV runs sql through cl and renders its answer as CSV.
func queryCSV(ctx context.Context, t *testing.T, cl *flightsql.Client, sql string) []byte {
	t.Helper()
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var schema *arrow.Schema
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for _, ep := range info.Endpoint {
		rdr, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			t.Fatal(err)
		}
		schema = rdr.Schema()
		for rdr.Next() {
			b := rdr.RecordBatch()
			b.Retain()
			batches = append(batches, b)
		}
		err = rdr.Err()
		rdr.Release()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var buf bytes.Buffer
	if err := format.WriteCSV(&buf, schema, batches); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tpchSQL(t *testing.T, n int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("../../testdata/tpch/queries/q%02d.sql", n))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(b)), ";"))
}

// ranksOf lists the processes running exe serve on addr.
func ranksOf(exe, addr string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 0 && args[0] == exe && bytes.Contains(b, []byte(addr)) {
			out = append(out, p)
		}
	}
	return out
}
