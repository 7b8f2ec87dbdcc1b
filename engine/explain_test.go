package engine

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"gq/exec"
)

// analyzeLine matches an EXPLAIN ANALYZE operator line: rows, batches,
// time, self, device, then the tree.
var analyzeLine = regexp.MustCompile(`^\s*([\d,]+)\s+([\d,]+)\s+(\S+)\s+(\S+)\s+(CPU|GPU)\s+(.*)$`)

func TestExplainAnalyze(t *testing.T) {
	e := newTestEngine(t, Options{Threads: 2, BatchSize: 2})
	const q = "select p.city, count(*) as n from people p join orders o on o.person_id = p.id where o.amount > 5 group by p.city order by p.city"
	res, err := e.Query(context.Background(), "explain analyze "+q)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if !IsExplain(res.Schema) || res.NumRows() != 1 {
		t.Fatalf("want one plan-text row, got schema %v", res.Schema)
	}
	text := resultLines(res)[0]
	lines := strings.Split(text, "\n")
	if !regexp.MustCompile(`^\s*rows\s+batches\s+time\s+self\s+device\s+operator$`).MatchString(lines[0]) {
		t.Fatalf("header: %q", lines[0])
	}
	rows := map[string]string{} // operator name → rows
	var footer string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "Total time") {
			footer = l
			break
		}
		m := analyzeLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not an operator line:\n%s", l, text)
		}
		op := strings.Fields(strings.TrimLeft(m[6], "│├└─ "))
		rows[op[0]+" "+op[1]] = m[1]
	}
	// people has 6 rows, orders 7; the root returns one row per city that
	// has an order over 5: Paris (Alice, twice) and London (Bob, twice).
	// The scan of orders applies amount > 5 itself: 5 of its 7 rows.
	want := map[string]string{"Scan people": "6", "Scan orders": "5", "HashJoin inner": "4"}
	for k, v := range want {
		if rows[k] != v {
			t.Errorf("%s: rows %q, want %s\n%s", k, rows[k], v, text)
		}
	}
	root := analyzeLine.FindStringSubmatch(lines[1])
	if root[1] != "2" || !strings.Contains(footer, "2 rows returned") {
		t.Errorf("root rows %s, want 2:\n%s", root[1], text)
	}
	// Batches of 2 rows: the people scan emits 3 batches.
	for _, l := range lines {
		if strings.Contains(l, "Scan people") {
			if m := analyzeLine.FindStringSubmatch(l); m[2] != "3" {
				t.Errorf("people scan batches %s, want 3: %s", m[2], l)
			}
		}
	}
}

func TestExplainIsPlanText(t *testing.T) {
	e := newTestEngine(t, Options{})
	res, err := e.Query(context.Background(), "explain select name from people where id = 1")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if !IsExplain(res.Schema) || !strings.Contains(resultLines(res)[0], "Scan people") {
		t.Errorf("EXPLAIN result: %v %q", res.Schema, resultLines(res))
	}
}

// TestProgressCountsScans checks the progress hook: the scans' rows
// against the tables' row counts.
func TestProgressCountsScans(t *testing.T) {
	e := newTestEngine(t, Options{})
	p := &exec.Progress{}
	res, err := e.Query(WithProgress(context.Background(), p), "select count(*) from people, orders")
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	if p.Done.Load() != 13 || p.Total.Load() != 13 {
		t.Errorf("progress %d of %d, want 13 of 13", p.Done.Load(), p.Total.Load())
	}
}

// TestExplainAnalyzeRanks checks that under ranks EXPLAIN ANALYZE runs on
// every rank, rank 0 answers, and exchanges show their shuffle bytes.
func TestExplainAnalyzeRanks(t *testing.T) {
	engines := rankEngines(t, 2, "../testdata/sql/data", nil)
	outs, errs := runRanks(context.Background(), engines, "explain analyze select city, count(*) from people group by city")
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	if !strings.Contains(outs[0], "shuffle in") || !strings.Contains(outs[0], "Exchange hash") {
		t.Errorf("rank 0:\n%s", outs[0])
	}
	if strings.Contains(outs[1], "Exchange") {
		t.Errorf("rank 1 printed a plan: %q", outs[1])
	}
}
