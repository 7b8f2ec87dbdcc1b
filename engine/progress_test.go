package engine

import (
	"context"
	"os"
	"testing"

	"gq/catalog"
	"gq/exec"
)

// TestScanProgressCountsFileBytes checks the REPL's progress hook: over
// CSV files the total is the files' sizes (each read whole) and every
// byte is counted by the end; over a table that is not a file, rows.
func TestScanProgressCountsFileBytes(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir("../testdata/sql/data"); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{Threads: 2})
	var want int64
	for _, f := range []string{"people.csv", "orders.csv"} {
		st, err := os.Stat("../testdata/sql/data/" + f)
		if err != nil {
			t.Fatal(err)
		}
		want += st.Size()
	}
	p := &exec.ScanProgress{}
	res, err := e.Query(WithScanProgress(context.Background(), p), "select count(*) from people, orders")
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	if !p.InBytes.Load() || p.Total.Load() != want || p.Done.Load() != want {
		t.Errorf("progress %d of %d (bytes %v), want %d of %d bytes", p.Done.Load(), p.Total.Load(), p.InBytes.Load(), want, want)
	}

	p = &exec.ScanProgress{}
	res, err = e.Query(WithScanProgress(context.Background(), p), "select 1 + 1")
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	if p.InBytes.Load() {
		t.Errorf("a VALUES query counted bytes (%d of %d)", p.Done.Load(), p.Total.Load())
	}
}
