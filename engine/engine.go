package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/gpuexec"
	gqmem "gq/memory"
	"gq/parser"
	"gq/physical"
	"gq/shuffle"
)

// Options are an engine's execution settings.
type Options struct {
	Threads   int // worker goroutines; 0: runtime.NumCPU()
	BatchSize int // rows per batch; 0: exec.DefaultBatchSize
	// Comm, with more than one rank, runs queries SPMD across ranks (see
	// ranks.go); ShuffleStats (may be nil) collects the exchanges' figures.
	Comm         shuffle.Communicator
	ShuffleStats *shuffle.Statistics
	// Memory (see memory.go): Limits are the per-tier limits (nil: none),
	// MemoryLimit the HOST limit in bytes over Limits' (0: Limits'), and
	// DeviceMemoryLimit the DEVICE limit over Limits' and the device pool's
	// size (0: Limits', and 85% of the free device memory); SpillDir is
	// where spills go ("": a temp dir removed by Close); SpillAlways spills
	// everything spillable at every opportunity; Stats (may be nil)
	// accumulates every query's statistics.
	// AfterQuery, when set, is called with each query's statistics as it
	// ends (finished, failed or cancelled) — the CLI's --stats.
	Limits            *gqmem.Limits
	MemoryLimit       int64
	DeviceMemoryLimit int64
	SpillDir          string
	SpillAlways       bool
	Stats             *gqmem.Statistics
	AfterQuery        func(*gqmem.Statistics)
	// AfterQueryOperators, when set, makes every query run with its
	// operators instrumented as under EXPLAIN ANALYZE and is called with
	// their figures when it succeeds (opstats.go) — the CLI's --stats.
	AfterQueryOperators func(QueryOperators)
	// QueryMemoryLimit bounds one query's host memory (0: none; see
	// querylimit.go): a server's over-limit query fails alone.
	QueryMemoryLimit int64
	// Device is where operators run: "cpu", "gpu" (queries fail when no
	// GPU is usable, saying what is missing) or "auto" (the GPU when one
	// is usable) or "" ("cpu"). FallbackMode ("warn", "raise", "silent";
	// "": "warn" for "gpu" and "silent" for "auto") says what
	// happens to operators without a GPU twin (physical.PlaceOnGPU); Warn
	// receives the warnings (nil: standard error).
	Device       string
	FallbackMode string
	Warn         func(string)
	// GPUColdRowsPerThread, when > 0, keeps on the CPU a query whose
	// tables not yet in device memory hold fewer rows than this many per
	// thread (gpucold.go): set by a process that runs one script and
	// ends, where nothing loaded to the device is used again.
	GPUColdRowsPerThread int64
}

// WithEnv returns o with what it leaves unset taken from the GQ_*
// variables as gq reads them, through lookup (os.LookupEnv at a binary's
// edge or in a test harness; the engine reads no variable itself):
// Device from GQ_DEVICE, FallbackMode from GQ_FALLBACK_MODE, Limits from
// the GQ_*_LIMIT variables (memory.LimitsFromEnv; when one is malformed
// none applies, gq's flags say why) and SpillAlways from GQ_SPILL_ALWAYS.
func (o Options) WithEnv(lookup func(string) (string, bool)) Options {
	getenv := func(name string) string { v, _ := lookup(name); return v }
	if o.Device == "" {
		o.Device = getenv("GQ_DEVICE")
	}
	if o.FallbackMode == "" {
		o.FallbackMode = getenv("GQ_FALLBACK_MODE")
	}
	if o.Limits == nil {
		if l, err := gqmem.LimitsFromEnv(lookup); err == nil {
			o.Limits = &l
		}
	}
	o.SpillAlways = o.SpillAlways || gqmem.SpillAlwaysFromEnv(getenv)
	return o
}

// ConfigureDevice passes the device's settings, read through lookup
// (os.LookupEnv at a binary's edge), to the layers under the engine,
// which read no variable themselves: arrowgpu's (GQ_LIBCUDA, GQ_LIBNVRTC,
// GQ_KERNEL_CACHE, GQ_CUDA_SYNC; arrowgpu.ConfigFromEnv) and gpuexec's
// streams (GQ_GPU_STREAMS). The device is the process's, so this is
// called once, before the first engine that may open it; a bad value
// fails the device's opening, naming the variable.
func ConfigureDevice(lookup func(string) (string, bool)) {
	arrowgpu.Configure(arrowgpu.ConfigFromEnv(lookup))
	streams, _ := lookup("GQ_GPU_STREAMS")
	gpuexec.SetStreams(streams)
}

// Engine runs statements against one catalog. It is safe for concurrent
// use as far as the catalog is.
type Engine struct {
	cat   *catalog.Catalog
	opts  Options
	ranks rankState
	mem   memState
	serve serveState   // statements broadcast by a multi-rank server
	gpu   *gpuexec.GPU // nil: operators run on the CPU
	// fallbackAsked is Options.FallbackMode as given ("": by device).
	fallbackAsked string
	// gpuErr is why Device "gpu" has no GPU: every query fails with it.
	gpuErr error
}

// New returns an engine over cat.
func New(cat *catalog.Catalog, opts Options) *Engine {
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	e := &Engine{cat: cat, opts: opts, fallbackAsked: opts.FallbackMode}
	e.mem = newMemState(opts)
	e.openDevice()
	return e
}

