package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gq/shuffle"
)

// grace is how long ranks get to exit after SIGTERM before SIGKILL.
const grace = 3 * time.Second

// peerGrace is how long the other ranks get, after one rank failed, to
// notice it and exit by themselves (gq's ranks do within milliseconds,
// each naming the lost rank) before rrun sends them SIGTERM.
const peerGrace = 2 * time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type envList []string

func (e *envList) String() string { return strings.Join(*e, ",") }
func (e *envList) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("-x wants VAR=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

type options struct {
	n         int
	gpus      []string
	env       envList
	tagOutput bool
	bindTo    string
	cmd       []string
}

func parse(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("rrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	fs.IntVar(&o.n, "n", 1, "number of ranks")
	gpus := fs.String("g", "", "comma-separated GPU ids, one per rank (round-robin), set as CUDA_VISIBLE_DEVICES")
	fs.Var(&o.env, "x", "VAR=VALUE to set in every rank's environment (repeatable)")
	fs.BoolVar(&o.tagOutput, "tag-output", false, "prefix every output line with [rank]")
	fs.StringVar(&o.bindTo, "bind-to", "none", "bind each rank to a CPU core (core), a NUMA node (numa) or nothing (none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rrun -n N [-g GPUS] [-x VAR=VALUE]... [--tag-output] [--bind-to core|numa|none] COMMAND [ARGS...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.n < 1 || o.n > shuffle.MaxRanks {
		return nil, fmt.Errorf("-n must be between 1 and %d (the most ranks a job may have), got %d", shuffle.MaxRanks, o.n)
	}
	if *gpus != "" {
		o.gpus = strings.Split(*gpus, ",")
	}
	switch o.bindTo {
	case "none", "core", "numa":
	default:
		return nil, fmt.Errorf("--bind-to %q: want core, numa or none", o.bindTo)
	}
	o.cmd = fs.Args()
	if len(o.cmd) == 0 {
		fs.Usage()
		return nil, errors.New("no command to run")
	}
	return o, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "rrun: %v\n", err)
		return 2
	}
	coord, err := os.MkdirTemp("", "rrun-coord-")
	if err != nil {
		fmt.Fprintf(stderr, "rrun: %v\n", err)
		return 1
	}
	defer os.RemoveAll(coord)
	j := &job{o: o, stdout: stdout, stderr: stderr, secret: shuffle.NewJobSecret()}
	return j.run(coord, stdin)
}

// job is one launch: the ranks' processes and their fate.
type job struct {
	o      *options
	stdout io.Writer
	stderr io.Writer
	outMu  sync.Mutex
	procs  []*exec.Cmd
	// secret is the job's, handed to every rank in RRUN_JOB_SECRET (the
	// environment, which only this user can read, never the command
	// line): the ranks' connections prove it (see shuffle's auth.go).
	secret string
}

type exit struct {
	rank int
	err  error
}

func (j *job) run(coord string, stdin io.Reader) int {
	// Each rank gets SIGKILL when rrun dies (Pdeathsig), even by kill -9,
	// which no forwarding can catch: an orphaned rank (a gq serve rank
	// still answering) is worse than a killed one. The kernel ties that
	// signal to the thread that forked, not to the process: every rank is
	// forked from this goroutine's thread, held for as long as any rank
	// runs, so a thread the Go runtime retires cannot kill a rank early.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)

	exits := make(chan exit, j.o.n)
	var stdins []io.WriteCloser
	var flushers []*lineWriter
	for r := range j.o.n {
		cmd := exec.Command(j.o.cmd[0], j.o.cmd[1:]...)
		cmd.Env = j.env(r, coord)
		// Own process group: a terminal's Ctrl-C reaches the ranks once,
		// through rrun's forwarding. Pdeathsig: see above.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		// A descendant that outlives the rank must not hold rrun up by
		// keeping its output open.
		cmd.WaitDelay = time.Second
		in, err := cmd.StdinPipe()
		if err != nil {
			return j.abort(fmt.Errorf("rank %d: %v", r, err))
		}
		stdins = append(stdins, in)
		j.wireOutput(cmd, r, &flushers)
		bindErr, err := startBound(cmd, j.o.bindTo, r)
		if err != nil {
			return j.abort(fmt.Errorf("rank %d: %v", r, err))
		}
		if bindErr != nil {
			fmt.Fprintf(j.stderr, "rrun: rank %d: --bind-to %s not applied: %v\n", r, j.o.bindTo, bindErr)
		}
		j.procs = append(j.procs, cmd)
		go func() { exits <- exit{r, cmd.Wait()} }()
	}
	go copyStdin(stdin, stdins)

	status := 0
	running := j.o.n
	var termTimer, killTimer <-chan time.Time
	stopping := false
	stop := func() {
		if stopping {
			return
		}
		stopping = true
		termTimer = time.After(peerGrace)
	}
	for running > 0 {
		select {
		case e := <-exits:
			running--
			if code := exitCode(e.err); code != 0 {
				if status == 0 {
					status = code
					if !stopping {
						fmt.Fprintf(j.stderr, "rrun: rank %d %s; stopping the other ranks\n", e.rank, describe(e.err))
					}
				}
				stop()
			}
		case <-termTimer:
			j.signalAll(syscall.SIGTERM)
			termTimer, killTimer = nil, time.After(grace)
		case s := <-sigs:
			j.signalAll(s.(syscall.Signal))
			if status == 0 {
				status = 128 + int(s.(syscall.Signal))
			}
			if !stopping {
				stopping = true
				killTimer = time.After(grace)
			} else if termTimer != nil {
				termTimer, killTimer = nil, time.After(grace)
			}
		case <-killTimer:
			j.signalAll(syscall.SIGKILL)
			killTimer = nil
		}
	}
	for _, f := range flushers {
		f.flush()
	}
	return status
}

