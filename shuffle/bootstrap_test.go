package shuffle

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/errs"
)

// bootstrapAll runs bootstrapTCP for the given ranks of an n-rank launch
// at once (ranks absent from the list never start) and returns each
// one's communicator and error, indexed by rank.
func bootstrapAll(ranks []int, base Launch, timeout time.Duration) ([]*TCP, []error) {
	comms := make([]*TCP, base.NRanks)
	errc := make([]error, base.NRanks)
	var wg sync.WaitGroup
	for _, r := range ranks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := base
			l.Rank = r
			comms[r], errc[r] = bootstrapTCP(l, "127.0.0.1", TCPOptions{ConnectTimeout: timeout})
		}()
	}
	wg.Wait()
	return comms, errc
}

func closeAll(comms []*TCP) {
	var wg sync.WaitGroup
	for _, c := range comms {
		if c != nil {
			wg.Add(1)
			go func() { defer wg.Done(); c.Close() }()
		}
	}
	wg.Wait()
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestBootstrapLeavesNothing: after a successful start the coordinator
// directory holds no address file (a later job reusing it reads no stale
// address), and a directory derived from the job id is gone.
func TestBootstrapLeavesNothing(t *testing.T) {
	for _, derived := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "coord")
		if !derived {
			os.Mkdir(dir, 0o700)
		}
		comms, errc := bootstrapAll([]int{0, 1, 2}, Launch{NRanks: 3, CoordDir: dir, DerivedDir: derived}, 10*time.Second)
		for r, err := range errc {
			if err != nil {
				t.Fatalf("derived=%v rank %d: %v", derived, r, err)
			}
		}
		closeAll(comms)
		left, err := os.ReadDir(dir)
		if derived && !os.IsNotExist(err) {
			t.Errorf("derived coordinator directory still there: %v %v", left, err)
		}
		if !derived && len(left) != 0 {
			t.Errorf("coordinator directory holds %v after start-up", left)
		}
	}
}

// TestBootstrapNeverStarts: a rank that never starts makes every rank
// that did fail with a timeout naming it, within the connect timeout,
// through either coordinator, and leaves no address file behind.
func TestBootstrapNeverStarts(t *testing.T) {
	const timeout = 500 * time.Millisecond
	for _, mode := range []string{"dir", "derived-dir", "socket"} {
		t.Run(mode, func(t *testing.T) {
			base := Launch{NRanks: 4}
			dir := filepath.Join(t.TempDir(), "coord")
			switch mode {
			case "dir":
				os.Mkdir(dir, 0o700)
				base.CoordDir = dir
			case "derived-dir":
				base.CoordDir, base.DerivedDir = dir, true
			case "socket":
				base.CoordAddr, base.secret = freeAddr(t), testSecret
			}
			start := time.Now()
			comms, errc := bootstrapAll([]int{0, 1, 3}, base, timeout)
			took := time.Since(start)
			closeAll(comms)
			for _, r := range []int{0, 1, 3} {
				err := errc[r]
				if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "timed out waiting for rank(s) 2 to start") {
					t.Errorf("rank %d: got %v, want a timeout naming rank 2", r, err)
				}
			}
			if took > timeout+3*time.Second {
				t.Errorf("ranks gave up after %v, connect timeout %v", took, timeout)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("coordinator directory holds %v", left)
			}
			if _, err := os.Stat(dir); mode == "derived-dir" && !os.IsNotExist(err) {
				t.Errorf("derived coordinator directory still there")
			}
		})
	}
	t.Run("rank-0-absent", func(t *testing.T) {
		_, errc := bootstrapAll([]int{1}, Launch{NRanks: 2, CoordAddr: freeAddr(t), secret: testSecret}, timeout)
		if err := errc[1]; err == nil || !strings.Contains(err.Error(), "timed out waiting for rank 0") {
			t.Errorf("got %v, want a timeout naming rank 0", err)
		}
	})
}

// TestDetectLaunchHosts: mpirun and srun name no coordinator; a
// directory derived from the job id serves on one host, and a job over
// several hosts is told to name a coordinator.
func TestDetectLaunchHosts(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	one, err := DetectLaunch(env(map[string]string{"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "3",
		"OMPI_COMM_WORLD_LOCAL_SIZE": "3", "PMIX_NAMESPACE": "1234"}))
	if err != nil || one.Hosts != 1 || !one.DerivedDir || !strings.HasSuffix(one.CoordDir, "gq-coord-ompi-1234") {
		t.Errorf("mpirun on one host: %+v %v", one, err)
	}
	many, err := DetectLaunch(env(map[string]string{"SLURM_PROCID": "0", "SLURM_NTASKS": "4",
		"SLURM_STEP_NUM_NODES": "2", "SLURM_JOB_ID": "9"}))
	if err != nil || many.Hosts != 2 || many.CoordDir != "" {
		t.Fatalf("srun over two nodes: %+v %v", many, err)
	}
	_, err = bootstrapTCP(many, "127.0.0.1", TCPOptions{ConnectTimeout: time.Second})
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "GQ_COORD_ADDR") || !strings.Contains(err.Error(), "several hosts") {
		t.Errorf("got %v, want advice to set a coordinator", err)
	}
}

// TestConnectTimeoutEnv: GQ_CONNECT_TIMEOUT bounds the wait for a rank
// that never starts; a bad value is a clear error.
func TestConnectTimeoutEnv(t *testing.T) {
	env := map[string]string{"RRUN_RANK": "0", "RRUN_NRANKS": "2", "RRUN_COORD_DIR": t.TempDir(), "GQ_CONNECT_TIMEOUT": "soon"}
	getenv := func(k string) string { return env[k] }
	if _, err := FromEnv("tcp", getenv); !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "GQ_CONNECT_TIMEOUT") {
		t.Errorf("bad value: got %v", err)
	}
	env["GQ_CONNECT_TIMEOUT"] = "300ms"
	start := time.Now()
	_, err := FromEnv("tcp", getenv)
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank(s) 1") {
		t.Errorf("got %v, want a timeout naming rank 1", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("gave up after %v with GQ_CONNECT_TIMEOUT=300ms", d)
	}
}
