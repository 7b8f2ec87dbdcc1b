package shuffle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/errs"
)

var testSecret = []byte("a job secret for the shuffle tests")

// meshListeners opens n loopback listeners and returns them with their
// addresses.
func meshListeners(t *testing.T, n int) ([]net.Listener, []string) {
	t.Helper()
	lns := make([]net.Listener, n)
	addrs := make([]string, n)
	for r := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { ln.Close() })
		lns[r], addrs[r] = ln, ln.Addr().String()
	}
	return lns, addrs
}

// startRanks runs connectTCP for the given ranks in the background; wait
// returns each one's communicator and error, indexed by rank.
func startRanks(ranks []int, lns []net.Listener, addrs []string, opts TCPOptions) (wait func() ([]*TCP, []error)) {
	n := len(addrs)
	comms := make([]*TCP, n)
	errc := make([]error, n)
	var wg sync.WaitGroup
	for _, r := range ranks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			comms[r], errc[r] = connectTCP(r, addrs, lns[r], opts)
		}()
	}
	return func() ([]*TCP, []error) { wg.Wait(); return comms, errc }
}

// checkMesh fails the test unless every rank connected, then shuffles
// over the mesh and checks every partition arrived whole (the job's
// answer is the real ranks').
func checkMesh(t *testing.T, comms []*TCP, errc []error) {
	t.Helper()
	for r, err := range errc {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	var cs []Communicator
	for _, c := range comms {
		cs = append(cs, c)
	}
	shuffleAll(t, cs, 1, 3, RoundRobin)
	closeAll(comms)
}

// oldHello is the hello of gq before the handshake: magic "gqs3", rank,
// world size. It alone used to make a connection rank `rank`.
func oldHello(rank, n int) []byte {
	var h [12]byte
	binary.LittleEndian.PutUint32(h[0:], 0x67717333)
	binary.LittleEndian.PutUint32(h[4:], uint32(rank))
	binary.LittleEndian.PutUint32(h[8:], uint32(n))
	return h[:]
}

// waitClosed fails the test unless rank 0 closes c within d (reading
// nothing but, at most, its own hello and proof).
func waitClosed(t *testing.T, c net.Conn, d time.Duration) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	got, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the stranger's connection is still open %v later", d)
	}
	return got
}

// TestAuthImpostor: a process outside the job connects to rank 0 before
// the real rank 1 and claims to be rank 1 — with the old hello, with a
// handshake under another secret, or replaying a real rank's handshake
// recorded earlier. Rank 0 drops it, the mesh forms with the real ranks,
// and a shuffle over it delivers every partition.
func TestAuthImpostor(t *testing.T) {
	opts := TCPOptions{ConnectTimeout: 10 * time.Second, Secret: testSecret}
	replay := recordHandshake(t)
	for _, how := range []string{"old-hello", "wrong-secret", "replay"} {
		t.Run(how, func(t *testing.T) {
			lns, addrs := meshListeners(t, 3)
			start := time.Now()
			wait0 := startRanks([]int{0}, lns, addrs, opts)
			imp, err := net.Dial("tcp", addrs[0])
			if err != nil {
				t.Fatal(err)
			}
			defer imp.Close()
			switch how {
			case "old-hello":
				imp.Write(oldHello(1, 3))
			case "wrong-secret":
				err := dialAuth(imp, []byte("not the job's secret, a guess"), purposeMesh, 1, 3, 0, time.Now().Add(5*time.Second))
				if err == nil || !strings.Contains(err.Error(), "did not prove the job secret") {
					t.Errorf("impostor's handshake: got %v, want rank 0's proof refused", err)
				}
			case "replay":
				imp.Write(replay)
			}
			time.Sleep(100 * time.Millisecond) // rank 0 has the impostor's hello first
			wait := startRanks([]int{1, 2}, lns, addrs, opts)
			comms, errc := wait()
			c0, e0 := wait0()
			comms[0], errc[0] = c0[0], e0[0]
			took := time.Since(start)
			checkMesh(t, comms, errc)
			if took > defaultHandshakeTimeout {
				t.Errorf("the mesh took %v to form, as long as the stranger's handshake deadline", took)
			}
			got := waitClosed(t, imp, 2*time.Second)
			if how == "replay" && len(got) != authHelloLen+macLen {
				t.Errorf("the replayer read %d bytes, want rank 0's hello and proof alone (%d), no acceptance", len(got), authHelloLen+macLen)
			}
		})
	}
}

