package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gq/shuffle"
)

// TestNetnsRanksOverTCP runs gq ranks in separate network namespaces,
// joined by veth pairs to a bridge in a fourth namespace, so the ranks
// share no loopback: each listens on its own private address and they
// meet through rank 0's address service (GQ_COORD_ADDR). Their answers
// must equal the single-process run byte for byte. Needs root and ip(8);
// skips with the reason otherwise.
func TestNetnsRanksOverTCP(t *testing.T) {
	gq, _ := binaries(t)
	if os.Geteuid() != 0 {
		t.Skip("network namespaces need root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("ip(8) not installed (iproute2)")
	}
	const nranks = 3
	net := newNetnsNet(t, nranks)
	data := tpchData(t)
	for _, q := range []string{"q05", "q18"} {
		t.Run(q, func(t *testing.T) {
			query := "../../testdata/tpch/queries/" + q + ".sql"
			single := exec.Command(gq, "--data", data, "--format", "csv", "-f", query)
			want, err := single.Output()
			if err != nil {
				t.Fatalf("single-process run: %v", err)
			}
			outs := net.run(t, gq, "--data", data, "--format", "csv", "-f", query)
			if !bytes.Equal(outs[0], want) {
				t.Errorf("rank 0 printed:\n%s\nthe single-process run printed:\n%s", outs[0], want)
			}
			for r := 1; r < nranks; r++ {
				if len(outs[r]) != 0 {
					t.Errorf("rank %d printed %q; only rank 0 prints results", r, outs[r])
				}
			}
		})
	}
}

// netnsNet is one namespace per rank plus a switch namespace holding the
// bridge; rank r is 10.231.0.(r+1)/24 on its eth0.
type netnsNet struct {
	sw    string
	ranks []string
}

func (n *netnsNet) addr(r int) string { return fmt.Sprintf("10.231.0.%d", r+1) }

// coordPort is rank 0's address service port; inside a fresh namespace
// nothing else holds it.
const coordPort = "29471"

func newNetnsNet(t *testing.T, nranks int) *netnsNet {
	t.Helper()
	prefix := "gqt" + strconv.Itoa(os.Getpid())
	n := &netnsNet{sw: prefix + "-sw"}
	// Namespaces go first into the cleanup so a half-built net is
	// removed too; deleting a namespace removes its links.
	created := []string{}
	t.Cleanup(func() {
		for _, ns := range created {
			if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
				t.Errorf("removing namespace %s: %v: %s", ns, err, out)
			}
		}
	})
	addNS := func(ns string) {
		if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
			if len(created) == 0 {
				t.Skipf("cannot create a network namespace (not permitted here?): %v: %s", err, out)
			}
			t.Fatalf("ip netns add %s: %v: %s", ns, err, out)
		}
		created = append(created, ns)
	}
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	addNS(n.sw)
	ip("-n", n.sw, "link", "add", "br0", "type", "bridge")
	ip("-n", n.sw, "link", "set", "br0", "up")
	for r := range nranks {
		ns := fmt.Sprintf("%s-r%d", prefix, r)
		addNS(ns)
		n.ranks = append(n.ranks, ns)
		port := fmt.Sprintf("p%d", r)
		ip("-n", n.sw, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
		ip("-n", n.sw, "link", "set", port, "master", "br0")
		ip("-n", n.sw, "link", "set", port, "up")
		ip("-n", ns, "addr", "add", n.addr(r)+"/24", "dev", "eth0")
		ip("-n", ns, "link", "set", "eth0", "up")
		ip("-n", ns, "link", "set", "lo", "up")
	}
	return n
}

// run starts one gq per rank namespace, as a launcher would (RRUN_RANK,
// RRUN_NRANKS, the coordinator at rank 0's private address, each rank
// listening on its own), and returns each rank's standard output.
func (n *netnsNet) run(t *testing.T, gq string, args ...string) [][]byte {
	t.Helper()
	nranks := len(n.ranks)
	outs := make([][]byte, nranks)
	errs := make([]error, nranks)
	stderrs := make([]bytes.Buffer, nranks)
	// Ranks meeting at an address share a secret given them, as a user
	// would export one to mpirun or srun.
	secret := shuffle.NewJobSecret()
	var wg sync.WaitGroup
	for r, ns := range n.ranks {
		cmd := exec.Command("ip", append([]string{"netns", "exec", ns, gq}, args...)...)
		cmd.Env = append(os.Environ(), "RRUN_RANK="+strconv.Itoa(r), "RRUN_NRANKS="+strconv.Itoa(nranks),
			"GQ_COORD_ADDR="+n.addr(0)+":"+coordPort, "GQ_COMM_HOST="+n.addr(r), "GQ_COMM=tcp",
			"GQ_CONNECT_TIMEOUT=20s", "GQ_THREADS=2", "GQ_JOB_SECRET="+secret)
		cmd.Stderr = &stderrs[r]
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[r], errs[r] = cmd.Output()
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d in %s: %v\n%s", r, n.ranks[r], err, stderrs[r].String())
		}
	}
	return outs
}
