package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// report is the result of a run, rendered as markdown and as a chart.
type report struct {
	cfg                  config
	rows                 []row
	gqMaxRSS, duckMaxRSS int64 // bytes, each child's peak over the run
	when                 time.Time
	loadStart, loadEnd   string   // /proc/loadavg's 1-minute figure, "" when unknown
	startup              *startup // cold runs: `select 1` in a fresh process of each engine
}

// loadAvg is the 1-minute load average: on a shared machine the times
// are only comparable between runs at similar load.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// name is the file name stem of the report: the data directory's name
// (tpch-sf1) and the thread count.
func (r report) name() string {
	name := fmt.Sprintf("%s-t%d", filepath.Base(filepath.Clean(r.cfg.data)), r.cfg.threads)
	if d := os.Getenv("GQ_DEVICE"); d != "" && d != "cpu" {
		name += "-" + d
	}
	if r.cfg.cold {
		name += "-cold"
	}
	if len(r.cfg.nums) < 22 {
		name += "-partial" // a subset never overwrites the full table
	}
	return name
}

func (r report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# TPC-H: gq vs DuckDB, %s, %d threads\n\n", filepath.Base(filepath.Clean(r.cfg.data)), r.cfg.threads)
	if r.cfg.cold {
		fmt.Fprintf(&b, "%s, %s/%s, %d CPUs; median of %d runs per engine, engines alternating, every run a fresh process "+
			"(gq: `%s --data DIR -f qNN.sql`; DuckDB: `tpchbench --once`, DuckDB in process over the same files). "+
			"Times are whole processes, start to exit; peak memory is the process's maximum resident set.\n\n",
			r.when.Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), r.cfg.reps, r.cfg.gqBin)
	} else {
		fmt.Fprintf(&b, "%s, %s/%s, %d CPUs; median of %d runs per engine, engines alternating, each in its own process. "+
			"Peak memory is the resident set high-water mark of the engine's process during the query%s.\n\n",
			r.when.Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), r.cfg.reps, heapNote())
	}
	fmt.Fprintf(&b, "Parquet written by %s (`--writer %s`).\n\n", writerName(r.cfg.writer), r.cfg.writer)
	if s := r.startup; s != nil {
		fmt.Fprintf(&b, "Start-up (`select 1` over the same tables, fresh process, median): gq %.1f ms (peak %s MiB), DuckDB %.1f ms (peak %s MiB). "+
			"The gq/DuckDB column compares whole processes; the net column takes each engine's start-up off its time. "+
			"No peak is below %s MiB, what `true` reports (peaks by GNU time where installed, else the child's rusage, which starts from the parent's).\n\n",
			s.gqMs, mib(s.gqPeak), s.duckMs, mib(s.duckPeak), mib(s.floor))
	}
	if d := os.Getenv("GQ_DEVICE"); d != "" && d != "cpu" {
		fmt.Fprintf(&b, "gq runs with --device %s: scans (from the device table cache), filters, projections, joins, aggregations and sorts on the GPU where the planner can place them (EXPLAIN marks each operator), the rest on the CPU.\n\n", d)
	}
	if os.Getenv("GQ_BENCH_HOT") == "1" {
		b.WriteString("Hot runs: DuckDB reads in-memory tables (loaded from the Parquet files before timing), and each engine runs every query once untimed before its timed runs (gq on a GPU fills its device table cache then).\n\n")
	}
	if r.loadStart != "" {
		fmt.Fprintf(&b, "Load average (1 min) %s at the start, %s at the end: times are comparable only between runs at similar load; the ratio is the figure to read.\n\n", r.loadStart, r.loadEnd)
	}
	net := r.startup != nil
	if net {
		b.WriteString("| query | gq ms | DuckDB ms | gq/DuckDB | net of start-up | gq peak MiB | DuckDB peak MiB | mem ratio | result |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	} else {
		b.WriteString("| query | gq ms | DuckDB ms | gq/DuckDB | gq peak MiB | DuckDB peak MiB | mem ratio | result |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---|\n")
	}
	var gqTotal, duckTotal float64
	var slower []string
	timed := 0
	for _, x := range r.rows {
		if x.gqMs == 0 {
			fmt.Fprintf(&b, "| q%02d | | | | | | | %s |\n", x.n, x.verdict)
			continue
		}
		gqTotal += x.gqMs
		duckTotal += x.duckMs
		timed++
		ratio := x.gqMs / x.duckMs
		if ratio > 2 {
			slower = append(slower, fmt.Sprintf("q%02d", x.n))
		}
		fmt.Fprintf(&b, "| q%02d | %.1f | %.1f | %.2f |%s %s | %s | %s | %s |\n", x.n, x.gqMs, x.duckMs, ratio,
			r.netCell(x.gqMs, x.duckMs, 1), mib(x.gqPeak), mib(x.duckPeak), memRatio(x.gqPeak, x.duckPeak), x.verdict)
	}
	gqPeak, duckPeak := r.gqMaxRSS, r.duckMaxRSS
	for _, x := range r.rows {
		gqPeak, duckPeak = max(gqPeak, x.gqPeak), max(duckPeak, x.duckPeak)
	}
	if duckTotal > 0 {
		fmt.Fprintf(&b, "| **total** | **%.1f** | **%.1f** | **%.2f** |%s %s | %s | %s | |\n", gqTotal, duckTotal, gqTotal/duckTotal,
			r.netCell(gqTotal, duckTotal, float64(timed)), mib(gqPeak), mib(duckPeak), memRatio(gqPeak, duckPeak))
	}
	if net {
		b.WriteString("\nThe total row's memory is each engine's largest per-query peak.\n")
	} else {
		b.WriteString("\nThe total row's memory is each engine's peak over the whole run.\n")
	}
	if len(slower) > 0 {
		fmt.Fprintf(&b, "Queries more than 2x slower than DuckDB: %s.\n", strings.Join(slower, ", "))
	}
	if r.cfg.coldCPU {
		r.cpuTable(&b)
	}
	if r.cfg.devicePeak {
		r.deviceTable(&b)
	}
	return b.String()
}

