// Command tpchbench times the 22 TPC-H queries in gq and in DuckDB on the
// same Parquet files with the same thread count, and reports them side by
// side:
//
//	tpchbench --data data/tpch-sf1 [--threads N] [--reps 5] [--queries testdata/tpch/queries]
//	          [--only 1,6] [--out benchmarks/results] [--writer gq|duckdb] [--cold [--gq-bin bin/gq]]
//
// --writer duckdb has both engines read copies of the tables that DuckDB
// wrote (DATA-duckdb/, made on first use: see duckdb.WriteParquet) instead
// of gq's own files. --cold runs every query in a fresh process of each
// engine (cold.go).
//
// Each engine runs in a child process of its own (see worker.go). For every
// query the two engines run alternately, reps times each, so that a noisy
// neighbour slows both alike; their answers are compared
// (tpch.CompareCSV). The report gives the median time of each engine, the
// ratio gq/DuckDB per query and in total, and the peak resident memory of
// each engine per query and over the run. With --out it also writes the
// markdown table and a PNG bar chart there.
//
// --gq-only with --cpuprofile profiles gq in process (no children, no
// DuckDB), for finding what to optimise; GQ_TRACE=FILE also writes an
// execution trace of them (where goroutines wait: go tool trace
// -pprof=syscall FILE).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"gq/benchmarks/duckdb"
	"gq/benchmarks/tpch"
	"gq/engine"
)