// recordHandshake returns what a real rank 1 sent rank 0 to join a
// 3-rank mesh (its hello and proof), recorded by a relay between them.
func recordHandshake(t *testing.T) []byte {
	t.Helper()
	lns, addrs := meshListeners(t, 3)
	relay, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer relay.Close()
	var rec bytes.Buffer
	var recMu sync.Mutex
	go func() {
		in, err := relay.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", addrs[0])
		if err != nil {
			in.Close()
			return
		}
		go io.Copy(in, out)
		buf := make([]byte, 4096)
		for {
			k, err := in.Read(buf)
			recMu.Lock()
			rec.Write(buf[:k])
			recMu.Unlock()
			if _, werr := out.Write(buf[:k]); err != nil || werr != nil {
				in.Close()
				out.Close()
				return
			}
		}
	}()
	opts := TCPOptions{ConnectTimeout: 10 * time.Second, Secret: testSecret}
	wait0 := startRanks([]int{0, 2}, lns, addrs, opts)
	via := append([]string(nil), addrs...)
	via[0] = relay.Addr().String()
	wait1 := startRanks([]int{1}, lns, via, opts)
	c1, e1 := wait1()
	comms, errc := wait0()
	comms[1], errc[1] = c1[1], e1[1]
	for r, err := range errc {
		if err != nil {
			t.Fatalf("recording: rank %d: %v", r, err)
		}
	}
	closeAll(comms)
	recMu.Lock()
	defer recMu.Unlock()
	if rec.Len() < authHelloLen+macLen {
		t.Fatalf("recorded %d bytes of rank 1's handshake", rec.Len())
	}
	return append([]byte(nil), rec.Bytes()[:authHelloLen+macLen]...)
}

// TestAuthIdleConnection: a connection that opens and says nothing, to a
// rank's listener or to rank 0's address service, delays nobody: the
// job starts at once (not at the connect timeout, nor at the stranger's
// handshake deadline), and the stranger is dropped.
func TestAuthIdleConnection(t *testing.T) {
	for _, mode := range []string{"dir", "socket"} {
		t.Run(mode, func(t *testing.T) {
			base := Launch{NRanks: 3}
			dir := t.TempDir()
			if mode == "dir" {
				base.CoordDir = dir // the secret comes from rank 0's file there
			} else {
				base.CoordAddr, base.secret = freeAddr(t), testSecret
			}
			start := time.Now()
			var comms []*TCP
			var errc []error
			done := make(chan struct{})
			go func() {
				defer close(done)
				comms, errc = bootstrapAll([]int{0}, base, 10*time.Second)
			}()
			// The stranger finds rank 0 (its address file, or the
			// coordinator's port) and connects first.
			var target string
			for target == "" && time.Since(start) < 5*time.Second {
				if mode == "socket" {
					if c, err := net.Dial("tcp", base.CoordAddr); err == nil {
						c.Close()
						target = base.CoordAddr
					}
				} else if b, err := os.ReadFile(filepath.Join(dir, "rank-0.addr")); err == nil {
					target = strings.Fields(string(b))[0]
				}
				time.Sleep(5 * time.Millisecond)
			}
			idle, err := net.Dial("tcp", target)
			if err != nil {
				t.Fatal(err)
			}
			defer idle.Close()
			time.Sleep(100 * time.Millisecond)
			others, oerrc := bootstrapAll([]int{1, 2}, base, 10*time.Second)
			<-done
			took := time.Since(start)
			comms[1], comms[2], errc[1], errc[2] = others[1], others[2], oerrc[1], oerrc[2]
			checkMesh(t, comms, errc)
			if took > defaultHandshakeTimeout {
				t.Errorf("start-up took %v with an idle stranger connected", took)
			}
			waitClosed(t, idle, defaultHandshakeTimeout+time.Second)
		})
	}
}

