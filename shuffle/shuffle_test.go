package shuffle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/errs"
)

// tcpMesh connects n TCP communicators over loopback in this process.
func tcpMesh(t testing.TB, n int, opts TCPOptions) []*TCP {
	t.Helper()
	out, err := LoopbackTCP(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func locals(n int) []Communicator {
	var out []Communicator
	for _, l := range NewLocal(n) {
		out = append(out, l)
	}
	return out
}

func tcps(t *testing.T, n int) []Communicator {
	var out []Communicator
	for _, c := range tcpMesh(t, n, TCPOptions{}) {
		out = append(out, c)
	}
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, c := range out {
			wg.Add(1)
			go func() { defer wg.Done(); c.Close() }()
		}
		wg.Wait()
	})
	return out
}

// shuffleAll runs one shuffle of nparts partitions on every rank: rank r
// inserts chunk "r:p:i" for i < count(r,p) into each partition p, and the
// test checks each partition's owner extracts exactly those chunks.
func shuffleAll(t *testing.T, comms []Communicator, op uint32, nparts int, assign Assignment) {
	count := func(r, p int) int { return (r*7 + p*3) % 5 }
	n := len(comms)
	got := make([]map[int][]string, n)
	errc := make(chan error, 2*n)
	var wg sync.WaitGroup
	stats := NewStatistics()
	for r, c := range comms {
		s := NewShuffler(c, op, nparts, assign, stats)
		got[r] = map[int][]string{}
		wg.Add(2)
		go func() {
			defer wg.Done()
			for p := range nparts {
				for i := range count(r, p) {
					if err := s.Insert(p, []byte(fmt.Sprintf("%d:%d:%d", r, p, i))); err != nil {
						errc <- err
						return
					}
				}
			}
			if err := s.InsertFinished(); err != nil {
				errc <- err
			}
		}()
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			for {
				pid, err := s.WaitAny(ctx)
				if err != nil {
					errc <- err
					return
				}
				if pid < 0 {
					return
				}
				if s.owner(pid) != r {
					errc <- fmt.Errorf("rank %d got partition %d owned by %d", r, pid, s.owner(pid))
				}
				chunks, err := s.Extract(pid)
				if err != nil {
					errc <- err
					return
				}
				for _, ch := range chunks {
					got[r][pid] = append(got[r][pid], string(ch))
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	var sent int
	for p := range nparts {
		var want []string
		for r := range n {
			for i := range count(r, p) {
				want = append(want, fmt.Sprintf("%d:%d:%d", r, p, i))
				sent += len(want[len(want)-1])
			}
		}
		owner := NewShuffler(comms[0], op, nparts, assign, nil).owner(p)
		g := got[owner][p]
		sort.Strings(g)
		sort.Strings(want)
		if strings.Join(g, ",") != strings.Join(want, ",") {
			t.Errorf("partition %d on rank %d: got %v, want %v", p, owner, g, want)
		}
	}
	if s := stats.Get(StatPayloadSend); int(s.Value) != sent || stats.Get(StatPayloadRecv).Value != s.Value {
		t.Errorf("statistics: sent %v, recv %v, want %d bytes each", s, stats.Get(StatPayloadRecv), sent)
	}
}

func TestShufflerLocal(t *testing.T) {
	for _, n := range []int{1, 3} {
		comms := locals(n)
		shuffleAll(t, comms, 1, 7, RoundRobin)
		shuffleAll(t, comms, 2, 4, Contiguous)
		shuffleAll(t, comms, 3, 1, Contiguous)
	}
}

// TestShufflerNext: the streaming consumer sees every chunk once and
// ends only after every rank finished.
func TestShufflerNext(t *testing.T) {
	comms := locals(3)
	var wg sync.WaitGroup
	got := make([]int, 3)
	for r, c := range comms {
		s := NewShuffler(c, 7, 6, RoundRobin, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range 6 {
				s.Insert(p, []byte{byte(r), byte(p)})
			}
			s.InsertFinished()
			for {
				pid, chunk, err := s.Next(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if pid < 0 {
					return
				}
				if s.owner(pid) != r || int(chunk[1]) != pid {
					t.Errorf("rank %d got chunk %v as partition %d", r, chunk, pid)
				}
				got[r]++
			}
		}()
	}
	wg.Wait()
	for r, n := range got {
		if n != 6 { // 2 partitions per rank, one chunk from each of 3 ranks
			t.Errorf("rank %d received %d chunks, want 6", r, n)
		}
	}
}

func TestShufflerTCP(t *testing.T) {
	comms := tcps(t, 3)
	// Two shuffles at once, kept apart by op id.
	var wg sync.WaitGroup
	for op := uint32(10); op < 12; op++ {
		wg.Add(1)
		go func() { defer wg.Done(); shuffleAll(t, comms, op, 5, RoundRobin) }()
	}
	wg.Wait()
	// A payload larger than socket buffers.
	big := bytes.Repeat([]byte("x"), 8<<20)
	if err := comms[1].Send(2, 99, big); err != nil {
		t.Fatal(err)
	}
	m, err := comms[2].Recv(context.Background(), 99)
	if err != nil || m.Src != 1 || !bytes.Equal(m.Data, big) {
		t.Fatalf("big message: src %d, %d bytes, %v", m.Src, len(m.Data), err)
	}
}

func TestCollectives(t *testing.T) {
	for name, comms := range map[string][]Communicator{"local": locals(3), "tcp": tcps(t, 3)} {
		t.Run(name, func(t *testing.T) {
			var wg sync.WaitGroup
			for r, c := range comms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx := context.Background()
					all, err := AllGather(ctx, c, 1, []byte{byte(r)})
					if err != nil || len(all) != 3 || all[2][0] != 2 {
						t.Errorf("rank %d allgather: %v %v", r, all, err)
					}
					g, err := Gather(ctx, c, 2, 0, []byte{byte(10 + r)})
					if err != nil || (r == 0) != (g != nil) || (r == 0 && g[1][0] != 11) {
						t.Errorf("rank %d gather: %v %v", r, g, err)
					}
					b, err := broadcast(ctx, c, 3, 1, []byte{byte(20 + r)})
					if err != nil || len(b) != 1 || b[0] != 21 {
						t.Errorf("rank %d broadcast: %v %v", r, b, err)
					}
				}()
			}
			wg.Wait()
		})
	}
}

// TestTCPPeerDeath: a rank that vanishes without goodbye (its sockets
// closed, as at kill -9) fails every other rank's pending Recv with a
// communication error naming it, within the heartbeat timeout.
func TestTCPPeerDeath(t *testing.T) {
	comms := tcpMesh(t, 3, TCPOptions{Heartbeat: 100 * time.Millisecond, Timeout: time.Second})
	defer comms[0].Close()
	defer comms[1].Close()
	errc := make(chan error, 2)
	for _, c := range comms[:2] {
		go func() {
			_, err := c.Recv(context.Background(), 5)
			errc <- err
		}()
	}
	start := time.Now()
	comms[2].Abort()
	for range 2 {
		select {
		case err := <-errc:
			if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank 2") {
				t.Errorf("got %v, want a communication error naming rank 2", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Recv still waiting 10s after rank 2 died")
		}
	}
	t.Logf("detected in %v", time.Since(start))
}

// TestTCPCleanClose: ranks that all say goodbye do not fail each other.
func TestTCPCleanClose(t *testing.T) {
	comms := tcpMesh(t, 3, TCPOptions{})
	var wg sync.WaitGroup
	for _, c := range comms {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close() }()
	}
	wg.Wait()
	for r, c := range comms {
		if err := c.Err(); err == nil || strings.Contains(err.Error(), "lost") {
			t.Errorf("rank %d after clean close: %v", r, err)
		}
	}
}

func TestDetectLaunch(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		env      func(string) string
		rank, n  int
		launcher string
		bad      bool
	}{
		{env(), 0, 1, "", false},
		{env("RRUN_RANK", "2", "RRUN_NRANKS", "4", "RRUN_COORD_DIR", "/x"), 2, 4, "rrun", false},
		{env("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "3"), 1, 3, "mpirun", false},
		{env("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "77"), 0, 2, "slurm", false},
		{env("RRUN_RANK", "4", "RRUN_NRANKS", "4"), 0, 0, "", true},
	}
	for i, c := range cases {
		l, err := DetectLaunch(c.env)
		if c.bad {
			if !errors.Is(err, errs.Communication) {
				t.Errorf("case %d: got %v, want an error", i, err)
			}
			continue
		}
		if err != nil || l.Rank != c.rank || l.NRanks != c.n || l.Launcher != c.launcher {
			t.Errorf("case %d: got %+v %v", i, l, err)
		}
		if c.launcher == "slurm" && (!l.DerivedDir || !strings.HasSuffix(l.CoordDir, "gq-coord-slurm-77.")) {
			t.Errorf("slurm without a coordinator: got dir %q", l.CoordDir)
		}
	}
}

// TestBootstrap connects three ranks through a coordinator directory and
// through rank 0's address service, and times out on a rank that never
// starts.
func TestBootstrap(t *testing.T) {
	for _, mode := range []string{"dir", "socket"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Skip(err)
			}
			coord := ln.Addr().String()
			ln.Close()
			comms := make([]*TCP, 3)
			errc := make([]error, 3)
			var wg sync.WaitGroup
			for r := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					l := Launch{Rank: r, NRanks: 3}
					if mode == "dir" {
						l.CoordDir = dir
					} else {
						l.CoordAddr, l.secret = coord, testSecret
					}
					comms[r], errc[r] = bootstrapTCP(l, "127.0.0.1", TCPOptions{ConnectTimeout: 10 * time.Second})
				}()
			}
			wg.Wait()
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
			for _, c := range comms {
				go c.Close()
			}
		})
	}
	t.Run("missing-rank", func(t *testing.T) {
		_, err := bootstrapTCP(Launch{Rank: 0, NRanks: 2, CoordDir: t.TempDir()}, "127.0.0.1", TCPOptions{ConnectTimeout: 300 * time.Millisecond})
		if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank(s) 1") {
			t.Fatalf("got %v, want a timeout naming rank 1", err)
		}
	})
}

