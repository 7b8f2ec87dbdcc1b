package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/exec"
	"gq/format"
	"gq/parser"
)

// TestPlanRunsTwice: a physical plan is a description, its run state the
// run's, so one plan of each TPC-H query runs twice in a row and then
// twice at once under two Contexts, each run giving the expected answer.
// (With GQ_DEVICE=gpu the plans are placed on the device.)
func TestPlanRunsTwice(t *testing.T) {
	dir := tpchData(t)
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	e := New(cat, Options{BatchSize: 4096})
	for n := 1; n <= 22; n++ {
		q := fmt.Sprintf("q%02d", n)
		t.Run(q, func(t *testing.T) {
			sql, err := os.ReadFile("../testdata/tpch/queries/" + q + ".sql")
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile("../testdata/tpch/sf0.1/" + q + ".csv")
			if err != nil {
				t.Fatal(err)
			}
			st, err := parser.Split(string(sql))
			if err != nil || len(st) != 1 {
				t.Fatalf("%s: %d statements, %v", q, len(st), err)
			}
			_, root, err := e.plan(context.Background(), st[0].AST)
			if err != nil {
				t.Fatal(err)
			}
			ordered := strings.Contains(strings.ToLower(string(sql)), "order by")
			check := func(run string) {
				got, err := runPlanCSV(e, root)
				if err != nil {
					t.Errorf("%s run: %v", run, err)
					return
				}
				if err := tpch.CompareCSV(got, want, ordered); err != nil {
					t.Errorf("%s run: %v", run, err)
				}
			}
			check("first")
			check("second")
			var wg sync.WaitGroup
			for _, run := range []string{"concurrent A", "concurrent B"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					check(run)
				}()
			}
			wg.Wait()
			checkNoHeldMemory(t, e, q)
		})
	}
}

// runPlanCSV runs root under a Context of its own and returns its rows as
// CSV.
func runPlanCSV(e *Engine, root exec.Node) ([]byte, error) {
	copts, qa, qs := e.queryContext(exec.Options{Threads: e.opts.Threads, BatchSize: e.opts.BatchSize})
	defer e.finishQuery(qa, qs)
	c := exec.NewContext(context.Background(), copts)
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	err := exec.Run(c, root, func(b arrow.RecordBatch) error {
		b.Retain()
		batches = append(batches, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err = format.WriteCSV(&out, root.Schema(), batches)
	return out.Bytes(), err
}
