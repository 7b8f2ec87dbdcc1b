package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"gq/shuffle"
)

// rankOptions are the SPMD flags: --ranks N runs N ranks as goroutines
// over the local backend (a debugging aid: one process, one output);
// --comm picks the backend under a launcher (rrun, mpirun, srun).
type rankOptions struct {
	ranks       int
	comm        string
	clusterInfo bool
	showStats   bool
	stats       *shuffle.Statistics

	exitMu    sync.Mutex
	exitHooks []func() // run before the rank ends itself (see watch)
}

// lostGrace is how long a rank that lost a peer lets the statement it is
// running fail by itself (and exit through the usual path, reporting its
// own error and cleaning up) before it ends the process itself.
const lostGrace = 2 * time.Second

func rankFlags(fs *flag.FlagSet) *rankOptions {
	o := &rankOptions{}
	fs.IntVar(&o.ranks, "ranks", 0, "run N ranks in this process over the local communicator, or loopback tcp with --comm tcp (debugging)")
	fs.StringVar(&o.comm, "comm", getenv("GQ_COMM"), "communicator backend under a launcher: tcp, ucx (a build with -tags ucx) or local (env GQ_COMM)")
	fs.BoolVar(&o.clusterInfo, "cluster-info", false, "print each rank's host, pid and GPU, then exit")
	fs.BoolVar(&o.showStats, "shuffle-stats", false, "print this rank's shuffle statistics to stderr at exit")
	return o
}

// open returns comm, or joins the job the environment describes. In a
// multi-process job, a lost peer or the launcher's SIGTERM ends this
// process in bounded time, even while it waits for input (see watch).
func (o *rankOptions) open(comm shuffle.Communicator, stderr io.Writer) (shuffle.Communicator, int) {
	if o.showStats {
		o.stats = shuffle.NewStatistics()
	}
	if comm != nil {
		return comm, 0
	}
	if getenv("RRUN_RANK") != "" {
		o.watchLauncher(stderr)
	}
	c, err := shuffle.FromEnv(o.comm, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return nil, exitQuery
	}
	if c.NRanks() > 1 {
		o.watch(c, stderr)
	}
	return c, 0
}

// atExit registers f (e.g. removing the spill directory) to run before
// the rank ends itself; main's deferred clean-up is skipped then.
func (o *rankOptions) atExit(f func()) {
	o.exitMu.Lock()
	defer o.exitMu.Unlock()
	o.exitHooks = append(o.exitHooks, f)
}

// exit runs the exit hooks once and ends the process.
func (o *rankOptions) exit(code int) {
	o.exitMu.Lock()
	hooks := o.exitHooks
	o.exitHooks = nil
	for _, f := range hooks {
		f()
	}
	os.Exit(code)
}

// watch ends this rank of a multi-process job when the job is over for
// it: on SIGTERM or SIGHUP (a launcher stopping the job: rrun, mpirun
// and srun all send SIGTERM first) at once, and when a peer is lost
// after lostGrace, unless the running statement fails by itself first;
// an idle rank (waiting for input) never would. Either way the exit
// hooks run, so no spill file outlives the rank.
func (o *rankOptions) watch(c shuffle.Communicator, stderr io.Writer) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-sigs:
			o.exit(128 + int(s.(syscall.Signal)))
		case <-c.Failed():
		}
		err := c.Err()
		if err == nil || strings.Contains(err.Error(), "communicator closed") {
			return // main is exiting
		}
		select {
		case <-time.After(lostGrace):
		case <-sigs:
		}
		fmt.Fprintf(stderr, "Error: rank %d: %v\n", c.Rank(), err)
		o.exit(exitQuery)
	}()
}

// launcherPoll is how often a rank under rrun checks that its launcher
// is still there.
const launcherPoll = 200 * time.Millisecond

