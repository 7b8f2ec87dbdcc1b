package engine

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gq/catalog"
	"gq/exec"
	gqmem "gq/memory"
)

// analyzeLine matches an EXPLAIN ANALYZE operator line: rows, batches,
// time, self, device, then the tree (m[6]; after the memory columns, and
// under ranks the exchanges' sent and received bytes), peak memory (m[7])
// and spilled bytes (m[8]).
var analyzeLine = regexp.MustCompile(`^\s*([\d,]+)\s+([\d,]+)\s+(\S+)\s+(\S+)\s+(CPU|GPU)\s+(([\d.]+[KMGTP]?i?B)\s+([\d.]+[KMGTP]?i?B)\s+.*)$`)

// analyzeHeader is EXPLAIN ANALYZE's first line on one rank.
var analyzeHeader = regexp.MustCompile(`^\s*rows\s+batches\s+time\s+self\s+device\s+peak mem\s+spilled\s+operator$`)

// analyzeOp is one operator line of EXPLAIN ANALYZE, parsed.
type analyzeOp struct {
	name          string // the operator's first two words: "HashJoin inner"
	rows          string
	peak, spilled int64
	line          string
}

// parseAnalyze parses EXPLAIN ANALYZE text into its operator lines,
// checking that the header is there and that every line's tree starts in
// the header's "operator" column (the columns are aligned).
func parseAnalyze(t *testing.T, text string) []analyzeOp {
	t.Helper()
	lines := strings.Split(text, "\n")
	if !analyzeHeader.MatchString(lines[0]) {
		t.Fatalf("header: %q", lines[0])
	}
	col := len([]rune(lines[0])) - len("operator")
	var ops []analyzeOp
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "Total time") {
			return ops
		}
		m := analyzeLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not an operator line:\n%s", l, text)
		}
		// The cells end two spaces before the tree (spilled is right-aligned).
		if r := []rune(l); len(r) <= col || r[col-3] == ' ' || r[col-2] != ' ' || r[col-1] != ' ' {
			t.Fatalf("line %q: tree does not start at column %d:\n%s", l, col, text)
		}
		tree := string([]rune(l)[col:])
		f := strings.Fields(strings.TrimLeft(tree, "│├└─ "))
		ops = append(ops, analyzeOp{name: f[0] + " " + f[1], rows: m[1], peak: parseSize(t, m[7]), spilled: parseSize(t, m[8]), line: l})
	}
	t.Fatalf("no footer:\n%s", text)
	return nil
}

