package shuffle

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zeebo/xxh3"

	"gq/errs"
)

// TCPOptions tune failure detection of the tcp backend.
type TCPOptions struct {
	// Heartbeat is how often an idle connection is proven alive (default 1s).
	Heartbeat time.Duration
	// Timeout is how long a peer may stay silent, and how long connecting
	// may take, before every rank fails (default 5s silence, 30s connect).
	Timeout        time.Duration
	ConnectTimeout time.Duration
	// MaxMessage is the largest message, in bytes, this rank sends or
	// accepts (default 1 GiB, at most 4 GiB-1). A frame header announcing
	// more is a corrupted stream, not a reason to allocate that much.
	MaxMessage int
	// Checksum says which frames' payloads this rank checksums (headers
	// always are): ChecksumAuto (default) those on connections that leave
	// the host, ChecksumAlways all. GQ_TCP_CHECKSUM=always sets it under
	// a launcher.
	Checksum Checksum
	// Secret is the job secret every connection proves before it carries
	// a frame (see acceptAuth); connectTCP refuses to start without one.
	Secret []byte
	// HandshakeTimeout is how long a new connection has to prove the
	// secret before it is dropped (default defaultHandshakeTimeout).
	HandshakeTimeout time.Duration
}

// Checksum is when the tcp backend checksums a frame's payload.
//
// The checksum guards against what a NIC, a switch or a link can do to a
// frame that TCP's 16-bit sum lets through. A loopback connection has
// none of them: the kernel copies the bytes from one process's memory to
// the other's, as any copy in the engine does, so by default its payloads
// are not summed. There that pass over every byte, on both ends, was the
// largest cost of a shuffle after the copies themselves (22% of the CPU in
// BenchmarkShuffleTCP on the 2-core dev box). Each frame says whether its
// payload is summed, so ranks with different settings still agree.
type Checksum int

const (
	ChecksumAuto   Checksum = iota // payloads of connections off this host
	ChecksumAlways                 // every payload, loopback included
)

func (o *TCPOptions) fill() {
	if o.Heartbeat <= 0 {
		o.Heartbeat = time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 30 * time.Second
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 1 << 30
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = defaultHandshakeTimeout
	}
	o.MaxMessage = min(o.MaxMessage, math.MaxUint32)
}

// Frame kinds on a connection.
const (
	frameData      = 0
	frameHeartbeat = 1
	frameBye       = 2 // clean shutdown: the EOF that follows is not a failure
	frameFailed    = 3 // the sender lost a peer: payload says which and why
)

// A frame is a header then length payload bytes. The header is tag u64,
// length u32, kind u8, flags u8, 2 bytes padding, then a checksum u64 of
// those 16 bytes and, when flags has flagSummed, of the payload: NICs with
// broken offloads do corrupt data, and a flipped bit must fail the query
// rather than change its answer (see Checksum).
const (
	headerLen = 24
	sumAt     = 16 // offset of the checksum in the header

	flagsAt    = 13     // offset of the flags byte in the header
	flagSummed = 1 << 0 // the checksum covers the payload too
)

// headerSum is the checksum of a frame whose payload is not summed:
// XXH3-64 of the header's first sumAt bytes.
func headerSum(h []byte) uint64 { return xxh3.Hash(h[:sumAt]) }

// frameSum is the checksum of a frame whose payload is summed: XXH3-64 of
// the payload, seeded with the header's sum. XXH3 (as zstd's and
// lz4's frame checksums use xxHash) runs at ~68 GB/s per core on the dev
// box where CRC32C with SSE4.2 runs at ~25 GB/s; over loopback, where
// copying is the whole cost of a message, CRC32C's two passes (send,
// receive) took 15% of the shuffle's CPU. A 64-bit sum misses a random
// corruption with probability 2^-64.
func frameSum(h []byte, payload ...[]byte) uint64 {
	seed := headerSum(h)
	if len(payload) == 1 {
		return xxh3.HashSeed(payload[0], seed)
	}
	d := xxh3.NewSeed(seed) // streamed, the same sum as of the parts joined
	for _, b := range payload {
		d.Write(b)
	}
	return d.Sum64()
}

// TCP is the pure-Go communicator: one TCP connection per pair of ranks
// (the higher rank dials the lower), a reader goroutine per connection
// that demultiplexes frames into the mailbox, and heartbeats so a silent
// peer is detected within Timeout. Killed peers are seen at once (EOF
// without a goodbye frame).
type TCP struct {
	rank, n int
	opts    TCPOptions
	box     *mailbox
	peers   []*tcpPeer // nil at this rank's own index
	closing atomic.Bool
	done    chan struct{}
	wg      sync.WaitGroup
	// received, when set (tests), sees each piece of payload as read off
	// the wire, before it is checked: it may flip bits as a broken link
	// would.
	received atomic.Pointer[func(src int, payload []byte)]
}

