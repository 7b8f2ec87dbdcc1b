//go:build ucx

package shuffle

import (
	"context"
	"encoding/hex"
	"runtime"
	"sync"
	"time"

	"gq/errs"
)

// UCX tags carry the sender's rank in the top bits (UCX has no
// "source" on a probe) and the communicator's tag below; one tag value is
// kept for the goodbye each rank sends on Close.
const (
	ucxRankShift = 48
	ucxTagMask   = 1<<ucxRankShift - 1
	ucxByeTag    = ucxTagMask
	ucxMaxRanks  = MaxRanks
)

// ucxComm is the communicator over UCX (build tag ucx): shared memory between
// ranks of one host, and whatever UCX finds between hosts. One goroutine,
// on its own OS thread, owns the worker: it starts queued sends, polls
// for arrived messages and completes both; received messages go to the
// mailbox as in the tcp backend.
type ucxComm struct {
	rank, n int
	w       *ucxWorker
	box     *mailbox
	sends   chan ucxSend
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
}

type ucxSend struct {
	dst  int
	tag  uint64
	data []byte
}

// newUCXRank creates rank's worker and returns it with the worker's
// address; start connects it once every rank's address is known.
func newUCXRank(rank, n int) (*ucxComm, []byte, error) {
	if n > ucxMaxRanks {
		return nil, nil, errs.New(errs.Communication, "ucx backend: %d ranks, at most %d", n, ucxMaxRanks)
	}
	w, err := newUCXWorker()
	if err != nil {
		return nil, nil, err
	}
	addr, err := w.address()
	if err != nil {
		w.close()
		return nil, nil, err
	}
	u := &ucxComm{rank: rank, n: n, w: w, box: newMailbox(), sends: make(chan ucxSend, 1024),
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	return u, addr, nil
}

// start connects to every peer's worker and starts the progress loop.
func (u *ucxComm) start(addrs [][]byte) error {
	if err := u.w.connect(addrs, u.rank); err != nil {
		u.w.close()
		return err
	}
	go u.loop()
	return nil
}

// loopbackUCX connects n UCX ranks inside this process (tests, and the
// shared-memory throughput benchmark).
func loopbackUCX(n int) ([]*ucxComm, error) {
	out := make([]*ucxComm, n)
	addrs := make([][]byte, n)
	for r := range n {
		u, a, err := newUCXRank(r, n)
		if err != nil {
			for _, p := range out[:r] {
				p.w.close()
			}
			return nil, err
		}
		out[r], addrs[r] = u, a
	}
	for r, u := range out {
		if err := u.start(addrs); err != nil {
			for _, p := range out[:r] {
				p.Close()
			}
			return nil, err
		}
	}
	return out, nil
}

// bootstrapUCX exchanges worker addresses (hex) through the launch's
// coordinator, as the tcp backend exchanges its listening addresses:
// registering with rank 0's address service proves the job secret, and a
// coordinator directory must be this user's alone (the address files are
// readable by this user only). UCX itself authenticates nothing: a
// process that learns a worker's address can send it messages, so the
// addresses are handed only to ranks that proved the secret, or kept in
// a directory only this user can read.
func bootstrapUCX(l Launch, opts TCPOptions) (Communicator, error) {
	opts.fill()
	if l.CoordDir == "" && l.CoordAddr == "" {
		return nil, errs.New(errs.Communication, "%d ranks but no coordinator: set GQ_COORD_DIR or GQ_COORD_ADDR", l.NRanks)
	}
	if l.secret == nil && l.CoordDir == "" {
		return nil, noSecret(l)
	}
	u, addr, err := newUCXRank(l.Rank, l.NRanks)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(opts.ConnectTimeout)
	ex, err := exchange(l, hex.EncodeToString(addr), deadline, true)
	defer ex.cleanup()
	if err != nil {
		u.w.close()
		return nil, err
	}
	addrs := make([][]byte, len(ex.addrs))
	for r, h := range ex.addrs {
		if addrs[r], err = hex.DecodeString(h); err != nil {
			u.w.close()
			return nil, errs.New(errs.Communication, "rank %d published a bad ucx address", r)
		}
	}
	if err := u.start(addrs); err != nil {
		return nil, err
	}
	// Creating endpoints waits for no one: before removing our address
	// file (deferred), wait until every rank has read all of them.
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(time.Second))
	defer cancel()
	if err := barrier(ctx, u, tagBootstrapBarrier); err != nil {
		u.Close()
		return nil, errs.Wrap(errs.Communication, err, "rank %d: start-up barrier", l.Rank)
	}
	return u, nil
}

func (u *ucxComm) Rank() int       { return u.rank }
func (u *ucxComm) NRanks() int     { return u.n }
func (u *ucxComm) Backend() string { return "ucx" }