// TestLeftRankEndsWaits: a rank that closes (says goodbye) and takes no
// part in later collectives or shuffles makes the others fail, naming
// it, instead of waiting for it forever; leaving after doing one's part
// is fine.
func TestLeftRankEndsWaits(t *testing.T) {
	for name, comms := range map[string][]Communicator{"local": locals(3), "tcp": tcps(t, 3)} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			for _, c := range comms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := AllGather(ctx, c, 1, []byte{byte(c.Rank())}); err != nil {
						t.Errorf("rank %d, first allgather: %v", c.Rank(), err)
					}
					if c.Rank() == 2 {
						go c.Close() // tcp: waits for the others' goodbyes
						return
					}
					_, err := AllGather(ctx, c, 2, nil)
					if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank 2 left") {
						t.Errorf("rank %d, second allgather: got %v, want rank 2 left", c.Rank(), err)
					}
					s := NewShuffler(c, 3, 3, RoundRobin, nil)
					err = s.InsertFinished()
					if err == nil {
						_, err = s.WaitAny(ctx)
					}
					if err == nil || !strings.Contains(err.Error(), "rank 2 left") {
						t.Errorf("rank %d, shuffle: got %v, want rank 2 left", c.Rank(), err)
					}
				}()
			}
			wg.Wait()
		})
	}
}
