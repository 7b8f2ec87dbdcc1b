package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// profileGQ runs the queries in gq only, in this process, reps times each,
// under a CPU profile when path is set, and prints the median times.
func profileGQ(data, queries string, threads, reps int, nums []int, path string) error {
	run, err := gqRunner(data, threads)
	if err != nil {
		return err
	}
	sqls := make([]string, len(nums))
	for i, n := range nums {
		b, err := os.ReadFile(filepath.Join(queries, fmt.Sprintf("q%02d.sql", n)))
		if err != nil {
			return err
		}
		sqls[i] = string(b)
	}
	if os.Getenv("GQ_BENCH_HOT") == "1" {
		// Hot runs: one untimed pass first, so that the profile and the
		// trace hold the timed runs only (not the device's set-up, kernel
		// compiles and first loads into its table cache).
		for i, n := range nums {
			if err := run(context.Background(), sqls[i], io.Discard); err != nil {
				return fmt.Errorf("q%02d: %w", n, err)
			}
		}
	}
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if p := os.Getenv("GQ_TRACE"); p != "" { // an execution trace: where goroutines wait (go tool trace -pprof=syscall)
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	var total float64
	for i, n := range nums {
		var ms []float64
		for range reps {
			var buf bytes.Buffer
			start := time.Now()
			if err := run(context.Background(), sqls[i], &buf); err != nil {
				return fmt.Errorf("q%02d: %w", n, err)
			}
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		}
		total += median(ms)
		fmt.Printf("q%02d gq median %.1f ms\n", n, median(ms))
	}
	fmt.Printf("total gq %.1f ms\n", total)
	if p := os.Getenv("GQ_MEMPROFILE"); p != "" { // allocation profile of the runs
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}
