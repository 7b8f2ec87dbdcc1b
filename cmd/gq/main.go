package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/chzyer/readline"

	"gq/catalog"
	"gq/engine"
	"gq/format"
	gqmem "gq/memory"
	"gq/shuffle"
)

const version = "gq 0.1.0"

// Exit statuses.
const (
	exitQuery = 1 // a statement failed
	exitUsage = 2 // bad flags or arguments
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	defer startProfiles(stderr)()
	configureDevice()
	return runComm(args, stdin, stdout, stderr, nil)
}

// runComm is run as one rank of comm (nil: the communicator the
// launcher's environment describes; one rank without a launcher).
func runComm(args []string, stdin io.Reader, stdout, stderr io.Writer, comm shuffle.Communicator) int {
	if len(args) > 0 && args[0] == "gen" {
		return gen(args[1:], stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return serve(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("gq", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "directory whose NAME.parquet, NAME/*.parquet and NAME.csv files become tables")
	db := fs.String("db", getenv("GQ_DB"), "`DIR` where tables persist: its tables are attached like --data's, and CREATE TABLE, INSERT and DROP TABLE write and remove their Parquet files there (created if missing; env GQ_DB)")
	command := fs.String("c", "", "SQL to run")
	file := fs.String("f", "", "file of SQL to run")
	mode := fs.String("format", "", "output format: "+strings.Join(format.Modes, ", ")+" (default: table on a terminal, csv otherwise)")
	threads := fs.Int("threads", envInt("GQ_THREADS"), "worker threads (default: all cores; env GQ_THREADS)")
	batch := fs.Int("batch-size", envInt("GQ_BATCH_SIZE"), "rows per batch (default 65536)")
	timeout := fs.Duration("timeout", envDuration("GQ_TIMEOUT"), "cancel a script (or a REPL entry) still running after this long, e.g. 30s (env GQ_TIMEOUT; 0: none)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	device, fallback := deviceFlag(fs)
	rf := rankFlags(fs)
	mf := memFlags(fs)
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *showVersion {
		fmt.Fprintln(stdout, version)
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "Error: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *command != "" && *file != "" {
		fmt.Fprintln(stderr, "Error: give -c or -f, not both")
		return exitUsage
	}
	interactive := *command == "" && *file == "" && isTerminal(stdin)
	if *mode == "" {
		*mode = "csv"
		if isTerminal(stdout) {
			*mode = "table"
		}
	}
	if format.Writer(*mode) == nil {
		fmt.Fprintf(stderr, "Error: unknown format %q (want %s)\n", *mode, strings.Join(format.Modes, ", "))
		return exitUsage
	}
	if code := checkDevice(*device, stderr); code != 0 {
		return code
	}
	if rf.ranks > 1 && comm == nil {
		return localRanks(rf.ranks, rf.comm, args, stdin, stdout, stderr)
	}
	comm, code := rf.open(comm, stderr)
	if comm == nil {
		return code
	}
	defer comm.Close()
	if rf.clusterInfo {
		return clusterInfo(comm, stdout, stderr)
	}
	cat := catalog.New()
	if *data != "" {
		if err := cat.RegisterDir(*data); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return exitQuery
		}
	}
	if *db != "" {
		if _, err := cat.AttachStore(*db); err != nil {
			fmt.Fprintf(stderr, "Error: --db: %v\n", err)
			return exitQuery
		}
	}
	eopts := engine.Options{Threads: *threads, BatchSize: *batch, Comm: comm, ShuffleStats: rf.stats, Device: *device, FallbackMode: *fallback}
	if err := mf.apply(&eopts, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitUsage
	}
	eopts = eopts.WithEnv(lookupEnv)
	if !interactive {
		eopts.GPUColdRowsPerThread = coldRowsPerThread()
	}
	if rf.ranks <= 1 { // not when ranks share this process (each has the limit)
		defer gqmem.TieRuntimeLimit(eopts.MemoryLimit)()
	}
	budget := gqmem.HeapBudgetFor(cat.DataBytes())
	if !interactive {
		// One script, then exit: a heap grown to the full budget would
		// be faulted in for this run alone (gqmem.ScriptHeapBudget).
		budget = min(budget, gqmem.ScriptHeapBudget)
	}
	defer gqmem.PaceGC(budget)()
	sh := &shell{eng: engine.New(cat, eopts), mode: *mode, out: stdout, errOut: stderr, timeout: *timeout}
	defer mf.finish(sh.eng, stderr)
	rf.atExit(func() { sh.eng.Close() }) // a rank ended by a lost peer or SIGTERM removes its spill files too
	defer rf.report(comm, stderr)
	if comm.Rank() != 0 {
		sh.out = io.Discard // rank 0 alone prints results
	} else {
		sh.setTerminal(stdout, stderr, *device)
	}
	if interactive {
		return sh.repl()
	}
	sql := *command
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return exitQuery
		}
		sql = string(b)
	} else if sql == "" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return exitQuery
		}
		sql = string(b)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !sh.exec(ctx, sql) {
		return exitQuery
	}
	return 0
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && readline.IsTerminal(int(file.Fd()))
}
