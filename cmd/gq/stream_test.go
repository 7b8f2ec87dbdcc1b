package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gq/catalog"
	"gq/engine"
)

// heldProbe counts what the shell writes and samples the engine's live
// query memory at each write.
type heldProbe struct {
	eng         *engine.Engine
	bytes, most int64
}

func (p *heldProbe) Write(b []byte) (int, error) {
	p.bytes += int64(len(b))
	p.most = max(p.most, p.eng.HeldBytes())
	return len(b), nil
}

// TestShellStreamsResults: the CLI writes a result while its query runs,
// holding a few batches, not the whole result (it held every batch until
// the query ended: 4.9 GB under --memory-limit 1GiB). In every mode the
// rows pass through; table mode keeps only the rows it shows.
func TestShellStreamsResults(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,name,amount")
	const rows = 600_000
	for i := range rows {
		fmt.Fprintf(w, "%d,name number %d,%d.25\n", i, i*7, i%1000)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(cat, engine.Options{BatchSize: 8192, Threads: 2})
	defer eng.Close()
	const sql = "select id, name, amount, id * 2 as twice from big"
	res, err := eng.Query(context.Background(), sql)
	if err != nil {
		t.Fatal(err)
	}
	whole := eng.HeldBytes() // what holding the result costs
	res.Release()
	for _, mode := range []string{"csv", "jsonl", "table"} {
		probe := &heldProbe{eng: eng}
		var errOut strings.Builder
		sh := &shell{eng: eng, mode: mode, out: probe, errOut: &errOut}
		if !sh.exec(context.Background(), sql) {
			t.Fatalf("%s: %s", mode, errOut.String())
		}
		if probe.most > whole/3 {
			t.Errorf("%s: %d bytes of query memory held while writing %d bytes (the whole result: %d)", mode, probe.most, probe.bytes, whole)
		}
		t.Logf("%s: wrote %d bytes holding at most %d bytes of query memory (the whole result: %d)", mode, probe.bytes, probe.most, whole)
		if eng.HeldBytes() != 0 {
			t.Fatalf("%s: %d bytes held after the statement", mode, eng.HeldBytes())
		}
	}
}

// TestShellFailedQueryPrintsNothing: a query failing before its output
// reaches holdBytes prints none of it.
func TestShellFailedQueryPrintsNothing(t *testing.T) {
	sh, out, errOut := newTestShell(t)
	if sh.exec(context.Background(), "select cast(name as signed) from people") {
		t.Fatal("the query succeeded")
	}
	if out.Len() != 0 {
		t.Fatalf("a failed query printed %q", out.String())
	}
	if !strings.Contains(errOut.String(), "Error") {
		t.Fatalf("no error printed: %q", errOut.String())
	}
}