// parseSize reads physical.HumanBytes's form back ("576B", "1.3MiB"),
// to within its rounding.
func parseSize(t *testing.T, s string) int64 {
	t.Helper()
	num, unit := s, int64(1)
	for i, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if strings.HasSuffix(s, u) {
			num, unit = strings.TrimSuffix(s, u), int64(1)<<(10*(i+1))
			break
		}
	}
	num = strings.TrimSuffix(num, "B")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("size %q: %v", s, err)
	}
	return int64(f * float64(unit))
}

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
	rows := map[string]string{} // operator name → rows
	for _, op := range parseAnalyze(t, text) {
		rows[op.name] = op.rows
	}
	var footer string
	for _, l := range lines {
		if strings.HasPrefix(l, "Total time") {
			footer = l
		}
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
	// One form of the shuffle bytes: sent and received, no more "shuffle
	// in/out" beside them.
	var head []string
	for _, l := range strings.Split(outs[0], "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, `"`)); len(f) > 0 && f[0] == "rows" {
			head = f
			break
		}
	}
	// (On a GPU the device's columns come between: GQ_DEVICE=gpu.)
	if h := strings.Join(head, " "); !strings.HasPrefix(h, "rows batches time self device peak mem spilled sent received ") || !strings.HasSuffix(h, " operator") {
		t.Errorf("rank 0 header %q:\n%s", head, outs[0])
	}
	if strings.Contains(outs[0], "shuffle in") || !strings.Contains(outs[0], "Exchange hash") {
		t.Errorf("rank 0:\n%s", outs[0])
	}
	if strings.Contains(outs[1], "Exchange") {
		t.Errorf("rank 1 printed a plan: %q", outs[1])
	}
}

// TestExplainAnalyzeMemory runs TPC-H q18 (SF 0.1) under a 1 MiB HOST
// limit: its hash aggregation over lineitem spills, and EXPLAIN ANALYZE
// shows the bytes on that operator (or another hash operator or sort, as
// the plan may change), none on the scans, and per-operator
// figures that sum to the query's spill-bytes-host-to-disk; the hash
// operators show their peak memory. Without a limit nothing spills.
func TestExplainAnalyzeMemory(t *testing.T) {
	dir := tpchData(t)
	sql, err := os.ReadFile("../testdata/tpch/queries/q18.sql")
	if err != nil {
		t.Fatal(err)
	}
	run := func(limit int64) ([]analyzeOp, *gqmem.Statistics, string) {
		cat := catalog.New()
		if err := cat.RegisterDir(dir); err != nil {
			t.Fatal(err)
		}
		// The CPU operators' memory and spills (under GQ_DEVICE=gpu too).
		e := testNew(cat, Options{Device: "cpu", BatchSize: 8192, MemoryLimit: limit, SpillDir: t.TempDir()})
		t.Cleanup(func() { e.Close() })
		res, err := e.Query(context.Background(), "explain analyze "+string(sql))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Release()
		text := resultLines(res)[0]
		return parseAnalyze(t, text), e.Statistics(), text
	}

	ops, st, text := run(1 << 20)
	total, _ := st.GetStat(gqmem.StatSpillBytesHostToDisk)
	var sum, opSpilled, hashPeak int64
	for _, op := range ops {
		sum += op.spilled
		switch {
		case strings.HasPrefix(op.name, "Scan "):
			if op.spilled != 0 {
				t.Errorf("a scan spilled: %s", op.line)
			}
		case strings.HasPrefix(op.name, "HashAggregate "), strings.HasPrefix(op.name, "HashJoin "):
			opSpilled = max(opSpilled, op.spilled)
			hashPeak = max(hashPeak, op.peak)
		case strings.HasPrefix(op.name, "Sort "):
			opSpilled = max(opSpilled, op.spilled)
		}
	}
	if opSpilled == 0 || hashPeak == 0 {
		t.Errorf("under 1 MiB: hash operators and sorts spilled at most %d bytes, hash operators' peak %d bytes; want both > 0:\n%s", opSpilled, hashPeak, text)
	}
	// The column rounds to 0.1 of its unit (MiB at most here): each
	// operator's figure is within 0.05 MiB of its bytes.
	var spilling float64
	for _, op := range ops {
		if op.spilled > 0 {
			spilling++
		}
	}
	if d, tol := float64(sum)-total.Value, spilling*0.05*(1<<20); total.Value <= 0 || d > tol || -d > tol {
		t.Errorf("operators spilled %d bytes in all, the query %.0f:\n%s", sum, total.Value, text)
	}
	t.Logf("\n%s", text)

	ops, _, text = run(0)
	for _, op := range ops {
		if op.spilled != 0 {
			t.Errorf("without a limit an operator spilled: %s\n%s", op.line, text)
		}
	}
}

// TestAfterQueryOperators: with the hook set, Query and QueryStream run
// the plan instrumented and report each operator (the --stats path);
// statements that run no query report nothing.
func TestAfterQueryOperators(t *testing.T) {
	var got []QueryOperators
	e := newTestEngine(t, Options{AfterQueryOperators: func(q QueryOperators) { got = append(got, q) }})
	const q = "select p.city, count(*) as n from people p join orders o on o.person_id = p.id group by p.city"
	res, err := e.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	st, err := e.QueryStream(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for b, ok := st.Next(); ok; b, ok = st.Next() {
		b.Release()
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if res, err := e.Query(context.Background(), "show tables"); err != nil {
		t.Fatal(err)
	} else {
		res.Release()
	}
	if len(got) != 2 {
		t.Fatalf("hook called %d times, want 2", len(got))
	}
	for i, g := range got {
		rows := map[string]int64{}
		for _, op := range g.Operators {
			rows[strings.Join(strings.Fields(op.Operator)[:2], " ")] = op.Rows
		}
		if rows["Scan people"] != 6 || rows["Scan orders"] != 7 || g.Operators[0].Depth != 0 || !strings.Contains(g.Text, "peak mem") {
			t.Errorf("call %d: %+v\n%s", i, g.Operators, g.Text)
		}
	}
}
