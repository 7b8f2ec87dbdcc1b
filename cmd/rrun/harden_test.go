package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitGone waits up to d for every process of the job (TMPDIR=tmp) to
// exit and returns how long that took, or fails the test naming the
// survivors (and kills them).
func waitGone(t *testing.T, tmp string, d time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < d {
		if len(jobProcs(tmp, "")) == 0 {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for pid := range jobProcs(tmp, "") {
		name, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		t.Errorf("process %d (%s) outlived rrun by %v", pid, bytes.ReplaceAll(name, []byte{0}, []byte{' '}), d)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return time.Since(start)
}

// TestRRunKilledTakesItsRanks: kill -9 of rrun, which can forward no
// signal, still ends its ranks within about a second — a rank rrun
// started (the kernel's parent-death signal) and a gq that a rank's
// shell started (which sees its parent change) — instead of leaving them
// running, a gq serve rank answering queries for nobody.
func TestRRunKilledTakesItsRanks(t *testing.T) {
	gq, rrun := binaries(t)
	for _, how := range []string{"direct", "under-a-shell"} {
		t.Run(how, func(t *testing.T) {
			tmp := t.TempDir()
			args := []string{"-n", "2", "sh", "-c", "exec sleep 60"}
			want, name := 2, "sleep"
			if how == "under-a-shell" {
				// gq waits for statements on its standard input, a fifo
				// this test holds open (rrun's end of a pipe would close
				// with rrun, and gq end at that EOF, as a gq serve rank
				// would not); the shell is what rrun started.
				fifo := t.TempDir() + "/stdin"
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skip(err)
				}
				f, err := os.OpenFile(fifo, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				args = []string{"-n", "2", "sh", "-c", `"$0" --format csv < "$1"; echo after`, gq, fifo}
				name = "gq"
			}
			cmd := exec.Command(rrun, args...)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				cmd.Process.Kill()
				for pid := range jobProcs(tmp, "") {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			deadline := time.Now().Add(20 * time.Second)
			for len(jobProcs(tmp, name)) < want {
				if time.Now().After(deadline) {
					t.Fatalf("the ranks never started:\n%s", out.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			if how == "under-a-shell" {
				// Let the gq ranks connect (their address files go).
				for time.Now().Before(deadline) {
					if m, _ := os.ReadDir(tmp); len(m) == 1 {
						if left, _ := os.ReadDir(tmp + "/" + m[0].Name()); !hasAddr(left) {
							break
						}
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			cmd.Process.Signal(syscall.SIGKILL)
			took := waitGone(t, tmp, 3*time.Second)
			cmd.Wait() // the ranks held its output open
			if took > 1500*time.Millisecond {
				t.Errorf("the ranks outlived rrun by %v", took)
			}
			t.Logf("%s: the ranks were gone %v after kill -9 of rrun\n%s", how, took, out.String())
			os.RemoveAll(tmp) // rrun, killed, could not remove its job directory
		})
	}
}

func hasAddr(entries []os.DirEntry) bool {
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".addr") {
			return true
		}
	}
	return false
}

// TestWorldSizeBounds: a world size no job can have is a clear error at
// start — RRUN_NRANKS=2147483647 made gq die of "out of memory" sizing
// its address table — and so is rrun -n beyond it.
func TestWorldSizeBounds(t *testing.T) {
	gq, rrun := binaries(t)
	cmd := exec.Command(gq, "-c", "select 1")
	cmd.Env = append(os.Environ(), "RRUN_RANK=0", "RRUN_NRANKS=2147483647", "RRUN_COORD_DIR="+t.TempDir())
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "a job has at most 65536 ranks") || strings.Contains(string(out), "fatal error") {
		t.Errorf("gq with RRUN_NRANKS=2147483647: %v\n%s", err, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to refuse", d)
	}
	out, err = exec.Command(rrun, "-n", "2147483647", "true").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "-n must be between 1 and 65536") {
		t.Errorf("rrun -n 2147483647: %v\n%s", err, out)
	}
}

// TestRRunKillMessage: a rank killed by a signal is reported once, by the
// signal's name ("was killed by killed" before).
func TestRRunKillMessage(t *testing.T) {
	_, rrun := binaries(t)
	cmd := exec.Command(rrun, "-n", "2", "sh", "-c", `if [ "$RRUN_RANK" = 1 ]; then kill -9 $$; fi; exec sleep 30`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+9 {
		t.Errorf("rrun: %v, want exit status 137", err)
	}
	const want = "rrun: rank 1 was killed by signal SIGKILL; stopping the other ranks\n"
	if got := stderr.String(); strings.Count(got, want) != 1 || strings.Count(got, "killed") != 1 {
		t.Errorf("stderr:\n%s\nwant once: %s", got, want)
	}
}

// TestRankWorldSizeMismatch: ranks started with different world sizes (a
// rank 1 of 3 beside a rank 0 of 2) both fail at once naming the
// mismatch, not after the connect timeout naming a missing rank.
func TestRankWorldSizeMismatch(t *testing.T) {
	gq, _ := binaries(t)
	dir := t.TempDir()
	r0, e0 := startRank(t, gq, dir, 0, 2, "20s")
	r1, e1 := startRank(t, gq, dir, 1, 3, "20s")
	start := time.Now()
	if code := waitExit(r1, 10*time.Second); code <= 0 {
		t.Fatalf("rank 1 (of 3): exit status %d", code)
	}
	took := time.Since(start)
	if !strings.Contains(e1.String(), "rank 0 says the job has 2 ranks, this rank (1) says 3") {
		t.Errorf("rank 1: %q, want the mismatch named", e1.String())
	}
	if took > 5*time.Second {
		t.Errorf("rank 1 gave up after %v (connect timeout 20s)", took)
	}
	if code := waitExit(r0, 5*time.Second); code <= 0 {
		t.Errorf("rank 0 (of 2): exit status %d", code)
	}
	if !strings.Contains(e0.String(), "rank 1 says the job has 3 ranks, this rank (0) says 2") {
		t.Errorf("rank 0: %q, want the mismatch named", e0.String())
	}
	t.Logf("rank 1 named the mismatch after %v: %s (rank 0: %q)", took, strings.TrimSpace(e1.String()), e0.String())
}