func main() {
	data := flag.String("data", "", "directory with the TPC-H NAME.parquet tables")
	threads := flag.Int("threads", runtime.NumCPU(), "threads for both engines")
	reps := flag.Int("reps", 5, "runs per query and engine")
	queries := flag.String("queries", "testdata/tpch/queries", "directory of q01.sql … q22.sql")
	only := flag.String("only", "", "comma-separated query numbers (default all 22)")
	out := flag.String("out", "", "directory for the markdown table and PNG chart (none: print only)")
	cpuprofile := flag.String("cpuprofile", "", "with --gq-only: write a CPU profile of gq's runs to this file")
	gqOnly := flag.Bool("gq-only", false, "run only gq, in this process (for profiling)")
	workerEngine := flag.String("worker", "", "internal: serve queries for this engine (gq or duckdb)")
	device := flag.String("device", "", "gq's --device (cpu, gpu, auto; default: GQ_DEVICE, else cpu)")
	writer := flag.String("writer", "gq", "who wrote the Parquet files both engines read: gq (DATA as is) or duckdb (DATA-duckdb, written from DATA on first use)")
	cold := flag.Bool("cold", false, "a fresh process per query run for both engines (gq as --gq-bin -f, DuckDB as this binary --once)")
	gqBin := flag.String("gq-bin", "bin/gq", "with --cold: the gq binary")
	coldCPU := flag.Bool("cold-cpu", false, "with --cold and --device gpu: run gq with --device cpu too, each query in a fresh process, and report GPU against CPU")
	once := flag.Bool("once", false, "internal (--cold): run --query N (or --sql) once in DuckDB, print CSV, exit")
	queryN := flag.Int("query", 0, "with --once: the query number")
	sqlText := flag.String("sql", "", "with --once: SQL to run instead of a query file")
	writeFiles := flag.String("write-duckdb-files", "", "internal (--writer duckdb): write DuckDB's copies of DATA's tables to this directory")
	compareFiles := flag.String("compare", "", "GOT,WANT: compare two CSV results of query --query in --queries as the benchmark does (ties in ORDER BY may differ), print ok or the difference, exit 1 on a difference")
	devicePeak := flag.Bool("device-peak", false, "with --cold: each gq run writes --stats-json (its operators instrumented, as under EXPLAIN ANALYZE), and the report gives its device memory peak")
	hot := flag.Bool("hot", false, "hot runs: DuckDB loads the tables into memory tables, and each engine runs each query once untimed first (gq on a GPU fills its device cache)")
	flag.Parse()
	// The workers inherit these (their engines' Options.WithEnv reads
	// GQ_DEVICE).
	if *device != "" {
		os.Setenv("GQ_DEVICE", *device)
		os.Setenv("GQ_FALLBACK_MODE", "silent")
	}
	engine.ConfigureDevice(os.LookupEnv) // GQ_GPU_STREAMS, GQ_CUDA_SYNC, ... (scripts/gpu-bench.sh ab)
	if *hot {
		os.Setenv("GQ_BENCH_HOT", "1")
	}
	if *compareFiles != "" {
		os.Exit(compareMain(*compareFiles, *queries, *queryN))
	}
	if *data == "" || *reps < 1 {
		fmt.Fprintln(os.Stderr, "usage: tpchbench --data DIR [--threads N] [--reps N] [--queries DIR] [--only 1,6] [--out DIR]")
		os.Exit(2)
	}
	var err error
	if *writeFiles != "" {
		if err := duckdb.WriteParquet(*data, *writeFiles, tpch.Tables); err != nil {
			fmt.Fprintln(os.Stderr, "tpchbench:", err)
			os.Exit(1)
		}
		return
	}
	if *writer == "duckdb" && *workerEngine == "" && !*once {
		if *data, err = duckdbFiles(*data); err != nil {
			fmt.Fprintln(os.Stderr, "tpchbench:", err)
			os.Exit(1)
		}
	} else if *writer != "gq" && *writer != "duckdb" {
		fmt.Fprintln(os.Stderr, "tpchbench: --writer is gq or duckdb")
		os.Exit(2)
	}
	switch {
	case *once:
		err = onceMain(*data, *queries, *threads, *queryN, *sqlText)
	case *workerEngine != "":
		err = workerMain(*workerEngine, *data, *queries, *threads)
	case *gqOnly:
		var nums []int
		if nums, err = parseOnly(*only); err == nil {
			err = profileGQ(*data, *queries, *threads, *reps, nums, *cpuprofile)
		}
	default:
		var nums []int
		if nums, err = parseOnly(*only); err == nil {
			cfg := config{data: *data, queries: *queries, threads: *threads, reps: *reps, nums: nums, out: *out, gqBin: *gqBin, writer: *writer, cold: *cold, coldCPU: *coldCPU, devicePeak: *devicePeak}
			if *cold {
				err = runCold(cfg)
			} else {
				err = run(cfg)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tpchbench:", err)
		os.Exit(1)
	}
}

type config struct {
	data, queries, out string
	threads, reps      int
	nums               []int
	gqBin, writer      string
	cold               bool
	coldCPU            bool // with cold: gq on the CPU too (--cold-cpu)
	devicePeak         bool // with cold: gq's device memory peak (--device-peak)
}

func parseOnly(s string) ([]int, error) {
	if s == "" {
		var all []int
		for n := 1; n <= 22; n++ {
			all = append(all, n)
		}
		return all, nil
	}
	var nums []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f), "q")))
		if err != nil || n < 1 || n > 22 {
			return nil, fmt.Errorf("bad query number %q", f)
		}
		nums = append(nums, n)
	}
	return nums, nil
}

// row is one query's line of the report.
type row struct {
	n                int
	gqMs, duckMs     float64 // medians
	gqPeak, duckPeak int64   // bytes, the largest over the reps
	devicePeak       int64   // bytes, gq's device pool peak, the largest over the reps (--device-peak)
	verdict          string  // "ok", "DIFF: …" or "gq error: …"
	// cpuMs and cpuPeak: gq with --device cpu (--cold-cpu), cpuVerdict
	// its answer against DuckDB's.
	cpuMs      float64
	cpuPeak    int64
	cpuVerdict string
}