type tcpPeer struct {
	rank int
	conn net.Conn
	sum  bool // checksum the payloads sent on conn (see Checksum)
	wmu  sync.Mutex
	bye  atomic.Bool
}

// newPeer wraps the connection to rank r.
func (t *TCP) newPeer(r int, c net.Conn) *tcpPeer {
	return &tcpPeer{rank: r, conn: c, sum: t.opts.Checksum == ChecksumAlways || !onThisHost(c)}
}

// onThisHost reports whether both ends of c are loopback addresses.
func onThisHost(c net.Conn) bool {
	l, ok1 := c.LocalAddr().(*net.TCPAddr)
	r, ok2 := c.RemoteAddr().(*net.TCPAddr)
	return ok1 && ok2 && l.IP.IsLoopback() && r.IP.IsLoopback()
}

// connectTCP joins the mesh: ln is this rank's listener (its address is
// addrs[rank]), addrs the listening address of every rank. Every
// connection first proves opts.Secret (see acceptAuth); one that does not
// within opts.HandshakeTimeout, or claims a rank already connected, is
// dropped, and the job goes on without it. It returns when every
// connection is up, fails at once when a proven peer counts a different
// world size, and otherwise fails after opts.ConnectTimeout naming the
// ranks that could not be reached. ln is closed on return.
func connectTCP(rank int, addrs []string, ln net.Listener, opts TCPOptions) (*TCP, error) {
	defer ln.Close()
	opts.fill()
	n := len(addrs)
	if n > MaxRanks {
		return nil, errs.New(errs.Communication, "%d ranks, at most %d", n, MaxRanks)
	}
	if len(opts.Secret) == 0 {
		return nil, errs.New(errs.Communication, "rank %d: no job secret to authenticate the other ranks with (TCPOptions.Secret)", rank)
	}
	t := &TCP{rank: rank, n: n, opts: opts, box: newMailbox(), peers: make([]*tcpPeer, n), done: make(chan struct{})}
	deadline := time.Now().Add(opts.ConnectTimeout)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var mu sync.Mutex
	var firstErr error
	setErr := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	// fatal: a proven peer of another world size; waiting longer cannot
	// help, so everything stops now.
	fatal := func(err error) {
		setErr(errs.Wrap(errs.Communication, err, "rank %d", rank))
		cancel()
	}
	var wg sync.WaitGroup
	// Accept the higher ranks.
	if rank < n-1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dropped := t.acceptPeers(ctx, ln, &mu, fatal)
			mu.Lock()
			left := missing(t.peers, rank+1, n)
			mu.Unlock()
			if left != "" {
				why := "timed out"
				if dropped > 0 {
					why += fmt.Sprintf("; dropped %d connection(s) that did not prove the job secret (strangers, or ranks given another secret)", dropped)
				}
				setErr(errs.New(errs.Communication, "rank %d: waiting for ranks %s to connect: %s", rank, left, why))
			}
		}()
	}
	// Dial the lower ranks, retrying while they start.
	for r := range rank {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addrs[r])
				if err == nil {
					err = dialAuth(c, opts.Secret, purposeMesh, rank, n, r, handshakeDeadline(deadline, opts.HandshakeTimeout))
					if err == nil {
						mu.Lock()
						t.peers[r] = t.newPeer(r, c)
						mu.Unlock()
						return
					}
					c.Close()
					var me *mismatchError
					if errors.As(err, &me) {
						fatal(err)
						return
					}
				}
				if ctx.Err() != nil {
					setErr(errs.New(errs.Communication, "rank %d: cannot connect to rank %d at %s: %v", rank, r, addrs[r], err))
					return
				}
				select {
				case <-ctx.Done():
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		for _, p := range t.peers {
			if p != nil {
				p.conn.Close()
			}
		}
		return nil, firstErr
	}
	for _, p := range t.peers {
		if p == nil {
			continue
		}
		t.wg.Add(1)
		go t.read(p)
	}
	t.wg.Add(1)
	go t.heartbeat()
	return t, nil
}

// maxHandshakes bounds the connections proving themselves at once: past
// it a new connection is closed unread (a real rank retries).
const maxHandshakes = 256

