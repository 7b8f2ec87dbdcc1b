package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gq/benchmarks/duckdb"
	"gq/benchmarks/tpch"
	gqmem "gq/memory"
)

// Cold runs (--cold): every run of every query is a fresh process, as a
// user running one script per invocation sees it. gq runs as its own CLI
// (gq --data DIR -f qNN.sql); DuckDB as this binary with --once, which
// opens the same tables, runs the one query and exits. The parent times
// each process from start to exit and takes its peak resident set from
// the child's rusage. Start-up is measured apart as `select 1` in each
// engine over the same tables and reported on its own line; the table's
// ratio column is of the whole process times, with a second ratio net of
// start-up beside it, so nothing is subtracted unsaid.

// coldRun is one process's outcome.
type coldRun struct {
	ms   float64
	peak int64 // bytes
	out  []byte
	err  error
}

// runProcess runs cmd with stdout captured and returns its wall time and
// peak resident set.
//
// A child's maximum resident set (rusage) starts from its parent's: Linux
// carries the old address space's high-water mark across exec, and this
// process, with DuckDB linked in, is tens of MiB. Where GNU time is
// installed the command runs under it: time forks its child from its own
// small address space and reports that child's own peak.
func runProcess(cmd *exec.Cmd) coldRun {
	var peakFile string
	if gnuTime != "" {
		if f, err := os.CreateTemp("", "tpchbench-rss"); err == nil {
			peakFile = f.Name()
			f.Close()
			defer os.Remove(peakFile)
			args := append([]string{gnuTime, "-f", "%M", "-o", peakFile, cmd.Path}, cmd.Args[1:]...)
			cmd.Path, cmd.Args = gnuTime, args
		}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	r := coldRun{ms: float64(time.Since(start).Microseconds()) / 1000, out: out.Bytes()}
	if peakFile != "" {
		b, _ := os.ReadFile(peakFile)
		// The last line: GNU time writes "Command exited with non-zero
		// status N" first on failure.
		lines := strings.Fields(strings.TrimSpace(string(b)))
		if len(lines) > 0 {
			kb, _ := strconv.ParseInt(lines[len(lines)-1], 10, 64)
			r.peak = kb << 10
		}
	} else if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.peak = ru.Maxrss << 10
		}
	}
	if err != nil {
		r.err = fmt.Errorf("%v: %s", err, oneLine(errOut.String()))
	}
	return r
}

// gnuTime is GNU time's path, "" when it is not installed.
var gnuTime = func() string {
	p, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return ""
	}
	return p
}()

func (cfg config) gqCmd(args ...string) *exec.Cmd {
	base := []string{"--data", cfg.data, "--threads", strconv.Itoa(cfg.threads), "--format", "csv"}
	cmd := exec.Command(cfg.gqBin, append(base, args...)...)
	cmd.Env = os.Environ()
	return cmd
}

func (cfg config) duckCmd(args ...string) *exec.Cmd {
	self, _ := os.Executable()
	base := []string{"--once", "--data", cfg.data, "--threads", strconv.Itoa(cfg.threads)}
	return exec.Command(self, append(base, args...)...)
}

// startup is the median time and largest peak of reps `select 1` runs of
// each engine in a fresh process.
type startup struct {
	gqMs, duckMs     float64
	gqPeak, duckPeak int64
	// floor is the peak reported for `true`: no peak here is below it
	// (see runProcess).
	floor int64
}

func measureStartup(cfg config) (startup, error) {
	var s startup
	if r := runProcess(exec.Command("true")); r.err == nil {
		s.floor = r.peak
	}
	var g, d []float64
	for range cfg.reps {
		gr := runProcess(cfg.gqCmd("-c", "select 1"))
		if gr.err != nil {
			return s, fmt.Errorf("gq select 1: %w", gr.err)
		}
		dr := runProcess(cfg.duckCmd("--sql", "select 1"))
		if dr.err != nil {
			return s, fmt.Errorf("duckdb select 1: %w", dr.err)
		}
		g, d = append(g, gr.ms), append(d, dr.ms)
		s.gqPeak, s.duckPeak = max(s.gqPeak, gr.peak), max(s.duckPeak, dr.peak)
	}
	s.gqMs, s.duckMs = median(g), median(d)
	return s, nil
}

