package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The fault tests give every process of a job its own TMPDIR: gq puts
// its spill directory and any coordinator directory derived from a job
// id there, and rrun its coordinator directory, so "nothing left behind"
// is "TMPDIR empty" — and "no process left" is "no process whose
// environment names that TMPDIR".

// jobProcs lists the pids of live processes whose environment holds
// TMPDIR=tmp and whose name is comm ("" for any), with their environment.
func jobProcs(tmp, comm string) map[int][]string {
	out := map[int][]string{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil {
			continue
		}
		env := strings.Split(string(b), "\x00")
		if !contains(env, "TMPDIR="+tmp) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie waiting for its parent to reap it
		}
		if name, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "comm")); comm == "" || strings.TrimSpace(string(name)) == comm {
			out[pid] = env
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// listeningPorts is the TCP ports the processes pids listen on (from
// /proc/net/tcp* and their file descriptors).
func listeningPorts(pids map[int][]string) map[int]bool {
	inodes := map[string]bool{}
	for pid := range pids {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
			}
		}
	}
	ports := map[int]bool{}
	for port, inode := range listeners() {
		if inodes[inode] {
			ports[port] = true
		}
	}
	return ports
}

// listeners maps every listening TCP port of this network namespace to
// its socket's inode.
func listeners() map[int]string {
	out := map[int]string{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 10 || fs[3] != "0A" { // 0A: LISTEN
				continue
			}
			i := strings.LastIndexByte(fs[1], ':')
			if port, err := strconv.ParseInt(fs[1][i+1:], 16, 32); err == nil {
				out[int(port)] = fs[9]
			}
		}
		file.Close()
	}
	return out
}