// deviceTable is --device-peak's: each query's peak of device and host
// memory in gq, side by side.
func (r report) deviceTable(b *strings.Builder) {
	b.WriteString("\n## gq's peak memory per query (`--device-peak`)\n\n")
	b.WriteString("Device: the pool's peak in use (`peak-device-bytes` of `gq --stats-json`, which runs the operators instrumented); host: the process's maximum resident set.\n\n")
	b.WriteString("| query | device peak MiB | host peak MiB |\n|---|---:|---:|\n")
	var dev, host int64
	for _, x := range r.rows {
		d := "0" // the query did not use the device
		if x.devicePeak > 0 {
			d = mib(x.devicePeak)
		}
		fmt.Fprintf(b, "| q%02d | %s | %s |\n", x.n, d, mib(x.gqPeak))
		dev, host = max(dev, x.devicePeak), max(host, x.gqPeak)
	}
	fmt.Fprintf(b, "| **largest** | **%s** | **%s** |\n", mib(dev), mib(host))
}

// cpuTable is --cold-cpu's comparison: gq as run above against gq with
// --device cpu, each query in a fresh process.
func (r report) cpuTable(b *strings.Builder) {
	fmt.Fprintf(b, "\n## gq --device %s against gq --device cpu (`--cold-cpu`)\n\n", os.Getenv("GQ_DEVICE"))
	b.WriteString("| query | gq ms | gq --device cpu ms | ratio | DuckDB ms | cpu peak MiB | cpu result |\n|---|---:|---:|---:|---:|---:|---|\n")
	var gq, cpu, duck float64
	var slower []string
	for _, x := range r.rows {
		if x.gqMs == 0 || x.cpuMs == 0 {
			fmt.Fprintf(b, "| q%02d | | | | | | %s |\n", x.n, x.cpuVerdict)
			continue
		}
		gq, cpu, duck = gq+x.gqMs, cpu+x.cpuMs, duck+x.duckMs
		if x.gqMs > x.cpuMs {
			slower = append(slower, fmt.Sprintf("q%02d", x.n))
		}
		fmt.Fprintf(b, "| q%02d | %.1f | %.1f | %.2f | %.1f | %s | %s |\n", x.n, x.gqMs, x.cpuMs, x.gqMs/x.cpuMs, x.duckMs, mib(x.cpuPeak), x.cpuVerdict)
	}
	if cpu > 0 {
		fmt.Fprintf(b, "| **total** | **%.1f** | **%.1f** | **%.2f** | **%.1f** | | |\n", gq, cpu, gq/cpu, duck)
	}
	if len(slower) > 0 {
		fmt.Fprintf(b, "\nSlower than the CPU: %s.\n", strings.Join(slower, ", "))
	}
}

func mib(b int64) string {
	if b <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f", float64(b)/(1<<20))
}

func memRatio(a, b int64) string {
	if a <= 0 || b <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// chart draws the median times per query, gq and DuckDB side by side, to
// a PNG file.
func (r report) chart(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("TPC-H %s, %d threads: median ms per query", filepath.Base(filepath.Clean(r.cfg.data)), r.cfg.threads)
	p.Y.Label.Text = "ms"
	var gq, duck plotter.Values
	var names []string
	for _, x := range r.rows {
		gq = append(gq, x.gqMs)
		duck = append(duck, x.duckMs)
		names = append(names, fmt.Sprintf("q%02d", x.n))
	}
	w := vg.Points(7)
	gqBars, err := plotter.NewBarChart(gq, w)
	if err != nil {
		return err
	}
	gqBars.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	gqBars.Offset = -w / 2
	gqBars.LineStyle.Width = 0
	duckBars, err := plotter.NewBarChart(duck, w)
	if err != nil {
		return err
	}
	duckBars.Color = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	duckBars.Offset = w / 2
	duckBars.LineStyle.Width = 0
	p.Add(gqBars, duckBars)
	p.Legend.Add("gq", gqBars)
	p.Legend.Add("DuckDB", duckBars)
	p.Legend.Top = true
	p.NominalX(names...)
	return p.Save(vg.Length(max(len(names), 12))*vg.Points(28)+vg.Inch, 4*vg.Inch, path)
}

func heapNote() string {
	if releaseHeap() {
		return " (gq returns its freed heap to the OS before each query: GQ_BENCH_RELEASE_HEAP=1)"
	}
	return " (each engine keeps what it freed earlier, as a long-running process does; GQ_BENCH_RELEASE_HEAP=1 makes gq return it before each query)"
}

// netCell is the "net of start-up" cell of a cold report (k queries'
// start-ups taken off each side), empty otherwise.
func (r report) netCell(gqMs, duckMs, k float64) string {
	s := r.startup
	if s == nil {
		return ""
	}
	g, d := gqMs-k*s.gqMs, duckMs-k*s.duckMs
	if d <= 0 {
		return " ? |"
	}
	return fmt.Sprintf(" %.2f |", g/d)
}

func writerName(w string) string {
	if w == "duckdb" {
		return "DuckDB (COPY … TO … (FORMAT parquet), its defaults)"
	}
	return "gq (gq gen tpch)"
}