func run(cfg config) error {
	loadStart := loadAvg()
	gq, err := startWorker("gq", cfg.data, cfg.queries, cfg.threads)
	if err != nil {
		return err
	}
	duck, err := startWorker("duckdb", cfg.data, cfg.queries, cfg.threads)
	if err != nil {
		gq.finish()
		return err
	}
	var rows []row
	for _, n := range cfg.nums {
		r, err := runQuery(gq, duck, n, cfg.reps, cfg.queries)
		if err != nil {
			gq.finish()
			duck.finish()
			return err
		}
		fmt.Fprintf(os.Stderr, "q%02d gq %.1f ms, duckdb %.1f ms, %s\n", n, r.gqMs, r.duckMs, r.verdict)
		rows = append(rows, r)
	}
	gqMax, err1 := gq.finish()
	duckMax, err2 := duck.finish()
	if err1 != nil || err2 != nil {
		return fmt.Errorf("workers: gq %v, duckdb %v", err1, err2)
	}
	rep := report{cfg: cfg, rows: rows, gqMaxRSS: gqMax, duckMaxRSS: duckMax, when: time.Now().UTC(),
		loadStart: loadStart, loadEnd: loadAvg()}
	return rep.write()
}

// write prints the report and, with --out, writes its markdown and chart.
func (rep report) write() error {
	table := rep.markdown()
	fmt.Print(table)
	if rep.cfg.out == "" {
		return nil
	}
	if err := os.MkdirAll(rep.cfg.out, 0o755); err != nil {
		return err
	}
	base := filepath.Join(rep.cfg.out, rep.name())
	if err := os.WriteFile(base+".md", []byte(table), 0o644); err != nil {
		return err
	}
	if err := rep.chart(base + ".png"); err != nil {
		return err
	}
	fmt.Printf("\nwrote %s.md and %s.png\n", base, base)
	return nil
}

// runQuery runs query n reps times in each engine, alternately.
func runQuery(gq, duck *worker, n, reps int, queries string) (row, error) {
	r := row{n: n, verdict: "ok"}
	var gqMs, duckMs []float64
	var gqLast, duckLast reply
	if os.Getenv("GQ_BENCH_HOT") == "1" {
		if _, err := gq.query(n); err != nil {
			return r, err
		}
		if _, err := duck.query(n); err != nil {
			return r, err
		}
	}
	for range reps {
		g, err := gq.query(n)
		if err != nil {
			return r, err
		}
		if g.Err != "" {
			r.verdict = "gq error: " + oneLine(g.Err)
			return r, nil
		}
		d, err := duck.query(n)
		if err != nil {
			return r, err
		}
		if d.Err != "" {
			return r, fmt.Errorf("q%02d in DuckDB: %s", n, d.Err)
		}
		gqMs, duckMs = append(gqMs, g.Ms), append(duckMs, d.Ms)
		r.gqPeak, r.duckPeak = max(r.gqPeak, g.PeakRSS), max(r.duckPeak, d.PeakRSS)
		gqLast, duckLast = g, d
	}
	r.gqMs, r.duckMs = median(gqMs), median(duckMs)
	got, err1 := os.ReadFile(gqLast.CSV)
	want, err2 := os.ReadFile(duckLast.CSV)
	if err1 != nil || err2 != nil {
		return r, fmt.Errorf("q%02d results: %v %v", n, err1, err2)
	}
	if err := tpch.CompareCSVQuery(got, want, queryText(queries, n)); err != nil {
		r.verdict = "DIFF: " + oneLine(err.Error())
	}
	return r, nil
}

// queryText is query n's SQL in dir ("" when unreadable: the comparison
// of its result is then strict about the order of ties).
func queryText(dir string, n int) string {
	b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("q%02d.sql", n)))
	return string(b)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// oneLine keeps a message inside one markdown table cell.
func oneLine(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", "\\|")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// compareMain is --compare GOT,WANT: the result files of query n
// compared as the benchmark compares engines.
func compareMain(files, queries string, n int) int {
	got, want, ok := strings.Cut(files, ",")
	g, err1 := os.ReadFile(got)
	w, err2 := os.ReadFile(want)
	if !ok || err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "tpchbench --compare GOT,WANT:", err1, err2)
		return 2
	}
	if err := tpch.CompareCSVQuery(g, w, queryText(queries, n)); err != nil {
		fmt.Printf("q%02d DIFF: %s\n", n, oneLine(err.Error()))
		return 1
	}
	fmt.Printf("q%02d ok\n", n)
	return 0
}