// acceptPeers takes the higher ranks' connections until all are in or
// ctx ends, and returns how many connections it dropped for failing the
// handshake. Each connection proves itself in its own goroutine, so one
// that stays silent holds up nobody.
func (t *TCP) acceptPeers(ctx context.Context, ln net.Listener, mu *sync.Mutex, fatal func(error)) (dropped int) {
	want := t.n - 1 - t.rank
	got := 0
	all := make(chan struct{})
	pending := map[net.Conn]bool{} // under mu: connections still proving themselves
	var hs sync.WaitGroup
	stopped := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-all:
		}
		ln.Close() // ends Accept
		close(stopped)
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			select {
			case <-stopped:
			default:
				// Not closed by us: the listener failed; wait out the
				// start-up for the error to name the missing ranks.
				select {
				case <-ctx.Done():
				case <-all:
				}
			}
			break
		}
		mu.Lock()
		if len(pending) >= maxHandshakes {
			mu.Unlock()
			c.Close()
			continue
		}
		pending[c] = true
		mu.Unlock()
		hs.Add(1)
		go func() {
			defer hs.Done()
			deadline, _ := ctx.Deadline()
			hello, err := acceptAuth(c, t.opts.Secret, purposeMesh, t.rank, t.n, handshakeDeadline(deadline, t.opts.HandshakeTimeout))
			var me *mismatchError
			isMismatch := errors.As(err, &me)
			mu.Lock()
			delete(pending, c)
			// A proven rank is taken unless its rank is not one this
			// rank accepts or is taken already; the claim comes before
			// the answer, so a second connection claiming the same rank
			// meanwhile is refused.
			taken := err == nil && hello.rank > t.rank && hello.rank < t.n && t.peers[hello.rank] == nil && ctx.Err() == nil
			if taken {
				t.peers[hello.rank] = t.newPeer(hello.rank, c)
			}
			if err != nil && !isMismatch {
				dropped++
			}
			mu.Unlock()
			if isMismatch {
				c.Close()
				fatal(err)
				return
			}
			if !taken {
				if err == nil {
					answer(c, statusRefused, time.Now().Add(time.Second))
				}
				c.Close()
				return
			}
			if err := answer(c, statusAccepted, time.Now().Add(t.opts.HandshakeTimeout)); err != nil {
				mu.Lock()
				t.peers[hello.rank] = nil
				mu.Unlock()
				c.Close()
				return
			}
			mu.Lock()
			got++
			if got == want {
				close(all)
			}
			mu.Unlock()
		}()
	}
	// Connections still proving themselves are strangers (or too late).
	mu.Lock()
	for c := range pending {
		c.Close()
	}
	mu.Unlock()
	hs.Wait()
	return dropped
}

func missing(peers []*tcpPeer, from, to int) string {
	s := ""
	for r := from; r < to; r++ {
		if peers[r] == nil {
			if s != "" {
				s += ","
			}
			s += strconv.Itoa(r)
		}
	}
	return s
}

func (t *TCP) Rank() int       { return t.rank }
func (t *TCP) NRanks() int     { return t.n }
func (t *TCP) Backend() string { return "tcp" }

func (t *TCP) inbox() *mailbox         { return t.box }
func (t *TCP) Failed() <-chan struct{} { return t.box.failed }
func (t *TCP) Err() error              { return t.box.failure() }

func (t *TCP) Recv(ctx context.Context, tag Tag) (Message, error) { return t.box.get(ctx, tag, nil) }

func (t *TCP) recvOwed(ctx context.Context, tag Tag, owes func(int) bool) (Message, error) {
	return t.box.get(ctx, tag, owes)
}

// Send writes the frame on the peer's connection (or queues it locally
// for this rank). The write deadline grows with the payload so a large
// buffer to a slow but live peer is not mistaken for a failure.
func (t *TCP) Send(dst int, tag Tag, data []byte) error {
	if dst == t.rank && checkRank(dst, t.n) == nil && t.box.failure() == nil {
		t.box.put(tag, Message{Src: t.rank, Data: data})
		return nil
	}
	return t.SendParts(dst, tag, data)
}