// TestAuthDuplicateRank: a process that holds the secret but claims a
// rank already connected is refused, and the job goes on.
func TestAuthDuplicateRank(t *testing.T) {
	lns, addrs := meshListeners(t, 3)
	opts := TCPOptions{ConnectTimeout: 10 * time.Second, Secret: testSecret}
	wait0 := startRanks([]int{0}, lns, addrs, opts)
	wait1 := startRanks([]int{1}, lns, addrs, opts)
	// Rank 1 is in once rank 0's listener hands it over; a second rank 1
	// comes later.
	time.Sleep(200 * time.Millisecond)
	dup, err := net.Dial("tcp", addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer dup.Close()
	err = dialAuth(dup, testSecret, purposeMesh, 1, 3, 0, time.Now().Add(5*time.Second))
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a second rank 1: got %v, want refused", err)
	}
	wait2 := startRanks([]int{2}, lns, addrs, opts)
	comms, errc := wait0()
	for _, w := range []func() ([]*TCP, []error){wait1, wait2} {
		c, e := w()
		for r := range c {
			if c[r] != nil || e[r] != nil {
				comms[r], errc[r] = c[r], e[r]
			}
		}
	}
	checkMesh(t, comms, errc)
}

// TestAuthWorldSizeMismatch: ranks started with different world sizes
// (2 and 3) fail at once, each naming the disagreement, on a mesh
// connection, through a coordinator directory and at rank 0's address
// service — not at the connect timeout with a missing rank.
func TestAuthWorldSizeMismatch(t *testing.T) {
	check := func(t *testing.T, who string, err error, took time.Duration) {
		t.Helper()
		if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "says the job has") {
			t.Errorf("%s: got %v, want the world sizes named", who, err)
		}
		if took > 3*time.Second {
			t.Errorf("%s: failed after %v (connect timeout 20s)", who, took)
		}
	}
	t.Run("mesh", func(t *testing.T) {
		lns, addrs := meshListeners(t, 3)
		opts := TCPOptions{ConnectTimeout: 20 * time.Second, Secret: testSecret}
		start := time.Now()
		wait0 := startRanks([]int{0}, lns[:2], addrs[:2], opts) // a 2-rank job
		wait1 := startRanks([]int{1}, lns, addrs, opts)         // a 3-rank job
		_, e0 := wait0()
		check(t, "rank 0", e0[0], time.Since(start))
		_, e1 := wait1()
		check(t, "rank 1", e1[1], time.Since(start))
		if e0[0] != nil && !strings.Contains(e0[0].Error(), "rank 1 says the job has 3 ranks, this rank (0) says 2") {
			t.Errorf("rank 0: %v", e0[0])
		}
	})
	t.Run("dir", func(t *testing.T) {
		dir := t.TempDir()
		start := time.Now()
		var wg sync.WaitGroup
		errc := make([]error, 2)
		for r, n := range []int{2, 3} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errc[r] = bootstrapTCP(Launch{Rank: r, NRanks: n, CoordDir: dir}, "127.0.0.1", TCPOptions{ConnectTimeout: 20 * time.Second})
			}()
		}
		wg.Wait()
		check(t, "rank 0", errc[0], time.Since(start))
		check(t, "rank 1", errc[1], time.Since(start))
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("left in the coordinator directory: %v", left)
		}
	})
	t.Run("socket", func(t *testing.T) {
		coord := freeAddr(t)
		start := time.Now()
		var wg sync.WaitGroup
		errc := make([]error, 2)
		for r, n := range []int{2, 3} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errc[r] = bootstrapTCP(Launch{Rank: r, NRanks: n, CoordAddr: coord, secret: testSecret}, "127.0.0.1", TCPOptions{ConnectTimeout: 20 * time.Second})
			}()
		}
		wg.Wait()
		check(t, "rank 0", errc[0], time.Since(start))
		check(t, "rank 1", errc[1], time.Since(start))
	})
}

