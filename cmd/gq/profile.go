package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// startProfiles starts what the environment asks for: GQ_CPUPROFILE=FILE
// a CPU profile, GQ_TRACE=FILE an execution trace (where a one-shot run's
// wall time goes: waits on the device, reads, page faults — what a CPU
// profile does not show), GQ_MEMPROFILE=FILE a heap profile written at
// exit (its alloc_space view: what a run allocates, by call site),
// GQ_PEAKHEAPPROFILE=FILE the heap profile taken when the live heap was at
// its largest (its inuse_space view: what holds the peak, which an exit
// profile, taken after the tables are freed, cannot show). The returned
// func stops them.
func startProfiles(stderr io.Writer) (stop func()) {
	var stops []func()
	if p := getenv("GQ_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := getenv("GQ_TRACE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_TRACE: %v\n", err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_TRACE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if p := getenv("GQ_MEMPROFILE"); p != "" {
		stops = append(stops, func() {
			runtime.GC() // the profile is as of the last collection
			f, err := os.Create(p)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "gq: GQ_MEMPROFILE: %v\n", err)
			}
		})
	}
	if p := getenv("GQ_PEAKHEAPPROFILE"); p != "" {
		stops = append(stops, peakHeapProfile(p, stderr))
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// peakHeapProfile watches the live heap after each collection and keeps
// the heap profile of the largest one seen; the returned func writes it to
// path. The heap profile is as of the last completed collection, so a
// larger live heap means a profile of a later, larger state.
func peakHeapProfile(path string, stderr io.Writer) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	var best bytes.Buffer
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > peak+peak/32 {
				peak = live
				best.Reset()
				if err := pprof.Lookup("heap").WriteTo(&best, 0); err != nil {
					fmt.Fprintf(stderr, "gq: GQ_PEAKHEAPPROFILE: %v\n", err)
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		if err := os.WriteFile(path, best.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_PEAKHEAPPROFILE: %v\n", err)
		}
	}
}
