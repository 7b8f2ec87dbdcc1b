package shuffle

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gq/errs"
)

// corruptFirst makes c flip one payload byte of the first non-empty frame
// it reads from rank src, as a faulty link would.
func corruptFirst(c *TCP, src int) {
	var done atomic.Bool
	hook := func(from int, payload []byte) {
		if from == src && len(payload) > 0 && done.CompareAndSwap(false, true) {
			payload[len(payload)/2] ^= 0x10
		}
	}
	c.received.Store(&hook)
}

// wantMismatch checks err is the checksum failure of a message from rank
// src.
func wantMismatch(t *testing.T, who string, err error, src int) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want a checksum mismatch", who)
	}
	if !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "checksum mismatch") ||
		!strings.Contains(err.Error(), "from rank "+strconv.Itoa(src)) {
		t.Fatalf("%s: got %v, want a communication error naming the checksum mismatch from rank %d", who, err, src)
	}
}

func TestTCPChecksumMismatch(t *testing.T) {
	cs := tcpMesh(t, 3, TCPOptions{Checksum: ChecksumAlways})
	defer closeAll(cs)
	corruptFirst(cs[1], 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Two receivers wait on rank 1, one of them on a tag nobody sends:
	// both must see the failure, and the corrupted bytes must not come out.
	errc := make(chan error, 2)
	for _, tag := range []Tag{7, 8} {
		go func() {
			m, err := cs[1].Recv(ctx, tag)
			if err == nil {
				t.Errorf("tag %d: received %q from rank %d despite the corruption", tag, m.Data, m.Src)
			}
			errc <- err
		}()
	}
	if err := cs[0].Send(1, 7, []byte("the payload that gets corrupted")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		err := <-errc
		wantMismatch(t, "rank 1", err, 0)
		if !strings.Contains(err.Error(), "tag 7") {
			t.Fatalf("error does not name the tag: %v", err)
		}
	}
	// The other ranks are told, so none waits for a rank that gave up.
	for _, r := range []int{0, 2} {
		select {
		case <-cs[r].Failed():
			wantMismatch(t, "rank "+strconv.Itoa(r), cs[r].Err(), 0)
		case <-ctx.Done():
			t.Fatalf("rank %d was not told of the corruption", r)
		}
	}
}

// TestShufflerChecksumMismatch corrupts one chunk of a 3-rank shuffle:
// every rank's shuffler must end in that error rather than hang or hand
// out the bad chunk.
func TestShufflerChecksumMismatch(t *testing.T) {
	tcpc := tcpMesh(t, 3, TCPOptions{Checksum: ChecksumAlways})
	defer closeAll(tcpc)
	corruptFirst(tcpc[2], 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const nparts = 3
	chunk := []byte(strings.Repeat("x", 1000))
	chunk = chunk[:len(chunk):len(chunk)] // inserted many times: no room for Insert to write into
	errsOf := make([]error, len(tcpc))
	var wg sync.WaitGroup
	for r, c := range tcpc {
		s := NewShuffler(c, 42, nparts, RoundRobin, nil)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for p := range nparts {
				for range 4 {
					if s.Insert(p, chunk) != nil {
						return
					}
				}
			}
			if r == 2 {
				// Hold rank 2's finish back until it has seen the
				// corruption, so that no rank can complete the shuffle
				// before hearing of it.
				select {
				case <-c.Failed():
				case <-ctx.Done():
				}
			}
			s.InsertFinished()
		}()
		go func() {
			defer wg.Done()
			for {
				pid, err := s.WaitAny(ctx)
				if err != nil {
					errsOf[r] = err
					return
				}
				if pid < 0 {
					return
				}
				chunks, err := s.Extract(pid)
				if err != nil {
					errsOf[r] = err
					return
				}
				for _, ch := range chunks {
					if string(ch) != string(chunk) {
						t.Errorf("rank %d: partition %d delivered a corrupted chunk", r, pid)
					}
				}
			}
		}()
	}
	wg.Wait()
	for r, err := range errsOf {
		wantMismatch(t, "rank "+strconv.Itoa(r), err, 0)
	}
}

// TestChecksumModes checks which payloads are summed: by default not
// those of loopback connections, with ChecksumAlways all; and that the
// frame, not a setting both ends must share, says so: a rank summing its
// payloads is checked by one that does not sum its own.
func TestChecksumModes(t *testing.T) {
	auto := tcpMesh(t, 2, TCPOptions{})
	defer closeAll(auto)
	always := tcpMesh(t, 2, TCPOptions{Checksum: ChecksumAlways})
	defer closeAll(always)
	if auto[0].peers[1].sum || auto[1].peers[0].sum {
		t.Fatal("ChecksumAuto sums payloads on a loopback connection")
	}
	if !always[0].peers[1].sum || !always[1].peers[0].sum {
		t.Fatal("ChecksumAlways does not sum payloads")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Unsummed payloads arrive intact (nothing corrupts them here).
	if err := auto[0].Send(1, 5, []byte("plain")); err != nil {
		t.Fatal(err)
	}
	if m, err := auto[1].Recv(ctx, 5); err != nil || string(m.Data) != "plain" {
		t.Fatalf("unsummed frame: got %q, %v", m.Data, err)
	}
	// Rank 0 set to always, rank 1 left at the default: rank 1 must
	// still check what rank 0 sums.
	lns := make([]net.Listener, 2)
	addrs := make([]string, 2)
	for r := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skip(err)
		}
		defer ln.Close()
		lns[r], addrs[r] = ln, ln.Addr().String()
	}
	mixed := make([]*TCP, 2)
	var wg sync.WaitGroup
	for r, o := range []TCPOptions{{Checksum: ChecksumAlways}, {}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.Secret = testSecret
			c, err := connectTCP(r, addrs, lns[r], o)
			if err != nil {
				t.Error(err)
				return
			}
			mixed[r] = c
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	defer closeAll(mixed)
	corruptFirst(mixed[1], 0)
	if err := mixed[0].Send(1, 6, []byte("summed, then corrupted")); err != nil {
		t.Fatal(err)
	}
	_, err := mixed[1].Recv(ctx, 6)
	wantMismatch(t, "rank 1", err, 0)
}

// TestTCPFrameTooLong feeds rank 0 frame headers announcing more than
// MaxMessage (up to 4 GiB, 2 GiB being a negative int32): each is a
// communication error naming the peer, without allocating the amount.
func TestTCPFrameTooLong(t *testing.T) {
	for _, n := range []uint32{1<<20 + 1, 1 << 31, 1<<32 - 1} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skip(err)
		}
		addrs := []string{ln.Addr().String(), "127.0.0.1:1"}
		type res struct {
			c   *TCP
			err error
		}
		done := make(chan res, 1)
		go func() {
			c, err := connectTCP(0, addrs, ln, TCPOptions{MaxMessage: 1 << 20, Secret: testSecret})
			done <- res{c, err}
		}()
		// This test plays rank 1 with a bare socket.
		peer, err := net.Dial("tcp", addrs[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := dialAuth(peer, testSecret, purposeMesh, 1, 2, 0, time.Now().Add(5*time.Second)); err != nil {
			t.Fatal(err)
		}
		got := <-done
		ln.Close()
		if got.err != nil {
			t.Fatal(got.err)
		}
		c := got.c
		if err := c.Send(1, 3, make([]byte, 1<<20+1)); err == nil || !strings.Contains(err.Error(), "MaxMessage") {
			t.Fatalf("sending over MaxMessage: got %v", err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var h [headerLen]byte
		binary.LittleEndian.PutUint64(h[0:], 9)
		binary.LittleEndian.PutUint32(h[8:], n)
		binary.LittleEndian.PutUint64(h[sumAt:], frameSum(h[:]))
		if _, err := peer.Write(h[:]); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = c.Recv(ctx, 9)
		cancel()
		runtime.ReadMemStats(&after)
		if err == nil || !errors.Is(err, errs.Communication) || !strings.Contains(err.Error(), "over the 1048576-byte limit") ||
			!strings.Contains(err.Error(), "from rank 1") {
			t.Fatalf("length %d: got %v, want an error on the announced length", n, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Fatalf("length %d: %d bytes allocated for a rejected frame", n, grew)
		}
		peer.Close()
		c.Close()
	}
}

// addrConn is a net.Conn with given addresses (only those are used).
type addrConn struct {
	net.Conn
	local, remote net.Addr
}

func (c addrConn) LocalAddr() net.Addr  { return c.local }
func (c addrConn) RemoteAddr() net.Addr { return c.remote }

// TestOnThisHost checks which connections count as loopback: both ends
// on a loopback address, IPv4 or IPv6; a veth or NIC address is not.
func TestOnThisHost(t *testing.T) {
	tcp := func(s string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(s), Port: 1} }
	for _, c := range []struct {
		local, remote string
		want          bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"::1", "::1", true},
		{"127.0.0.1", "10.0.0.2", false},
		{"10.200.0.1", "10.200.0.2", false}, // the netns test's veth pair
		{"192.168.1.5", "127.0.0.1", false},
	} {
		if got := onThisHost(addrConn{local: tcp(c.local), remote: tcp(c.remote)}); got != c.want {
			t.Errorf("%s -> %s: onThisHost %v, want %v", c.local, c.remote, got, c.want)
		}
	}
	if onThisHost(addrConn{local: &net.UnixAddr{Name: "x"}, remote: &net.UnixAddr{Name: "y"}}) {
		t.Error("a non-TCP connection counted as loopback: its payloads would go unsummed")
	}
}
