package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gq/benchmarks/tpch"
)

// buildBinaries builds gq and rrun into a temporary directory once per
// test binary.
var buildOnce struct {
	sync.Once
	dir string
	err error
	out []byte
}

func binaries(t *testing.T) (gq, rrun string) {
	t.Helper()
	if testing.Short() {
		t.Skip("multi-process tests skipped under -short")
	}
	buildOnce.Do(func() {
		buildOnce.dir, buildOnce.err = os.MkdirTemp("", "rrun-test-bin-")
		if buildOnce.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", buildOnce.dir, "gq/cmd/gq", "gq/cmd/rrun")
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("building gq and rrun: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return filepath.Join(buildOnce.dir, "gq"), filepath.Join(buildOnce.dir, "rrun")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildOnce.dir != "" {
		os.RemoveAll(buildOnce.dir)
	}
	os.Exit(code)
}

// tpchData is the SF 0.1 data shared with the engine tests (generated
// when absent).
func tpchData(t *testing.T) string {
	t.Helper()
	dir := "../../data/tpch-sf0.1"
	if err := tpch.EnsureGenerated(0.1, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRRunTPCHQ05 runs q05 on three gq processes over tcp, launched by
// rrun, and compares rank 0's output with the expected answer.
func TestRRunTPCHQ05(t *testing.T) {
	gq, rrun := binaries(t)
	data := tpchData(t)
	cmd := exec.Command(rrun, "-n", "3", "-x", "GQ_THREADS=2", gq, "--data", data, "--format", "csv",
		"-f", "../../testdata/tpch/queries/q05.sql")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("rrun: %v\n%s", err, stderr.String())
	}
	t.Logf("rrun -n 3 q05 over tcp: %v", time.Since(start))
	want, err := os.ReadFile("../../testdata/tpch/sf0.1/q05.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := tpch.CompareCSV(stdout.Bytes(), want, true); err != nil {
		t.Errorf("%v\ngot:\n%s", err, stdout.String())
	}
}

// TestRRunEndsJobWhenARankFails: one rank exiting non-zero makes rrun
// stop the others (which would sleep for a minute) and exit with its
// status, and --tag-output prefixes each line with the rank.
func TestRRunEndsJobWhenARankFails(t *testing.T) {
	_, rrun := binaries(t)
	cmd := exec.Command(rrun, "-n", "3", "--tag-output", "-x", "FAIL_RANK=1", "sh", "-c",
		`echo "up $RRUN_RANK/$RRUN_NRANKS"; if [ "$RRUN_RANK" = "$FAIL_RANK" ]; then exit 3; fi; exec sleep 60`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("rrun: %v, want exit status 3\n%s", err, stderr.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("rrun took %v to end the job", d)
	}
	if !strings.Contains(stdout.String(), "[1] up 1/3") || !strings.Contains(stderr.String(), "rank 1 exited with status 3") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

// startRank starts gq as rank r of n over tcp, coordinating in dir, with
// its standard input left open (so it waits after connecting).
func startRank(t *testing.T, gq, dir string, r, n int, timeout string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(gq, "--format", "csv")
	cmd.Env = append(os.Environ(), "RRUN_RANK="+strconv.Itoa(r), "RRUN_NRANKS="+strconv.Itoa(n),
		"RRUN_COORD_DIR="+dir, "GQ_COMM_TIMEOUT="+timeout)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stderr
}

// waitExit waits up to d for cmd to exit and returns its exit status
// (-1: still running).
func waitExit(cmd *exec.Cmd, d time.Duration) int {
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// TestKilledRank: kill -9 of rank 2 makes ranks 0 and 1 exit non-zero,
// naming rank 2, within 10 s.
func TestKilledRank(t *testing.T) {
	gq, _ := binaries(t)
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var errs []*bytes.Buffer
	for r := range 3 {
		c, e := startRank(t, gq, dir, r, 3, "10s")
		cmds, errs = append(cmds, c), append(errs, e)
	}
	// Wait until every rank has published its address, then give the
	// mesh a moment to connect.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		m, _ := filepath.Glob(filepath.Join(dir, "rank-*.addr"))
		if len(m) == 3 || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmds[2].Process.Kill()
	for r := range 2 {
		code := waitExit(cmds[r], 10*time.Second-time.Since(start))
		if code <= 0 {
			t.Errorf("rank %d: exit status %d 10s after rank 2 was killed", r, code)
		}
		if !strings.Contains(errs[r].String(), "rank 2") {
			t.Errorf("rank %d's error does not name rank 2: %q", r, errs[r].String())
		}
	}
	t.Logf("ranks ended %v after the kill: %q", time.Since(start), errs[0].String())
}

// TestRankNeverStarts: ranks 0 and 1 of 3 fail with a timeout naming
// rank 2, which never starts.
func TestRankNeverStarts(t *testing.T) {
	gq, _ := binaries(t)
	dir := t.TempDir()
	for r := range 2 {
		cmd, stderr := startRank(t, gq, dir, r, 3, "1s")
		if code := waitExit(cmd, 10*time.Second); code <= 0 {
			t.Fatalf("rank %d: exit status %d", r, code)
		}
		if s := stderr.String(); !strings.Contains(s, "timed out") || !strings.Contains(s, "2") {
			t.Errorf("rank %d: %q, want a timeout naming rank 2", r, s)
		}
	}
}

// TestRRunGPUsAndEnv: -g hands out one GPU per rank, round-robin, and -x
// sets variables in every rank.
func TestRRunGPUsAndEnv(t *testing.T) {
	_, rrun := binaries(t)
	out, err := exec.Command(rrun, "-n", "3", "-g", "4,7", "-x", "GREETING=hi", "--tag-output", "sh", "-c",
		`echo "$GREETING gpu=$CUDA_VISIBLE_DEVICES"`).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[0] hi gpu=4", "[1] hi gpu=7", "[2] hi gpu=4"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRRunForwardsSignals: SIGTERM to rrun reaches every rank (which exit
// 7 on it here) and rrun exits non-zero promptly.
func TestRRunForwardsSignals(t *testing.T) {
	_, rrun := binaries(t)
	cmd := exec.Command(rrun, "-n", "2", "--tag-output", "sh", "-c", `trap "echo got-term; exit 7" TERM; echo ready; sleep 60 & wait`)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(stdout.String(), "ready") < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	code := waitExit(cmd, 10*time.Second)
	if code <= 0 {
		t.Fatalf("rrun exit status %d after SIGTERM", code)
	}
	if n := strings.Count(stdout.String(), "got-term"); n != 2 {
		t.Errorf("%d ranks saw SIGTERM, want 2:\n%s", n, stdout.String())
	}
}

// TestRRunBindToCore: --bind-to core pins rank r to CPU r (mod the CPUs).
func TestRRunBindToCore(t *testing.T) {
	_, rrun := binaries(t)
	out, err := exec.Command(rrun, "-n", "2", "--bind-to", "core", "--tag-output", "sh", "-c",
		`grep Cpus_allowed_list /proc/self/status`).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(string(out), "not applied") {
		t.Skipf("binding not permitted here: %s", out)
	}
	for _, want := range []string{"[0] Cpus_allowed_list:\t0\n", "[1] Cpus_allowed_list:\t1\n"} {
		if runtime.NumCPU() > 1 && !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