// TestJobSecretSources: where a job's secret comes from, and the clear
// errors when it cannot be had.
func TestJobSecretSources(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	ranks := []string{"OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2"}
	dir := t.TempDir()
	good := filepath.Join(dir, "secret")
	os.WriteFile(good, []byte("0123456789abcdef0123\n"), 0o600)
	open := filepath.Join(dir, "open")
	os.WriteFile(open, []byte("0123456789abcdef0123\n"), 0o644)
	for _, c := range []struct {
		env  []string
		want string // the secret, or a piece of the error
		ok   bool
	}{
		{[]string{"GQ_JOB_SECRET", "0123456789abcdef"}, "0123456789abcdef", true},
		{[]string{"RRUN_JOB_SECRET", "from-rrun-0123456789", "GQ_JOB_SECRET", "0123456789abcdef"}, "from-rrun-0123456789", true},
		{[]string{"GQ_JOB_SECRET_FILE", good}, "0123456789abcdef0123", true},
		{[]string{"GQ_JOB_SECRET", "short"}, "at least 16", false},
		{[]string{"GQ_JOB_SECRET_FILE", open}, "chmod 600", false},
		{[]string{"GQ_JOB_SECRET_FILE", filepath.Join(dir, "absent")}, "GQ_JOB_SECRET_FILE", false},
	} {
		l, err := DetectLaunch(env(append(append([]string{}, ranks...), c.env...)...))
		switch {
		case c.ok && (err != nil || string(l.secret) != c.want):
			t.Errorf("%v: got %q, %v", c.env, l.secret, err)
		case !c.ok && (!errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: got %v, want an error saying %q", c.env, err, c.want)
		}
		if s := fmt.Sprintf("%v %+v", l, l); c.ok && strings.Contains(s, c.want) {
			t.Errorf("a Launch prints its secret: %s", s)
		}
	}
	// A coordinator address and no secret: refused, saying how to give one.
	_, err := bootstrapTCP(Launch{Rank: 1, NRanks: 2, CoordAddr: freeAddr(t)}, "127.0.0.1", TCPOptions{ConnectTimeout: time.Second})
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "GQ_JOB_SECRET") {
		t.Errorf("no secret with a coordinator address: got %v", err)
	}
	// A coordinator directory others may write cannot hold the secret.
	shared := filepath.Join(dir, "shared")
	os.Mkdir(shared, 0o700)
	os.Chmod(shared, 0o777)
	_, err = bootstrapTCP(Launch{Rank: 0, NRanks: 2, CoordDir: shared}, "127.0.0.1", TCPOptions{ConnectTimeout: time.Second})
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "written by others") {
		t.Errorf("world-writable coordinator directory: got %v", err)
	}
	if left, _ := os.ReadDir(shared); len(left) != 0 {
		t.Errorf("left in the shared directory: %v", left)
	}
}

// TestWorldSizeBound: a launcher's world size past MaxRanks is an error
// at once, before anything is sized by it.
func TestWorldSizeBound(t *testing.T) {
	for _, n := range []string{"2147483647", "65537"} {
		_, err := DetectLaunch(func(k string) string {
			return map[string]string{"RRUN_RANK": "0", "RRUN_NRANKS": n, "RRUN_COORD_DIR": "/nonexistent"}[k]
		})
		if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "at most 65536 ranks") {
			t.Errorf("RRUN_NRANKS=%s: got %v", n, err)
		}
	}
	if l, err := DetectLaunch(func(k string) string {
		return map[string]string{"RRUN_RANK": "65535", "RRUN_NRANKS": "65536", "RRUN_COORD_DIR": "/x"}[k]
	}); err != nil || l.NRanks != MaxRanks {
		t.Errorf("RRUN_NRANKS=65536: got %+v, %v", l, err)
	}
}