// runColdQuery is runQuery with a fresh process per run.
func runColdQuery(cfg config, n int) (row, error) {
	r := row{n: n, verdict: "ok"}
	path := filepath.Join(cfg.queries, fmt.Sprintf("q%02d.sql", n))
	var gqMs, duckMs []float64
	var gqLast, duckLast []byte
	for range cfg.reps {
		args := []string{"-f", path}
		stats := ""
		if cfg.devicePeak {
			stats = filepath.Join(os.TempDir(), fmt.Sprintf("tpchbench-stats-%d-q%02d.json", os.Getpid(), n))
			args = append(args, "--stats-json", stats)
		}
		g := runProcess(cfg.gqCmd(args...))
		if g.err != nil {
			r.verdict = "gq error: " + oneLine(g.err.Error())
			return r, nil
		}
		if stats != "" {
			p, err := devicePeakOf(stats)
			if err != nil {
				return r, fmt.Errorf("q%02d: %w", n, err)
			}
			r.devicePeak = max(r.devicePeak, p)
		}
		d := runProcess(cfg.duckCmd("--query", strconv.Itoa(n), "--queries", cfg.queries))
		if d.err != nil {
			return r, fmt.Errorf("q%02d in DuckDB: %w", n, d.err)
		}
		gqMs, duckMs = append(gqMs, g.ms), append(duckMs, d.ms)
		r.gqPeak, r.duckPeak = max(r.gqPeak, g.peak), max(r.duckPeak, d.peak)
		gqLast, duckLast = g.out, d.out
	}
	r.gqMs, r.duckMs = median(gqMs), median(duckMs)
	if err := tpch.CompareCSVQuery(gqLast, duckLast, queryText(cfg.queries, n)); err != nil {
		r.verdict = "DIFF: " + oneLine(err.Error())
	}
	if cfg.coldCPU {
		var cpuMs []float64
		var cpuLast []byte
		r.cpuVerdict = "ok"
		for range cfg.reps {
			cmd := cfg.gqCmd("-f", path)
			cmd.Env = append(cmd.Env, "GQ_DEVICE=cpu") // the last of a name wins
			g := runProcess(cmd)
			if g.err != nil {
				r.cpuVerdict = "gq error: " + oneLine(g.err.Error())
				return r, nil
			}
			cpuMs, cpuLast = append(cpuMs, g.ms), g.out
			r.cpuPeak = max(r.cpuPeak, g.peak)
		}
		r.cpuMs = median(cpuMs)
		if err := tpch.CompareCSVQuery(cpuLast, duckLast, queryText(cfg.queries, n)); err != nil {
			r.cpuVerdict = "DIFF: " + oneLine(err.Error())
		}
	}
	return r, nil
}

// devicePeakOf reads the device pool's peak from a gq --stats-json file
// and removes the file; 0 when the query did not use the device.
func devicePeakOf(path string) (int64, error) {
	defer os.Remove(path)
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	var st gqmem.Stat
	if raw, ok := doc[gqmem.StatPeakDeviceBytes]; ok {
		if err := json.Unmarshal(raw, &st); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	return int64(st.Value), nil
}

func runCold(cfg config) error {
	loadStart := loadAvg()
	st, err := measureStartup(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "select 1: gq %.1f ms, duckdb %.1f ms\n", st.gqMs, st.duckMs)
	var rows []row
	for _, n := range cfg.nums {
		r, err := runColdQuery(cfg, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "q%02d gq %.1f ms, duckdb %.1f ms, %s", n, r.gqMs, r.duckMs, r.verdict)
		if cfg.coldCPU {
			fmt.Fprintf(os.Stderr, "; gq --device cpu %.1f ms, %s", r.cpuMs, r.cpuVerdict)
		}
		if cfg.devicePeak {
			fmt.Fprintf(os.Stderr, "; gq device peak %s MiB", mib(r.devicePeak))
		}
		fmt.Fprintln(os.Stderr)
		rows = append(rows, r)
	}
	rep := report{cfg: cfg, rows: rows, when: time.Now().UTC(), loadStart: loadStart, loadEnd: loadAvg(), startup: &st}
	return rep.write()
}

// onceMain is --once: DuckDB in this process runs one query (or the SQL
// text sql) over data's tables, writes its result as CSV to stdout and
// the process exits.
func onceMain(data, queries string, threads, n int, sqlText string) error {
	if sqlText == "" {
		b, err := os.ReadFile(filepath.Join(queries, fmt.Sprintf("q%02d.sql", n)))
		if err != nil {
			return err
		}
		sqlText = string(b)
	}
	db, err := duckdb.Open(data, threads)
	if err != nil {
		return err
	}
	defer db.Close()
	var buf bytes.Buffer
	if err := duckdb.RunScript(context.Background(), db, sqlText, &buf); err != nil {
		return err
	}
	_, err = os.Stdout.Write(buf.Bytes())
	return err
}

// duckdbFiles is the directory of DuckDB-written copies of data's tables
// (data + "-duckdb"), written on first use (--writer duckdb) by a child
// process: a child's maximum resident set (rusage) starts from its
// parent's at fork, so the parent of cold runs must stay small.
func duckdbFiles(data string) (string, error) {
	dst := filepath.Clean(data) + "-duckdb"
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(self, "--write-duckdb-files", dst, "--data", data)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("writing %s: %w", dst, err)
	}
	return dst, nil
}
