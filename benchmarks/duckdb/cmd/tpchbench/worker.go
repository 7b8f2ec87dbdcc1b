package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gq/benchmarks/duckdb"
	"gq/benchmarks/tpch"
	"gq/catalog"
	"gq/engine"
	"gq/format"
	gqmem "gq/memory"
)

// Each engine runs in a child process of its own (this binary with
// --worker gq|duckdb), so that its memory can be measured apart from the
// other's: the peak resident set of each query (VmHWM, reset before the
// query through /proc/self/clear_refs) and of the whole run (the child's
// rusage). The parent sends one query number per line on the child's stdin;
// the child runs it and answers one JSON line on stdout.

// reply is a worker's answer to one query.
type reply struct {
	Ms      float64 `json:"ms"`       // wall time of the query, result materialised
	PeakRSS int64   `json:"peak_rss"` // bytes; 0 when the kernel does not say
	CSV     string  `json:"csv"`      // result file
	Err     string  `json:"err,omitempty"`
}

// runner runs one query in an engine and writes its result as CSV.
type runner func(ctx context.Context, sql string, w io.Writer) error

// workerMain serves queries for engine on stdin/stdout until stdin closes.
func workerMain(engineName, data, queries string, threads int) error {
	ctx := context.Background()
	var run runner
	switch engineName {
	case "gq":
		r, err := gqRunner(data, threads)
		if err != nil {
			return err
		}
		run = r
	case "duckdb":
		db, err := duckdb.Open(data, threads)
		if err != nil {
			return err
		}
		defer db.Close()
		run = duckRunner(db)
		if os.Getenv("GQ_BENCH_HOT") == "1" {
			run = materializing(db, run)
		}
	default:
		return fmt.Errorf("unknown engine %q", engineName)
	}
	dir, err := os.MkdirTemp("", "tpchbench-"+engineName)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		if err != nil {
			return fmt.Errorf("bad request %q", in.Text())
		}
		if err := out.Encode(runOne(ctx, run, engineName, queries, dir, n)); err != nil {
			return err
		}
	}
	return in.Err()
}

func runOne(ctx context.Context, run runner, engineName, queries, dir string, n int) reply {
	sqlText, err := os.ReadFile(filepath.Join(queries, fmt.Sprintf("q%02d.sql", n)))
	if err != nil {
		return reply{Err: err.Error()}
	}
	if engineName == "gq" && releaseHeap() {
		// Hand the previous query's freed heap back to the OS so that it
		// does not count towards this query's peak. Off by default: DuckDB
		// keeps its freed memory too, and gq then pays page faults for
		// every byte again (a sixth of its time over the 22 queries).
		debug.FreeOSMemory()
	}
	resetPeakRSS()
	var buf bytes.Buffer
	start := time.Now()
	err = run(ctx, string(sqlText), &buf)
	ms := float64(time.Since(start).Microseconds()) / 1000
	r := reply{Ms: ms, PeakRSS: peakRSS()}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.CSV = filepath.Join(dir, fmt.Sprintf("q%02d.csv", n))
	if err := os.WriteFile(r.CSV, buf.Bytes(), 0o644); err != nil {
		r.Err = err.Error()
	}
	return r
}

// gqRunner opens the TPC-H tables and runs queries in gq. The time covers
// planning and execution with every result batch in memory; the CSV is
// written after the clock stops (the results are a few rows).
func gqRunner(data string, threads int) (runner, error) {
	cat := catalog.New()
	for _, name := range tpch.Tables {
		tbl, err := catalog.OpenFile(name, tpch.TablePath(data, name))
		if err != nil {
			return nil, err
		}
		if err := cat.Register(tbl, false); err != nil {
			return nil, err
		}
	}
	gqmem.PaceGC(gqmem.HeapBudgetFor(cat.DataBytes())) // as gq and gq serve do
	eng := engine.New(cat, engine.Options{Threads: threads}.WithEnv(os.LookupEnv))
	return func(ctx context.Context, sql string, w io.Writer) error {
		res, err := eng.Query(ctx, sql)
		if err != nil {
			return err
		}
		defer res.Release()
		return format.WriteCSV(w, res.Schema, res.Batches)
	}, nil
}

// duckRunner runs queries in DuckDB; its time includes fetching and
// formatting the (small) result.
func duckRunner(db *sql.DB) runner {
	return func(ctx context.Context, sql string, w io.Writer) error {
		return duckdb.RunScript(ctx, db, sql, w)
	}
}

// materializing runs queries in DuckDB after loading into memory tables
// the tables each names that are not loaded yet (hot runs: a query's
// first run, untimed, loads them). Loading only what the queries run
// use keeps a run of a few queries at a large scale factor from loading
// every table.
func materializing(db *sql.DB, run runner) runner {
	loaded := map[string]bool{}
	return func(ctx context.Context, sql string, w io.Writer) error {
		for _, t := range tpch.Tables {
			if !loaded[t] && regexp.MustCompile(`\b`+t+`\b`).MatchString(sql) {
				if err := duckdb.Materialize(db, []string{t}); err != nil {
					return err
				}
				loaded[t] = true
			}
		}
		return run(ctx, sql, w)
	}
}

// resetPeakRSS resets the kernel's high-water mark of this process's
// resident set (Linux: "5" to /proc/self/clear_refs); errors are ignored
// (peakRSS then reports the peak since start).
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS is VmHWM from /proc/self/status in bytes, 0 when unknown.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// worker is the parent's handle on a child process.
type worker struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
}

func startWorker(name, data, queries string, threads int) (*worker, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "--worker", name, "--data", data, "--queries", queries, "--threads", strconv.Itoa(threads))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	return &worker{name: name, cmd: cmd, in: in, out: sc}, nil
}

// query runs query n in the worker.
func (w *worker) query(n int) (reply, error) {
	if _, err := fmt.Fprintf(w.in, "%d\n", n); err != nil {
		return reply{}, fmt.Errorf("%s worker: %w", w.name, err)
	}
	if !w.out.Scan() {
		err := w.out.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return reply{}, fmt.Errorf("%s worker died: %w", w.name, err)
	}
	var r reply
	if err := json.Unmarshal(w.out.Bytes(), &r); err != nil {
		return reply{}, fmt.Errorf("%s worker: bad reply %q: %w", w.name, w.out.Text(), err)
	}
	return r, nil
}

// finish ends the worker and returns its peak resident set over the whole
// run, in bytes (0 when unknown).
func (w *worker) finish() (int64, error) {
	w.in.Close()
	err := w.cmd.Wait()
	var maxRSS int64
	if ru, ok := w.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	return maxRSS, err
}

// releaseHeap: GQ_BENCH_RELEASE_HEAP=1 makes each query's peak gq's own.
func releaseHeap() bool { return os.Getenv("GQ_BENCH_RELEASE_HEAP") == "1" }
