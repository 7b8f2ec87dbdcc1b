package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"gq/benchmarks/tpch"
)

const genUsage = "usage: gq gen tpch --sf 0.1 --out DIR [--jobs N]"

// gen implements "gq gen tpch --sf SF --out DIR [--jobs N]".
//
// dbgen keeps its state in package globals, so one process generates on one
// core. With --jobs N > 1 gq runs N copies of itself, each writing a
// contiguous part of every table that grows with SF (NAME/part-PPP.parquet;
// region and nation stay single files), into a staging folder inside DIR
// that is moved into place only when every part is written: a failed or
// interrupted run never leaves a table with parts missing.
func gen(args []string, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "tpch" {
		fmt.Fprintln(stderr, genUsage)
		return exitUsage
	}
	fs := flag.NewFlagSet("gq gen tpch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := fs.Float64("sf", 0.1, "scale factor")
	out := fs.String("out", "", "output directory")
	jobs := fs.Int("jobs", runtime.NumCPU(), "processes generating at once; 1 writes each table as one file")
	part := fs.Int("part", -1, "internal: the part this process writes (with --parts)")
	parts := fs.Int("parts", 0, "internal: the number of parts")
	if err := fs.Parse(args[1:]); err != nil {
		return exitUsage
	}
	if *out == "" || fs.NArg() > 0 || *jobs < 1 {
		fmt.Fprintln(stderr, genUsage)
		return exitUsage
	}
	var err error
	switch {
	case *parts > 0:
		err = tpch.GeneratePart(*sf, *out, *part, *parts)
	case *jobs == 1 || *sf < 1:
		// Below SF 1 the tables are small enough that one file each
		// is what tests and users expect, and start-up would dominate.
		err = tpch.Generate(*sf, *out)
	default:
		err = genParallel(*sf, *out, *jobs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitQuery
	}
	return 0
}

// genParallel runs jobs processes of gq gen tpch --part i --parts jobs into
// a staging folder and moves the tables into out when all have finished.
func genParallel(sf float64, out string, jobs int) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("gen: cannot find gq's own binary to run parts: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(out, ".gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for i := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var msg bytes.Buffer
			cmd := exec.CommandContext(ctx, self, "gen", "tpch", "--sf", strconv.FormatFloat(sf, 'g', -1, 64),
				"--out", stage, "--part", strconv.Itoa(i), "--parts", strconv.Itoa(jobs))
			cmd.Stdout, cmd.Stderr = io.Discard, &msg
			if err := cmd.Run(); err != nil {
				mu.Lock()
				if first == nil && ctx.Err() == nil {
					first = fmt.Errorf("gen: part %d of %d: %v: %s", i, jobs, err, strings.TrimSpace(msg.String()))
				}
				mu.Unlock()
				cancel() // one part failed: the others are of no use
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".parquet")
		// Replace the table in either form an earlier run left it.
		for _, old := range []string{filepath.Join(out, name), filepath.Join(out, name+".parquet")} {
			if err := os.RemoveAll(old); err != nil {
				return err
			}
		}
		if err := os.Rename(filepath.Join(stage, e.Name()), filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