// checkNothingLeft fails the test if a process of the job is still alive,
// one of the ports its ranks listened on still listens, or TMPDIR holds
// anything (spill files, coordinator directories).
func checkNothingLeft(t *testing.T, tmp string, ports map[int]bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(jobProcs(tmp, "")) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	for pid := range jobProcs(tmp, "") {
		name, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		t.Errorf("process %d (%s) outlived the job", pid, bytes.ReplaceAll(name, []byte{0}, []byte{' '}))
		syscall.Kill(pid, syscall.SIGKILL)
	}
	open := listeners()
	for port := range ports {
		if _, ok := open[port]; ok {
			t.Errorf("port %d, a rank's, still listens", port)
		}
	}
	var left []string
	filepath.Walk(tmp, func(path string, info os.FileInfo, err error) error {
		if path != tmp {
			left = append(left, strings.TrimPrefix(path, tmp+"/"))
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("left behind in TMPDIR: %v", left)
	}
}

// launcherCmd returns the command of a launch by rrun or mpirun (skips
// without it) of n ranks of args, with TMPDIR=tmp, the extra variables
// env and tagged output.
func launcherCmd(t *testing.T, launcher, rrun string, n int, tmp string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	var cmd *exec.Cmd
	switch launcher {
	case "rrun":
		a := []string{"-n", strconv.Itoa(n), "--tag-output"}
		for _, e := range env {
			a = append(a, "-x", e)
		}
		cmd = exec.Command(rrun, append(a, args...)...)
		cmd.Env = os.Environ()
	case "mpirun":
		mpi, menv := mpirun(t)
		a := []string{"-n", strconv.Itoa(n), "--oversubscribe", "--tag-output"}
		for _, e := range env {
			a = append(a, "-x", e)
		}
		cmd = exec.Command(mpi, append(a, args...)...)
		cmd.Env = menv
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	return cmd
}

// rankLines returns the lines of out that rank r printed (--tag-output:
// rrun writes "[r] ", mpirun "[jobid,r]<stderr>:").
func rankLines(out string, launcher string, r int) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		if launcher == "rrun" && strings.HasPrefix(line, fmt.Sprintf("[%d] ", r)) ||
			launcher == "mpirun" && strings.Contains(line, fmt.Sprintf(",%d]<", r)) {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestRankNeverStartsUnderLaunchers: one of three ranks exits at once
// without joining (rank 2); under rrun and mpirun the two others fail
// with a timeout naming rank 2 shortly after GQ_CONNECT_TIMEOUT, the
// launcher exits non-zero, and nothing is left behind.
func TestRankNeverStartsUnderLaunchers(t *testing.T) {
	gq, rrun := binaries(t)
	for _, launcher := range []string{"rrun", "mpirun"} {
		t.Run(launcher, func(t *testing.T) {
			tmp := t.TempDir()
			rankVar := map[string]string{"rrun": "RRUN_RANK", "mpirun": "OMPI_COMM_WORLD_RANK"}[launcher]
			cmd := launcherCmd(t, launcher, rrun, 3, tmp, []string{"GQ_CONNECT_TIMEOUT=1s"},
				"sh", "-c", `if [ "$`+rankVar+`" = 2 ]; then exit 0; fi; exec "$0" -c "select 1 as one"`, gq)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			if err == nil {
				t.Fatalf("%s exited 0 with a rank missing:\n%s", launcher, out.String())
			}
			for r := range 2 {
				if l := rankLines(out.String(), launcher, r); !strings.Contains(l, "timed out waiting for rank(s) 2 to start") {
					t.Errorf("rank %d did not report rank 2 missing:\n%s", r, out.String())
				}
			}
			if took > 8*time.Second {
				t.Errorf("%s took %v to give up with GQ_CONNECT_TIMEOUT=1s", launcher, took)
			}
			t.Logf("%s: gave up after %v", launcher, took)
			checkNothingLeft(t, tmp, nil)
		})
	}
}

// spillingQuery runs for seconds at SF 0.1 on three ranks (tiny batches,
// a 1 MiB memory limit: the join and the aggregation spill), so a rank
// can be killed while the shuffles are under way.
const spillingQuery = "select o_orderpriority, l_orderkey, count(*) as n from lineitem join orders on l_orderkey = o_orderkey " +
	"group by o_orderpriority, l_orderkey order by n desc, l_orderkey limit 3"

// TestKilledRankLeavesNothing: kill -9 of rank 2 while the ranks shuffle
// and spill makes ranks 0 and 1 exit by themselves, each naming rank 2,
// within 10 s, under rrun and mpirun; afterwards no process, listening
// socket, spill file or coordinator directory of the job remains.
func TestKilledRankLeavesNothing(t *testing.T) {
	gq, rrun := binaries(t)
	data, err := filepath.Abs(tpchData(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, launcher := range []string{"rrun", "mpirun"} {
		t.Run(launcher, func(t *testing.T) {
			tmp := t.TempDir()
			rankVar := map[string]string{"rrun": "RRUN_RANK", "mpirun": "OMPI_COMM_WORLD_RANK"}[launcher]
			args := []string{gq, "--data", data, "--batch-size", "16", "--memory-limit", "1MiB", "-c", spillingQuery}
			if launcher == "mpirun" {
				// mpirun cannot remove what a killed rank spilled (rrun
				// can: it hands each rank a spill directory of its job
				// directory); give each rank its own, to tell the killed
				// rank's files from the survivors'.
				args = append([]string{"sh", "-c", `GQ_SPILL_DIR=$TMPDIR/spill-rank-$` + rankVar + ` exec "$@"`, "sh"}, args...)
			}
			cmd := launcherCmd(t, launcher, rrun, 3, tmp, []string{"GQ_THREADS=1"}, args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				for pid := range jobProcs(tmp, "") {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})

			// Wait until the ranks are spilling: three gq processes and a
			// spill file in TMPDIR.
			var victim int
			var ports map[int]bool
			deadline := time.Now().Add(20 * time.Second)
			for victim == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the ranks never spilled:\n%s", out.String())
				}
				select {
				case err := <-done:
					t.Fatalf("the query ended (%v) before a rank could be killed:\n%s", err, out.String())
				case <-time.After(20 * time.Millisecond):
				}
				procs := jobProcs(tmp, "gq")
				spills, _ := filepath.Glob(filepath.Join(tmp, "*", "spill-*", "*"))
				more, _ := filepath.Glob(filepath.Join(tmp, "spill-*", "*"))
				if len(procs) != 3 || len(spills)+len(more) == 0 {
					continue
				}
				ports = listeningPorts(procs)
				for pid, env := range procs {
					if contains(env, rankVar+"=2") {
						victim = pid
					}
				}
			}
			start := time.Now()
			syscall.Kill(victim, syscall.SIGKILL)
			select {
			case err = <-done:
			case <-time.After(15 * time.Second):
				t.Fatalf("%s still running 15 s after rank 2 was killed:\n%s", launcher, out.String())
			}
			took := time.Since(start)
			if err == nil {
				t.Errorf("%s exited 0 after rank 2 was killed", launcher)
			}
			var errLines []string
			for r := range 2 {
				l := rankLines(out.String(), launcher, r)
				if !strings.Contains(l, "Error") || !strings.Contains(l, "rank 2") {
					t.Errorf("rank %d did not report losing rank 2:\n%s", r, out.String())
				}
				for _, line := range strings.Split(l, "\n") {
					if i := strings.Index(line, "Error"); i >= 0 {
						errLines = append(errLines, line[i:])
					}
				}
			}
			// Each rank says why it stops in its own words: the same line
			// twice (one rank repeating what another told it) read as
			// one error printed twice.
			if len(errLines) == 2 && errLines[0] == errLines[1] {
				t.Errorf("ranks 0 and 1 printed the same error:\n%s", out.String())
			}
			if strings.Contains(out.String(), "killed by killed") {
				t.Errorf("the launcher's kill message:\n%s", out.String())
			}
			if took > 10*time.Second {
				t.Errorf("the job ended %v after the kill, want under 10 s", took)
			}
			t.Logf("%s: job ended %v after kill -9 of rank 2 (ranks listened on %d ports)", launcher, took, len(ports))
			if launcher == "mpirun" {
				for r := range 2 {
					dir := filepath.Join(tmp, fmt.Sprintf("spill-rank-%d", r))
					if left, _ := os.ReadDir(dir); len(left) > 0 {
						t.Errorf("rank %d left spill files: %v", r, left)
					}
					os.Remove(dir) // given by the user: gq keeps the directory
				}
				left, _ := os.ReadDir(filepath.Join(tmp, "spill-rank-2"))
				t.Logf("mpirun: the killed rank left %d spill file(s), removed here", len(left))
				os.RemoveAll(filepath.Join(tmp, "spill-rank-2"))
			}
			checkNothingLeft(t, tmp, ports)
		})
	}
}