// SendParts sends the concatenation of parts as one message without
// building it: the parts go to the socket in one writev, so a caller that
// prefixes a small header to a large payload (the shuffler) copies
// nothing. Unlike Send it keeps no reference to parts once it returns.
func (t *TCP) SendParts(dst int, tag Tag, parts ...[]byte) error {
	if err := checkRank(dst, t.n); err != nil {
		return err
	}
	if err := t.box.failure(); err != nil {
		return err
	}
	size := 0
	for _, b := range parts {
		size += len(b)
	}
	if dst == t.rank {
		t.box.put(tag, Message{Src: t.rank, Data: concat(parts, size)})
		return nil
	}
	if size > t.opts.MaxMessage {
		return errs.New(errs.Communication, "a %d-byte message to rank %d is over the tcp backend's %d-byte limit (TCPOptions.MaxMessage)", size, dst, t.opts.MaxMessage)
	}
	p := t.peers[dst]
	left := func() error {
		if err := t.box.failure(); err != nil {
			return err // it left because of this: the first cause
		}
		return errs.New(errs.Communication, "rank %d left the job; cannot send it a message (tag %d)", dst, tag)
	}
	if p.bye.Load() {
		return left()
	}
	budget := 2*t.opts.Timeout + time.Duration(size/(50<<20))*time.Second
	if err := p.write(frameData, tag, budget, parts...); err != nil {
		if p.bye.Load() {
			return left()
		}
		if err := t.box.failure(); err != nil {
			return err
		}
		e := errs.New(errs.Communication, "lost connection to rank %d: %v", dst, err)
		// Tell the others first, as a failed read does: otherwise they
		// see this rank leave and blame it, not the rank that died.
		t.failAll(e)
		return e
	}
	return nil
}

func (p *tcpPeer) write(kind byte, tag Tag, budget time.Duration, parts ...[]byte) error {
	var h [headerLen]byte
	size := 0
	for _, b := range parts {
		size += len(b)
	}
	binary.LittleEndian.PutUint64(h[0:], uint64(tag))
	binary.LittleEndian.PutUint32(h[8:], uint32(size))
	h[12] = kind
	if p.sum {
		h[flagsAt] = flagSummed
		binary.LittleEndian.PutUint64(h[sumAt:], frameSum(h[:], parts...))
	} else {
		binary.LittleEndian.PutUint64(h[sumAt:], headerSum(h[:]))
	}
	var arr [4][]byte // keeps the common case (header + 1..3 parts) off the heap
	bufs := net.Buffers(append(append(arr[:0], h[:]), parts...))
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.conn.SetWriteDeadline(time.Now().Add(budget))
	_, err := bufs.WriteTo(p.conn)
	return err
}

// concat copies parts into one new buffer.
func concat(parts [][]byte, size int) []byte {
	out := make([]byte, 0, size)
	for _, b := range parts {
		out = append(out, b...)
	}
	return out
}

// read demultiplexes one connection's frames into the mailbox until the
// connection ends. An end without a goodbye, or a silence longer than
// Timeout, fails the communicator.
func (t *TCP) read(p *tcpPeer) {
	defer t.wg.Done()
	var h [headerLen]byte
	for {
		p.conn.SetReadDeadline(time.Now().Add(t.opts.Timeout))
		_, err := io.ReadFull(p.conn, h[:])
		var data []byte
		tag := Tag(binary.LittleEndian.Uint64(h[0:]))
		if err == nil {
			n := int(binary.LittleEndian.Uint32(h[8:]))
			if n > t.opts.MaxMessage {
				t.failAll(errs.New(errs.Communication, "rank %d: a frame from rank %d (tag %d) announces %d bytes, over the %d-byte limit (TCPOptions.MaxMessage): corrupted stream or mismatched versions", t.rank, p.rank, tag, n, t.opts.MaxMessage))
				return
			}
			if n > 0 {
				data = getBuffer(n)
				// A large payload may take a while: extend the deadline.
				p.conn.SetReadDeadline(time.Now().Add(t.opts.Timeout + time.Duration(n/(50<<20))*time.Second))
				err = t.readPayload(p, data)
			}
			var sum uint64
			if h[flagsAt]&flagSummed != 0 {
				sum = frameSum(h[:], data)
			} else {
				sum = headerSum(h[:])
			}
			if err == nil && sum != binary.LittleEndian.Uint64(h[sumAt:]) {
				// The stream can no longer be trusted (the header may be
				// what was hit): nothing more is read from this peer.
				t.failAll(errs.New(errs.Communication, "rank %d: checksum mismatch in a %d-byte message from rank %d (tag %d): corrupted in transit", t.rank, len(data), p.rank, tag))
				return
			}
		}
		if err != nil {
			if p.bye.Load() || t.closing.Load() {
				return
			}
			why := err.Error()
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				why = "no heartbeat for " + t.opts.Timeout.String()
			} else if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				why = "connection closed without goodbye (process died?)"
			}
			t.failAll(errs.New(errs.Communication, "rank %d lost rank %d: %s", t.rank, p.rank, why))
			return
		}
		switch h[12] {
		case frameData:
			t.box.put(tag, Message{Src: p.rank, Data: data})
		case frameBye:
			p.bye.Store(true)
			t.box.leave(p.rank)
		case frameFailed:
			// The cause is recorded before the peer counts as gone, so a
			// send to it reports the cause, not its leaving. Expect it to
			// exit next; its EOF is no news.
			t.failRelayed(string(data))
			p.bye.Store(true)
		}
	}
}

