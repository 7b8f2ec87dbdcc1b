//go:build ucx

package shuffle

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gq/errs"
)

// The ucx backend passes what the local and tcp backends pass:
// concurrent shuffles kept apart by op id, a large message, the
// collectives, and a rank's goodbye ending the waits for it.
// go test -tags ucx ./shuffle (make test-ucx).

func ucxs(t testing.TB, n int) []Communicator {
	t.Helper()
	us, err := loopbackUCX(n)
	if err != nil {
		t.Fatal(err)
	}
	var out []Communicator
	for _, u := range us {
		out = append(out, u)
	}
	t.Cleanup(func() { closeComms(out) })
	return out
}

func closeComms(comms []Communicator) {
	var wg sync.WaitGroup
	for _, c := range comms {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close() }()
	}
	wg.Wait()
}

func TestShufflerUCX(t *testing.T) {
	comms := ucxs(t, 3)
	var wg sync.WaitGroup
	for op := uint32(10); op < 12; op++ {
		wg.Add(1)
		go func() { defer wg.Done(); shuffleAll(t, comms, op, 5, RoundRobin) }()
	}
	wg.Wait()
	shuffleAll(t, comms, 12, 4, Contiguous)
	big := bytes.Repeat([]byte("x"), 8<<20)
	big[len(big)-1] = 'y'
	if err := comms[1].Send(2, 99, big); err != nil {
		t.Fatal(err)
	}
	m, err := comms[2].Recv(context.Background(), 99)
	if err != nil || m.Src != 1 || !bytes.Equal(m.Data, big) {
		t.Fatalf("big message: src %d, %d bytes, %v", m.Src, len(m.Data), err)
	}
	if err := comms[0].Send(1, ucxByeTag, nil); !errors.Is(err, errs.Internal) {
		t.Errorf("reserved tag: got %v, want an internal error", err)
	}
}

func TestCollectivesUCX(t *testing.T) {
	comms := ucxs(t, 3)
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
}

func TestLeftRankEndsWaitsUCX(t *testing.T) {
	comms := ucxs(t, 3)
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
				go c.Close()
				return
			}
			_, err := AllGather(ctx, c, 2, nil)
			if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "rank 2 left") {
				t.Errorf("rank %d, second allgather: got %v, want rank 2 left", c.Rank(), err)
			}
		}()
	}
	wg.Wait()
}

// BenchmarkShuffleUCX and BenchmarkCommUCX: the shuffle benchmark over
// ucx (shared memory between the in-process ranks), and bare Send/Recv.
func BenchmarkShuffleUCX(b *testing.B) { benchShuffle(b, ucxs(b, benchRanks), false) }

func BenchmarkShuffleUCXExtract(b *testing.B) { benchShuffle(b, ucxs(b, benchRanks), true) }

func BenchmarkCommUCX(b *testing.B) { benchComm(b, ucxs(b, benchRanks)) }

// TestBootstrapUCX: ranks exchange their worker addresses through the
// launch's coordinator (a shared directory, or rank 0's address service)
// as the tcp backend does, then shuffle.
func TestBootstrapUCX(t *testing.T) {
	for _, mode := range []string{"dir", "socket"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Skip(err)
			}
			coord := ln.Addr().String()
			ln.Close()
			comms := make([]Communicator, 3)
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
					comms[r], errc[r] = bootstrapUCX(l, TCPOptions{ConnectTimeout: 10 * time.Second})
				}()
			}
			wg.Wait()
			for r, err := range errc {
				if err != nil {
					t.Fatalf("rank %d: %v", r, err)
				}
			}
			defer closeComms(comms)
			for r, c := range comms {
				if c.Backend() != "ucx" || c.Rank() != r || c.NRanks() != 3 {
					t.Fatalf("rank %d: %s rank %d of %d", r, c.Backend(), c.Rank(), c.NRanks())
				}
			}
			shuffleAll(t, comms, 1, 3, RoundRobin)
		})
	}
}

// TestBootstrapUCXSharedDir: UCX authenticates no peer, so its worker
// addresses are never put where others may read or plant them: a
// coordinator directory others may write is refused even with a secret.
func TestBootstrapUCXSharedDir(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o777)
	_, err := bootstrapUCX(Launch{Rank: 0, NRanks: 2, CoordDir: dir, secret: testSecret}, TCPOptions{ConnectTimeout: time.Second})
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "written by others") {
		t.Errorf("got %v, want the shared directory refused", err)
	}
}
