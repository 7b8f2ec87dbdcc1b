package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts what the environment asks for: GQ_CPUPROFILE=FILE
// a CPU profile, GQ_TRACE=FILE an execution trace (where a one-shot run's
// wall time goes: waits on the device, reads, page faults — what a CPU
// profile does not show), GQ_MEMPROFILE=FILE a heap profile written at
// exit (its alloc_space view: what a run allocates, by call site). The
// returned func stops them.
func startProfiles(stderr io.Writer) (stop func()) {
	var stops []func()
	if p := os.Getenv("GQ_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := os.Getenv("GQ_TRACE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_TRACE: %v\n", err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(stderr, "gq: GQ_TRACE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if p := os.Getenv("GQ_MEMPROFILE"); p != "" {
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
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