// readPayload fills data from p's connection, showing each piece to the
// test hook as it arrives.
func (t *TCP) readPayload(p *tcpPeer, data []byte) error {
	hook := t.received.Load()
	for off := 0; off < len(data); {
		k, err := p.conn.Read(data[off:])
		if k > 0 {
			if hook != nil {
				(*hook)(p.rank, data[off:off+k])
			}
			off += k
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}

// failAll fails this rank and first tells the other peers why, so every
// rank reports the first cause (the rank that died), not the exit of a
// rank that noticed it before them.
func (t *TCP) failAll(err error) {
	t.fail(strings.TrimPrefix(err.Error(), errs.Communication.Error()+": "), err)
}

// failRelayed fails this rank with the cause another rank told it, which
// it passes on as it came. This rank's own error says that it stops
// because of it: each rank prints its error, and the same line from two
// ranks read as one error printed twice.
func (t *TCP) failRelayed(cause string) {
	t.fail(cause, errs.New(errs.Communication, "rank %d stops too: %s", t.rank, cause))
}

// fail tells the peers cause, then fails this rank with err.
func (t *TCP) fail(cause string, err error) {
	if t.box.failure() != nil {
		return
	}
	msg := []byte(cause)
	for _, p := range t.peers {
		if p != nil && !p.bye.Load() {
			p.write(frameFailed, 0, time.Second, msg)
		}
	}
	t.box.fail(err)
}

// heartbeat proves every connection alive. Its write errors are left to
// the reader to report (a peer that said goodbye may be gone already).
func (t *TCP) heartbeat() {
	defer t.wg.Done()
	tick := time.NewTicker(t.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-t.done:
			return
		case <-tick.C:
		}
		for _, p := range t.peers {
			if p != nil && !p.bye.Load() {
				p.write(frameHeartbeat, 0, t.opts.Timeout)
			}
		}
	}
}

// Close says goodbye to every peer and closes the connections.
func (t *TCP) Close() error {
	if t.closing.Swap(true) {
		return nil
	}
	close(t.done)
	for _, p := range t.peers {
		if p != nil {
			p.write(frameBye, 0, time.Second)
		}
	}
	for _, p := range t.peers {
		if p != nil {
			if tc, ok := p.conn.(*net.TCPConn); ok {
				tc.CloseWrite()
			}
		}
	}
	// Wait (briefly) for the peers' goodbyes so no frame is cut off, then
	// close for good.
	waited := make(chan struct{})
	go func() { t.wg.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(2 * time.Second):
	}
	for _, p := range t.peers {
		if p != nil {
			p.conn.Close()
		}
	}
	<-waited
	t.box.fail(errs.New(errs.Communication, "communicator closed"))
	return nil
}

// Abort closes every connection without a goodbye, as a crash would
// (tests of failure handling).
func (t *TCP) Abort() {
	t.closing.Store(true)
	for _, p := range t.peers {
		if p != nil {
			p.conn.Close()
		}
	}
}

// LoopbackTCP connects n TCP ranks over 127.0.0.1 inside this process
// (gq --ranks N --comm tcp; tests of the tcp backend without processes).
func LoopbackTCP(n int, opts TCPOptions) ([]*TCP, error) {
	if len(opts.Secret) == 0 {
		opts.Secret = randomSecret()
	}
	lns := make([]net.Listener, n)
	addrs := make([]string, n)
	for r := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns[:r] {
				l.Close()
			}
			return nil, errs.Wrap(errs.Communication, err, "loopback listen")
		}
		lns[r], addrs[r] = ln, ln.Addr().String()
	}
	out := make([]*TCP, n)
	errc := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer lns[r].Close()
			out[r], errc[r] = connectTCP(r, addrs, lns[r], opts)
		}()
	}
	wg.Wait()
	for _, err := range errc {
		if err != nil {
			for _, c := range out {
				if c != nil {
					c.Abort()
				}
			}
			return nil, err
		}
	}
	return out, nil
}