// openDevice resolves Options.Device and FallbackMode and opens the GPU
// when asked for one.
func (e *Engine) openDevice() {
	o := &e.opts
	o.FallbackMode = e.fallbackAsked
	if o.FallbackMode == "" {
		// Asked for the GPU, say what runs elsewhere; on auto, quietly
		// use what the device can run.
		o.FallbackMode = "silent"
		if o.Device == "gpu" {
			o.FallbackMode = "warn"
		}
	}
	if o.Warn == nil {
		o.Warn = func(msg string) { fmt.Fprintln(os.Stderr, "gq: warning:", msg) }
	}
	switch o.Device {
	case "", "cpu":
		o.Device = "cpu"
		return
	case "gpu", "auto":
	default:
		e.gpuErr = errs.New(errs.Binding, "unknown device %q (want auto, cpu or gpu)", o.Device)
		return
	}
	if !slices.Contains(physical.FallbackModes, o.FallbackMode) {
		e.gpuErr = errs.New(errs.Binding, "unknown fallback_mode %q (want warn, raise or silent)", o.FallbackMode)
		return
	}
	if o.Device == "gpu" {
		// The device opens in the background once a query places an
		// operator on it (placeOnGPU): its context and pool take a few
		// hundred milliseconds that the query's file reads overlap.
		e.gpu = gpuexec.ProcessGPU(o.DeviceMemoryLimit)
		return
	}
	if g, err := gpuexec.OpenGPU(o.DeviceMemoryLimit); err == nil {
		e.gpu = g
	}
}

// gpuOpened is, for Device "gpu", the error of a device that a query
// started and that could not be opened: the query fails with it even
// where its operators fell back to the CPU.
func (e *Engine) gpuOpened() error {
	if e.opts.Device != "gpu" || e.gpu == nil || !e.gpu.Started() {
		return nil
	}
	if err := e.gpu.Wait(); err != nil {
		return fmt.Errorf("--device gpu: %w", err)
	}
	if note := e.gpu.TakePoolNote(); note != "" {
		e.opts.Warn(note)
	}
	return nil
}

// SetDevice switches where the next queries run ("cpu", "gpu", "auto"),
// as Options.Device; "gpu" without a usable GPU is an error and changes
// nothing. Not for use while queries run.
func (e *Engine) SetDevice(mode string) error {
	old := e.opts.Device
	oldGPU, oldErr := e.gpu, e.gpuErr
	e.opts.Device, e.gpu, e.gpuErr = mode, nil, nil
	e.openDevice()
	if e.gpuErr == nil && e.gpu != nil && mode == "gpu" {
		if err := e.gpu.Wait(); err != nil {
			e.gpuErr = fmt.Errorf("--device gpu: %w", err)
		}
	}
	if e.gpuErr != nil {
		err := e.gpuErr
		e.opts.Device, e.gpu, e.gpuErr = old, oldGPU, oldErr
		return err
	}
	return nil
}

// Catalog returns the engine's catalog.
func (e *Engine) Catalog() *catalog.Catalog { return e.cat }

// Result is the output of one statement.
type Result struct {
	Schema       *arrow.Schema
	Batches      []arrow.RecordBatch
	Statement    string // the statement's text
	RowsAffected int64  // rows stored by CREATE TABLE AS
	// Stats are the statement's statistics (spills, peak memory); nil for
	// statements that run no query. Mem counts the bytes the statement
	// allocated; once the result is released its Live() is 0.
	Stats *gqmem.Statistics
	Mem   *gqmem.Allocator
}

// Release releases the result's batches.
func (r *Result) Release() {
	for _, b := range r.Batches {
		b.Release()
	}
	r.Batches = nil
}

// NumRows is the number of rows in the result.
func (r *Result) NumRows() int64 {
	var n int64
	for _, b := range r.Batches {
		n += b.NumRows()
	}
	return n
}

// Query runs sql, which must hold exactly one statement, and returns its
// result (a nil-schema result for statements that return no rows).
func (e *Engine) Query(ctx context.Context, sql string) (*Result, error) {
	stmts, err := parser.Split(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, errs.New(errs.Syntax, "expected exactly one statement, got %d", len(stmts))
	}
	res, err := e.run(ctx, stmts[0])
	if err != nil {
		return nil, locate(err, stmts[0])
	}
	return res, nil
}

// Exec runs every statement of sql in order and calls each with the result
// of every statement that returns rows; each owns the result (it should
// Release it). The first error stops the script.
func (e *Engine) Exec(ctx context.Context, sql string, each func(*Result) error) error {
	stmts, err := parser.Split(sql)
	// Statements before a syntax error still run, like a client sending
	// them one by one would.
	for _, st := range stmts {
		res, rerr := e.run(ctx, st)
		if rerr != nil {
			return locate(rerr, st)
		}
		if res.Schema == nil {
			continue
		}
		if cerr := each(res); cerr != nil {
			return cerr
		}
	}
	return err
}

// locate fills in the script position of an error that has none, from its
// Near token or else the statement's start; errors without a kind become
// Internal errors so every error reports one.
func locate(err error, st parser.Statement) error {
	var ge *errs.Error
	if !errors.As(err, &ge) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return errs.Wrap(errs.Cancelled, err, "")
		}
		return errs.Wrap(errs.Internal, err, "")
	}
	if ge.Line == 0 && ge.Near != "" {
		ge.Line, ge.Col = parser.Locate(st, ge.Near)
	}
	return err
}