// env is rank r's environment: rrun's, the rank variables, -g, the spill
// directory and -x.
func (j *job) env(r int, coord string) []string {
	env := append(os.Environ(),
		"RRUN_RANK="+strconv.Itoa(r),
		"RRUN_PID="+strconv.Itoa(os.Getpid()),
		"RRUN_NRANKS="+strconv.Itoa(j.o.n),
		"RRUN_COORD_DIR="+coord,
		"RRUN_JOB_SECRET="+j.secret,
	)
	if len(j.o.gpus) > 0 {
		env = append(env, "CUDA_VISIBLE_DEVICES="+j.o.gpus[r%len(j.o.gpus)])
	}
	if os.Getenv("GQ_SPILL_DIR") == "" {
		// Spill inside the job's directory, which rrun removes at the
		// end: a rank killed by a signal cannot remove its own spill
		// files. (-x GQ_SPILL_DIR=... still wins: later values do.)
		env = append(env, "GQ_SPILL_DIR="+filepath.Join(coord, fmt.Sprintf("spill-rank-%d", r)))
	}
	return append(env, j.o.env...)
}

// wireOutput connects a rank's stdout and stderr: straight through, or
// line by line with a "[rank] " prefix under --tag-output. (Writers, not
// pipes: exec's copying goroutines then finish before Wait returns, so
// no output is lost.)
func (j *job) wireOutput(cmd *exec.Cmd, r int, flushers *[]*lineWriter) {
	if !j.o.tagOutput {
		cmd.Stdout, cmd.Stderr = j.stdout, j.stderr
		return
	}
	out := &lineWriter{mu: &j.outMu, w: j.stdout, prefix: fmt.Sprintf("[%d] ", r)}
	errw := &lineWriter{mu: &j.outMu, w: j.stderr, prefix: out.prefix}
	cmd.Stdout, cmd.Stderr = out, errw
	*flushers = append(*flushers, out, errw)
}

// lineWriter writes whole lines, each with a prefix, keeping a partial
// last line until it is completed or flushed.
type lineWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.emit(l.buf[:i+1])
		l.buf = l.buf[i+1:]
	}
	return len(b), nil
}

func (l *lineWriter) emit(line []byte) {
	l.mu.Lock()
	io.WriteString(l.w, l.prefix)
	l.w.Write(line)
	l.mu.Unlock()
}

// flush writes a last line that had no newline.
func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.emit(append(l.buf, '\n'))
		l.buf = nil
	}
}

// signalAll signals every rank's process group (each rank leads its
// own), so children a rank started get the signal too, as from a
// terminal.
func (j *job) signalAll(s syscall.Signal) {
	for _, p := range j.procs {
		if p.Process != nil {
			syscall.Kill(-p.Process.Pid, s)
		}
	}
}

// abort ends a launch that failed to start every rank.
func (j *job) abort(err error) int {
	fmt.Fprintf(j.stderr, "rrun: %v\n", err)
	for _, p := range j.procs {
		p.Process.Kill()
		p.Wait()
	}
	return 1
}

// copyStdin copies rrun's standard input to every rank, then closes
// theirs.
func copyStdin(stdin io.Reader, to []io.WriteCloser) {
	defer func() {
		for _, w := range to {
			w.Close()
		}
	}()
	if stdin == nil {
		return
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := stdin.Read(buf)
		for _, w := range to {
			w.Write(buf[:n]) // a rank that exited just stops listening
		}
		if err != nil {
			return
		}
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		if c := ee.ExitCode(); c > 0 {
			return c
		}
	}
	return 1
}

func describe(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// The signal's name (SIGKILL), not its description
			// ("killed"), which read "was killed by killed".
			name := unix.SignalName(ws.Signal())
			if name == "" {
				name = strconv.Itoa(int(ws.Signal()))
			}
			return "was killed by signal " + name
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	return "failed: " + err.Error()
}