func (u *ucxComm) inbox() *mailbox         { return u.box }
func (u *ucxComm) Failed() <-chan struct{} { return u.box.failed }
func (u *ucxComm) Err() error              { return u.box.failure() }

func (u *ucxComm) Recv(ctx context.Context, tag Tag) (Message, error) {
	return u.box.get(ctx, tag, nil)
}

func (u *ucxComm) recvOwed(ctx context.Context, tag Tag, owes func(int) bool) (Message, error) {
	return u.box.get(ctx, tag, owes)
}

// Send queues data for the progress loop; the communicator owns data
// afterwards (it stays pinned until UCX has sent it).
func (u *ucxComm) Send(dst int, tag Tag, data []byte) error {
	if err := checkRank(dst, u.n); err != nil {
		return err
	}
	if err := u.box.failure(); err != nil {
		return err
	}
	if uint64(tag) >= ucxByeTag {
		return errs.New(errs.Internal, "ucx backend: tag %d over the 48-bit limit", tag)
	}
	if dst == u.rank {
		u.box.put(tag, Message{Src: u.rank, Data: data})
		return nil
	}
	select {
	case u.sends <- ucxSend{dst: dst, tag: uint64(u.rank)<<ucxRankShift | uint64(tag), data: data}:
	case <-u.box.failed:
		return u.box.failure()
	}
	select {
	case u.wake <- struct{}{}:
	default:
	}
	return nil
}

// loop owns the worker until Close: UCX's serialized thread mode wants
// one caller at a time, and one OS thread keeps it simple.
func (u *ucxComm) loop() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(u.done)
	var inflight []*ucxOp // sends and receives not yet complete
	var recvs []*ucxOp
	idle := 0
	byes := 0
	quitting := false
	var giveUp time.Time
	for {
		busy := false
	drain:
		for {
			select {
			case s := <-u.sends:
				op, err := u.w.send(s.dst, s.tag, s.data)
				if err != nil {
					u.box.fail(err)
				} else if op != nil {
					inflight = append(inflight, op)
				}
				busy = true
			default:
				break drain
			}
		}
		for u.w.progress() {
			busy = true
		}
		for {
			op, err := u.w.probe()
			if err != nil {
				u.box.fail(err)
				break
			}
			if op == nil {
				break
			}
			recvs = append(recvs, op)
			busy = true
		}
		for u.w.progress() {
		}
		inflight = completeOps(inflight, u.box, nil)
		recvs = completeOps(recvs, u.box, func(op *ucxOp) {
			src := int(op.tag >> ucxRankShift)
			if op.tag&ucxTagMask == ucxByeTag {
				byes++
				u.box.leave(src)
				return
			}
			u.box.put(Tag(op.tag&ucxTagMask), Message{Src: src, Data: op.buf})
		})
		if !quitting {
			select {
			case <-u.quit:
				quitting = true
				giveUp = time.Now().Add(2 * time.Second)
				for r := range u.n {
					if r == u.rank {
						continue
					}
					op, err := u.w.send(r, uint64(u.rank)<<ucxRankShift|ucxByeTag, nil)
					if err == nil && op != nil {
						inflight = append(inflight, op)
					}
				}
				continue
			default:
			}
		}
		// Leave once every goodbye is in (a dead peer sends none: give up
		// on it after a while).
		if quitting && len(u.sends) == 0 && len(inflight) == 0 && len(recvs) == 0 &&
			(byes >= u.n-1 || time.Now().After(giveUp)) {
			u.w.close()
			return
		}
		if busy {
			idle = 0
			continue
		}
		// Nothing moved: back off from polling, but wake for a send.
		idle++
		if idle > 64 {
			t := time.NewTimer(time.Duration(min(idle-64, 100)) * 10 * time.Microsecond)
			select {
			case <-u.wake:
			case <-t.C:
			}
			t.Stop()
		}
	}
}

// completeOps hands on the finished operations and keeps the rest.
func completeOps(ops []*ucxOp, box *mailbox, deliver func(*ucxOp)) []*ucxOp {
	kept := ops[:0]
	for _, op := range ops {
		if !op.done() {
			kept = append(kept, op)
			continue
		}
		if err := op.err(); err != nil {
			box.fail(err)
		} else if deliver != nil {
			deliver(op)
		}
		op.free()
	}
	return kept
}

// Close says goodbye to every peer, waits for theirs (so no message to
// this rank is cut off) and releases the worker.
func (u *ucxComm) Close() error {
	u.once.Do(func() {
		close(u.quit)
		select {
		case u.wake <- struct{}{}:
		default:
		}
		<-u.done
		u.box.fail(errs.New(errs.Communication, "communicator closed"))
	})
	return nil
}
