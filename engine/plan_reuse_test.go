package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/exec"
	"gq/format"
	"gq/parser"
	"gq/physical"
	"gq/planner"
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
	e := testNew(cat, Options{BatchSize: 4096})
	for n := 1; n <= 22; n++ {
		q := fmt.Sprintf("q%02d", n)
		t.Run(q, func(t *testing.T) {
			root, want, ordered := planTPCH(t, e, q)
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

// planTPCH plans TPC-H query q (one plan, to run as often as a test
// likes) and returns it, its expected CSV at SF0.1 and whether its rows
// come in order.
func planTPCH(t *testing.T, e *Engine, q string) (root exec.Node, want []byte, ordered bool) {
	t.Helper()
	sql, err := os.ReadFile("../testdata/tpch/queries/" + q + ".sql")
	if err != nil {
		t.Fatal(err)
	}
	if want, err = os.ReadFile("../testdata/tpch/sf0.1/" + q + ".csv"); err != nil {
		t.Fatal(err)
	}
	st, err := parser.Split(string(sql))
	if err != nil || len(st) != 1 {
		t.Fatalf("%s: %d statements, %v", q, len(st), err)
	}
	if _, root, err = e.plan(context.Background(), st[0].AST); err != nil {
		t.Fatal(err)
	}
	return root, want, strings.Contains(strings.ToLower(string(sql)), "order by")
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

// TestPlanRunsTwiceOnGPU: the device operators keep what a run counts in
// the run too (exec.RunState), so one plan of TPC-H q01, q03 and q09
// placed on the GPU (gqemu when the machine has none) runs twice in a
// row under EXPLAIN ANALYZE's instrumentation and both runs give the
// expected answer and the same figures per operator: rows, where it ran
// and every count it reports (a figure kept on a node would add up over
// the runs). A run before them fills the device table cache and the
// groups' size hints, which the first run of a plan would otherwise
// count alone.
func TestPlanRunsTwiceOnGPU(t *testing.T) {
	g := newGPUPair(t)
	e := g.gpu
	for _, q := range []string{"q01", "q03", "q09"} {
		t.Run(q, func(t *testing.T) {
			root, want, ordered := planTPCH(t, e, q)
			if !strings.Contains(physical.Explain(root), "GPU") {
				t.Fatalf("no operator on the device:\n%s", physical.Explain(root))
			}
			before := physical.Explain(root)
			run := func(name string) []string {
				a := exec.Instrument(root)
				got, err := runPlanCSV(e, a)
				if err != nil {
					t.Fatalf("%s run: %v", name, err)
				}
				if err := tpch.CompareCSV(got, want, ordered); err != nil {
					t.Errorf("%s run: %v", name, err)
				}
				return runFigures(a)
			}
			g.resetWarnings()
			run("warm-up")
			first, second := run("first"), run("second")
			if !slices.Equal(first, second) {
				t.Errorf("the runs' figures differ:\nfirst\n%s\nsecond\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
			}
			if !slices.ContainsFunc(first, func(l string) bool {
				return strings.Contains(l, "device rows=") && !strings.Contains(l, "device rows=0 ")
			}) {
				t.Errorf("no operator counted device rows:\n%s", strings.Join(first, "\n"))
			}
			if w := g.fellBack(); w != nil {
				t.Errorf("fell back to the CPU: %q", w)
			}
			if after := physical.Explain(root); after != before {
				t.Errorf("running the plan changed it:\nbefore\n%s\nafter\n%s", before, after)
			}
			checkNoHeldMemory(t, e, q)
		})
	}
}

// durations matches the times in EXPLAIN ANALYZE's text figures, which
// differ from run to run.
var durations = regexp.MustCompile(`([0-9]+(\.[0-9]+)?(ns|µs|ms|s|m|h))+`)

// runFigures are the figures of one run of a (exec.Instrument's), one line
// per operator in EXPLAIN's order: its description, rows, device and its
// own figures (times masked). Peak memory, timings and batch counts are
// left out: they vary with scheduling.
func runFigures(a exec.Node) []string {
	var lines []string
	var walk func(n exec.Node, depth int)
	walk = func(n exec.Node, depth int) {
		inner := n
		var b strings.Builder
		if an, ok := n.(*exec.Analyzed); ok {
			inner = an.Inner
			st := an.Stats()
			fmt.Fprintf(&b, " rows=%d device=%s", st.Rows, st.Device)
			for _, x := range st.Extra {
				switch {
				case x.Name == "peak mem":
				case x.Unit == "text":
					fmt.Fprintf(&b, " %s=%q", x.Name, durations.ReplaceAllString(x.Text, "T"))
				default:
					fmt.Fprintf(&b, " %s=%d ", x.Name, x.Value)
				}
			}
		}
		lines = append(lines, strings.Repeat("  ", depth)+physical.Describe(inner)+b.String())
		for _, c := range inner.Children() {
			walk(c, depth+1)
		}
	}
	walk(a, 0)
	return lines
}

// TestPlanRewritesCopy: the one-rank rewrites after lowering (join
// filters, pruned scan outputs, scan byte counting for progress) return
// a new plan and leave the one they were given as it was, so a plan can
// be rewritten again (a plan cache, a second run's progress). q03's joins
// publish filters to its scans, q04's scan of lineitem drops the columns
// only its filter reads, and every scan of q06 counts its bytes.
func TestPlanRewritesCopy(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"q03", "q04", "q06"} {
		t.Run(q, func(t *testing.T) {
			sql, err := os.ReadFile("../testdata/tpch/queries/" + q + ".sql")
			if err != nil {
				t.Fatal(err)
			}
			st, err := parser.Split(string(sql))
			if err != nil || len(st) != 1 {
				t.Fatalf("%s: %d statements, %v", q, len(st), err)
			}
			bound, err := planner.BindContext(context.Background(), cat, st[0].AST)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := planner.Optimize(bound)
			if err != nil {
				t.Fatal(err)
			}
			n, err := physical.Lower(opt)
			if err != nil {
				t.Fatal(err)
			}
			n = physical.ShareCommonSubplans(n)
			// step applies rewrite to in, checks in is unchanged, and
			// returns the rewritten plan and its EXPLAIN.
			step := func(what string, in exec.Node, rewrite func(exec.Node) exec.Node) (exec.Node, string) {
				before := physical.Explain(in) + scanFields(in)
				out := rewrite(in)
				if after := physical.Explain(in) + scanFields(in); after != before {
					t.Errorf("%s changed the plan it was given:\nbefore\n%s\nafter\n%s", what, before, after)
				}
				return out, physical.Explain(out)
			}
			attached, text := step("AttachJoinFilters", n, physical.AttachJoinFilters)
			if q == "q03" && !strings.Contains(text, "jf#") {
				t.Errorf("no join filter attached:\n%s", text)
			}
			pruned, text2 := step("PruneScanOutputs", attached, physical.PruneScanOutputs)
			if q == "q04" && text2 == text {
				t.Errorf("no scan output pruned:\n%s", text2)
			}
			var tracked bool
			var p exec.Progress
			step("TrackScanBytes", pruned, func(n exec.Node) exec.Node {
				out, ok := exec.TrackScanBytes(n, &p)
				tracked = ok
				return out
			})
			if q == "q06" && (!tracked || p.Total.Load() == 0) {
				t.Errorf("scan bytes tracked %v, total %d", tracked, p.Total.Load())
			}
		})
	}
}

// scanFields lists what the rewrites may change of the scans under n
// that EXPLAIN does not show: each one's table (a counting wrapper is
// another) and its output columns.
func scanFields(n exec.Node) string {
	var b strings.Builder
	var walk func(n exec.Node)
	walk = func(n exec.Node) {
		if s, ok := n.(*exec.Scan); ok {
			fmt.Fprintf(&b, "\n%s: %T %p emit=%v jf=%d", s.Table.Name(), s.Table, s.Table, s.Emit, len(s.JoinFilters))
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
