package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/shuffle"
)

// mpirun returns the path of Open MPI's launcher and the environment it
// needs here (we run as root in CI, which Open MPI refuses unless told),
// or skips the test.
func mpirun(t *testing.T) (string, []string) {
	t.Helper()
	path, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skip("mpirun not found (scripts/install-test-deps.sh installs openmpi-bin)")
	}
	env := append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	mpiProbe.Do(func() {
		cmd := exec.Command(path, "-n", "2", "--oversubscribe", "true")
		cmd.Env = env
		mpiProbe.out, mpiProbe.err = cmd.CombinedOutput()
	})
	if mpiProbe.err != nil {
		t.Skipf("mpirun cannot launch here (mpirun -n 2 true: %v):\n%s", mpiProbe.err, mpiProbe.out)
	}
	return path, env
}

// mpiProbe: whether mpirun can start processes on this machine at all.
var mpiProbe struct {
	sync.Once
	out []byte
	err error
}

// runOut runs cmd and returns its standard output, failing the test with
// its standard error if it fails.
func runOut(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.String())
	}
	return stdout.Bytes()
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func queryArgs(data, q string) []string {
	return []string{"--data", data, "--format", "csv", "-f", "../../testdata/tpch/queries/q" + q + ".sql"}
}

// TestLaunchersMatchSingleProcess: under rrun -n 2 and (where installed)
// mpirun -n 3, a few TPC-H queries at SF 0.1 print byte for byte what one
// process prints. benchmarks/ranks/check.sh does all 22 at SF 1.
func TestLaunchersMatchSingleProcess(t *testing.T) {
	gq, rrun := binaries(t)
	data := tpchData(t)
	queries := []string{"01", "05", "13", "18", "21"}
	single := map[string][]byte{}
	for _, q := range queries {
		single[q] = runOut(t, exec.Command(gq, queryArgs(data, q)...))
		if len(bytes.Split(single[q], []byte("\n"))) < 3 {
			t.Fatalf("q%s: single-process output too short to compare:\n%s", q, single[q])
		}
	}
	t.Run("rrun-2", func(t *testing.T) {
		for _, q := range queries {
			start := time.Now()
			got := runOut(t, exec.Command(rrun, append([]string{"-n", "2", "-x", "GQ_THREADS=1", gq}, queryArgs(data, q)...)...))
			if !bytes.Equal(got, single[q]) {
				t.Errorf("q%s: rrun -n 2 printed\n%s\none process printed\n%s", q, got, single[q])
			}
			t.Logf("q%s rrun -n 2: %v", q, time.Since(start))
		}
	})
	t.Run("mpirun-3", func(t *testing.T) {
		mpi, env := mpirun(t)
		// The ranks really are three processes joined over tcp.
		info := exec.Command(mpi, "-n", "3", "--oversubscribe", gq, "--cluster-info")
		info.Env = env
		if out := string(runOut(t, info)); strings.Count(out, ",tcp\n") != 3 || !strings.Contains(out, "\n2,") {
			t.Fatalf("mpirun -n 3 gq --cluster-info printed\n%s", out)
		}
		// By default the ranks meet in a directory named after the job
		// (rank 0 writes the job secret there); with GQ_COORD_ADDR (the
		// way across hosts), at rank 0's socket, with a secret exported
		// to every rank.
		env = append(env, "GQ_JOB_SECRET="+shuffle.NewJobSecret())
		for _, coord := range [][]string{nil, {"-x", "GQ_COORD_ADDR=" + freeAddr(t), "-x", "GQ_JOB_SECRET"}} {
			for _, q := range []string{"05", "18"} {
				start := time.Now()
				a := append([]string{"-n", "3", "--oversubscribe", "-x", "GQ_THREADS=1"}, coord...)
				cmd := exec.Command(mpi, append(append(a, gq), queryArgs(data, q)...)...)
				cmd.Env = env
				got := runOut(t, cmd)
				if !bytes.Equal(got, single[q]) {
					t.Errorf("q%s %v: mpirun -n 3 printed\n%s\none process printed\n%s", q, coord, got, single[q])
				}
				t.Logf("q%s mpirun -n 3 %v: %v", q, coord, time.Since(start))
			}
		}
	})
}