// watchLauncher ends this rank when the rrun that started it is gone. rrun
// has the kernel kill its ranks when it dies (a parent-death signal), but
// that reaches only its own children: a gq that a rank's shell script
// started is reparented instead, and would run on (a gq serve rank would
// go on answering for a job that is gone). Three signs, any one enough:
// the kernel's parent-death signal (the shell died), the parent process id
// changing, and rrun's own process (RRUN_PID) gone — the only sign left to
// a rank that starts after its launcher died, whose parent was gone before
// it could look, which is why the first check is at once.
func (o *rankOptions) watchLauncher(stderr io.Writer) {
	parent := os.Getppid()
	askParentDeathSignal()
	launcher, _ := strconv.Atoi(getenv("RRUN_PID"))
	go func() {
		tick := time.NewTicker(launcherPoll)
		defer tick.Stop()
		for ; ; <-tick.C {
			if os.Getppid() != parent || (launcher > 0 && !processAlive(launcher)) {
				fmt.Fprintf(stderr, "Error: rank %s: its launcher is gone; ending\n", getenv("RRUN_RANK"))
				o.exit(exitQuery)
			}
		}
	}()
}

func (o *rankOptions) report(comm shuffle.Communicator, stderr io.Writer) {
	if o.stats != nil {
		fmt.Fprintf(stderr, "shuffle statistics, rank %d of %d:\n%s", comm.Rank(), comm.NRanks(), o.stats.Report())
	}
}

// inProcessComms connects n ranks inside this process: over the local
// backend, or over loopback TCP with --comm tcp (to debug that backend
// without a launcher). kill(r) fails the job as if rank r had died.
func inProcessComms(n int, backend string) ([]shuffle.Communicator, func(int), error) {
	out := make([]shuffle.Communicator, n)
	switch backend {
	case "", "local":
		locals := shuffle.NewLocal(n)
		for r, c := range locals {
			out[r] = c
		}
		return out, func(r int) { locals[r].Kill() }, nil
	case "tcp":
		tcps, err := shuffle.LoopbackTCP(n, shuffle.TCPOptions{})
		if err != nil {
			return nil, nil, err
		}
		for r, c := range tcps {
			out[r] = c
		}
		return out, func(r int) { tcps[r].Abort() }, nil
	}
	return nil, nil, fmt.Errorf("unknown communicator backend %q (want local or tcp)", backend)
}

// localRanks runs the same command as n goroutine ranks of one process.
// Each rank reads the same script (stdin is read once and replayed);
// rank 0 prints results, every rank its errors (prefixed by its rank).
// The exit status is the first non-zero rank status.
func localRanks(n int, comm string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var input []byte
	if !isTerminal(stdin) {
		input, _ = io.ReadAll(stdin)
	}
	comms, kill, err := inProcessComms(n, comm)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitQuery
	}
	codes := make([]int, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ew := &prefixWriter{mu: &mu, w: stderr, prefix: fmt.Sprintf("[rank %d] ", r)}
			codes[r] = runComm(args, bytes.NewReader(input), stdout, ew, comms[r])
			if codes[r] != 0 {
				// A rank that gave up ends the job, like a dead process.
				kill(r)
			}
		}()
	}
	wg.Wait()
	for _, c := range codes {
		if c != 0 {
			return c
		}
	}
	return 0
}

// prefixWriter prefixes every line with the rank.
type prefixWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line != "" {
			io.WriteString(p.w, p.prefix+line)
		}
	}
	return len(b), nil
}

// clusterInfo gathers each rank's host, pid and GPU on rank 0, which
// prints them (rapidsmpf's gather_cluster_info).
func clusterInfo(comm shuffle.Communicator, stdout, stderr io.Writer) int {
	host, _ := os.Hostname()
	gpu := getenv("CUDA_VISIBLE_DEVICES")
	if gpu == "" {
		gpu = "-"
	}
	mine := fmt.Sprintf("%d,%s,%d,%s,%s", comm.Rank(), host, os.Getpid(), gpu, comm.Backend())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	all, err := shuffle.Gather(ctx, comm, 1, 0, []byte(mine))
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitQuery
	}
	if comm.Rank() == 0 {
		fmt.Fprintln(stdout, "rank,host,pid,gpu,comm")
		for _, line := range all {
			fmt.Fprintln(stdout, string(line))
		}
	}
	return 0
}
