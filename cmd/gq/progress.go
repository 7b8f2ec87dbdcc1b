package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"gq/engine"
	"gq/exec"
	gqmem "gq/memory"
)

// progressDelay is how long a query runs before its progress bar appears:
// short queries never flash one.
const progressDelay = time.Second

// startProgress draws a progress bar on w (a terminal) for the statements
// run under the returned context: file bytes scanned against the bytes the
// scans will read (rows against row counts for tables that are not files),
// redrawn every 100 ms once a statement has run for a second.
// reset (called before a result is printed) clears the bar and restarts
// the clock for the next statement; stop clears it for good.
func startProgress(ctx context.Context, w io.Writer) (context.Context, *progressBar) {
	pb := &progressBar{w: w, p: &exec.ScanProgress{}, start: time.Now(), quit: make(chan struct{}), done: make(chan struct{})}
	go pb.loop()
	return engine.WithScanProgress(ctx, pb.p), pb
}

type progressBar struct {
	w     io.Writer
	p     *exec.ScanProgress
	mu    sync.Mutex
	start time.Time
	shown bool
	quit  chan struct{}
	done  chan struct{}
}

func (pb *progressBar) loop() {
	defer close(pb.done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-pb.quit:
			return
		case <-t.C:
			pb.draw()
		}
	}
}

func (pb *progressBar) draw() {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	el := time.Since(pb.start)
	if el < progressDelay {
		return
	}
	line := progressLine(pb.p.Done.Load(), pb.p.Total.Load(), pb.p.InBytes.Load(), el)
	if line == "" {
		return
	}
	fmt.Fprint(pb.w, "\r"+line+"\x1b[K")
	pb.shown = true
}

// progressLine renders one state of the bar: percent, bar, amounts
// ("1.2 GiB / 3.4 GiB" or rows) and elapsed time; "" when the total is
// unknown. Scans can finish long before the query does (a join or sort
// still works): the bar stops at 99% until the result is there.
func progressLine(done, total int64, inBytes bool, el time.Duration) string {
	if total <= 0 {
		return ""
	}
	frac := min(float64(done)/float64(total), 0.99)
	const width = 30
	full := int(frac * width)
	amount := fmt.Sprintf("%d / %d rows", min(done, total), total)
	if inBytes {
		amount = gqmem.FormatBytes(min(done, total)) + " / " + gqmem.FormatBytes(total)
	}
	return fmt.Sprintf("%3.0f%% ▕%s%s▏ %s  %.1fs", frac*100, strings.Repeat("█", full), strings.Repeat(" ", width-full), amount, el.Seconds())
}

// reset clears the bar and starts counting the next statement afresh.
func (pb *progressBar) reset() {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	pb.clear()
	pb.p.Done.Store(0)
	pb.p.Total.Store(0)
	pb.start = time.Now()
}

func (pb *progressBar) clear() {
	if pb.shown {
		fmt.Fprint(pb.w, "\r\x1b[K")
		pb.shown = false
	}
}

// stop ends the bar and clears it.
func (pb *progressBar) stop() {
	close(pb.quit)
	<-pb.done
	pb.mu.Lock()
	pb.clear()
	pb.mu.Unlock()
}
