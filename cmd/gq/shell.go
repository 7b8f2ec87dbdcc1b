package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/chzyer/readline"

	"gq/engine"
	"gq/format"
)

// shell runs scripts and prints results and errors; the REPL's dot
// commands change its settings.
type shell struct {
	eng    *engine.Engine
	mode   string // a format.Modes name
	timer  bool
	stats  bool
	out    io.Writer // results, unless redirected
	errOut io.Writer // errors, timings, progress

	// maxRows > 0 shows long table results as head and tail; 0 shows all.
	maxRows int
	// width returns the terminal width for table output (0: unlimited).
	width func() int
	// redirect, when set by .output or .once, receives results instead of
	// out; once closes it after the next statement.
	redirect io.WriteCloser
	once     bool
	// progress shows a progress bar on errOut for long queries (set when
	// errOut is a terminal).
	progress bool
	bar      *progressBar // while a script runs with progress
	device   string       // cpu, gpu or auto
	// timeout > 0 limits each exec (a -c/-f script, one REPL entry):
	// past it the context is cancelled and every operator stops.
	timeout time.Duration
}

// results is where result rows go now.
func (s *shell) results() io.Writer {
	if s.redirect != nil {
		return s.redirect
	}
	return s.out
}

// exec runs a script, printing each result as it completes; it reports
// whether every statement succeeded.
func (s *shell) exec(ctx context.Context, sql string) bool {
	start := time.Now()
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	if s.progress {
		var pb *progressBar
		ctx, pb = startProgress(ctx, s.errOut)
		defer pb.stop()
		s.bar = pb
		defer func() { s.bar = nil }()
	}
	var rows, batches int64
	var reports []string
	err := s.eng.ExecStream(ctx, sql, func(r *engine.Stream) error {
		n, b, err := s.print(r)
		rows, batches = rows+n, batches+b
		if err == nil && r.Err() == nil && s.stats && r.Stats != nil {
			reports = append(reports, r.Stats.Report())
		}
		return err
	})
	if s.bar != nil {
		s.bar.reset()
	}
	if s.once {
		s.closeRedirect()
	}
	elapsed := time.Since(start)
	if err != nil {
		s.printError(sql, err)
	}
	if s.timer {
		fmt.Fprintf(s.errOut, "Run Time: %.3fs\n", elapsed.Seconds())
	}
	if s.stats {
		fmt.Fprintf(s.errOut, "Stats: %d rows in %d batches, %.3fs\n", rows, batches, elapsed.Seconds())
		for _, r := range reports {
			fmt.Fprint(s.errOut, r)
		}
	}
	return err == nil
}

// print writes one result in the current mode as its batches arrive, and
// counts its rows and batches. Plan text (EXPLAIN) is printed as is in
// table mode, where boxing it would escape its newlines. Output is held
// back until it passes holdBytes, so that a query failing early shows
// nothing partial while a large result streams; a failed query's held
// output is dropped and its writer not closed (no closing bracket or row
// count makes a partial result look whole).
func (s *shell) print(r *engine.Stream) (rows, batches int64, err error) {
	out := &heldWriter{w: s.results()}
	if s.bar != nil {
		// The bar shows the query's progress until its output appears.
		out.before = s.bar.reset
	}
	var rw format.RowWriter
	if s.mode == "table" && engine.IsExplain(r.Schema) {
		rw = &planWriter{w: out}
	} else {
		// A file gets the whole result; the screen gets what fits.
		var opts format.Options
		if s.redirect == nil {
			opts.MaxRows = s.maxRows
			if s.width != nil {
				opts.MaxWidth = s.width()
			}
		}
		rw = format.NewRowWriter(s.mode, out, r.Schema, opts)
	}
	for {
		b, ok := r.Next()
		if !ok {
			break
		}
		rows += b.NumRows()
		batches++
		err = rw.Write(b)
		b.Release()
		if err != nil {
			return rows, batches, err
		}
	}
	if r.Err() != nil {
		return rows, batches, nil // ExecStream reports it
	}
	if err := rw.Close(); err != nil {
		return rows, batches, err
	}
	return rows, batches, out.flush()
}

// holdBytes is how much output a result may produce before it is written
// through, failure or not.
const holdBytes = 1 << 20

// heldWriter keeps what is written until it passes holdBytes, then writes
// everything through.
type heldWriter struct {
	w       io.Writer
	held    bytes.Buffer
	through bool
	before  func() // called once, before the first bytes reach w
}

func (h *heldWriter) Write(p []byte) (int, error) {
	if h.through {
		return h.w.Write(p)
	}
	h.held.Write(p)
	if h.held.Len() < holdBytes {
		return len(p), nil
	}
	h.through = true
	return len(p), h.flush()
}

// flush writes what is held.
func (h *heldWriter) flush() error {
	if h.before != nil {
		h.before()
		h.before = nil
	}
	_, err := h.w.Write(h.held.Bytes())
	h.held = bytes.Buffer{}
	return err
}

// planWriter writes an EXPLAIN result's one column line by line.
type planWriter struct{ w io.Writer }

func (p *planWriter) Write(b arrow.RecordBatch) error {
	for i := range int(b.NumRows()) {
		if _, err := fmt.Fprintln(p.w, format.Value(b.Column(0), i)); err != nil {
			return err
		}
	}
	return nil
}

func (p *planWriter) Close() error { return nil }

func (s *shell) closeRedirect() {
	if s.redirect != nil {
		if err := s.redirect.Close(); err != nil {
			fmt.Fprintf(s.errOut, "Error: %v\n", err)
		}
	}
	s.redirect, s.once = nil, false
}

// terminalWidth returns a function reporting f's current width in columns
// (it follows window resizes), or nil when f is not a terminal.
func terminalWidth(f any) func() int {
	file, ok := f.(*os.File)
	if !ok || !isTerminal(file) {
		return nil
	}
	return func() int {
		w, _, err := readline.GetSize(int(file.Fd()))
		if err != nil || w <= 0 {
			return 0
		}
		return w
	}
}

// defaultMaxRows is how many rows a terminal shows of a long table result
// (DuckDB's default): the first and last 20.
const defaultMaxRows = 40

// setTerminal adapts the shell to where its output goes: on a terminal,
// tables fit its width and long results show head and tail; progress bars
// appear only when stderr is a terminal, never in pipes or files.
func (s *shell) setTerminal(stdout, stderr any, device string) {
	if s.width = terminalWidth(stdout); s.width != nil {
		s.maxRows = defaultMaxRows
	}
	s.progress = isTerminal(stderr)
	s.device = device
}
