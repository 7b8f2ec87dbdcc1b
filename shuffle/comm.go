package shuffle

import (
	"context"
	"sync"

	"gq/errs"
)

// Tag keeps the messages of concurrent exchanges apart: a receiver asks
// for the next message under one tag. Shufflers use their op id as tag.
type Tag uint64

// Message is one received buffer and the rank that sent it.
type Message struct {
	Src  int
	Data []byte
}

// Communicator delivers tagged byte buffers between the ranks of a job.
// Implementations are safe for concurrent use.
type Communicator interface {
	// Rank is this process's rank, 0 <= Rank < NRanks.
	Rank() int
	// NRanks is the number of ranks in the job.
	NRanks() int
	// Backend names the implementation ("local", "tcp").
	Backend() string
	// Send delivers data to rank dst under tag without waiting for the
	// receiver to ask for it. The communicator owns data afterwards.
	// Sending to one's own rank is allowed.
	Send(dst int, tag Tag, data []byte) error
	// Recv returns the next message under tag from any rank, waiting until
	// one arrives, ctx ends, or the communicator fails.
	Recv(ctx context.Context, tag Tag) (Message, error)
	// Failed is closed when the communicator can no longer deliver
	// messages (a peer died or a connection dropped); Err then says why.
	Failed() <-chan struct{}
	Err() error
	// Close says goodbye to the peers and releases the connections.
	Close() error
}

// mailbox buffers received messages per tag until Recv asks for them; it
// is what makes Send asynchronous. Its queues are unbounded: the
// exchanges above it bound what they hold in flight.
type mailbox struct {
	mu     sync.Mutex
	boxes  map[Tag]*box
	failed chan struct{}
	err    error
	// left holds the ranks that said goodbye; leftCh is closed (and
	// replaced) whenever one more leaves, waking every waiter.
	left   map[int]bool
	leftCh chan struct{}
	// floor: messages under an op id tag (below opTagLimit) lower than
	// floor belong to finished statements and are dropped (ForgetOpsBelow).
	floor Tag
}

// opTagLimit bounds the tags that are op ids (uint32); gq's own tags
// (bootstrap, serving) sit above it and are never forgotten.
const opTagLimit Tag = 1 << 32

type box struct {
	q       []Message
	signal  chan struct{} // capacity 1: "the queue may be non-empty"
	waiters int
}

func newMailbox() *mailbox {
	return &mailbox{boxes: map[Tag]*box{}, failed: make(chan struct{}), left: map[int]bool{}, leftCh: make(chan struct{})}
}

func (m *mailbox) boxFor(tag Tag) *box {
	b := m.boxes[tag]
	if b == nil {
		b = &box{signal: make(chan struct{}, 1)}
		m.boxes[tag] = b
	}
	return b
}

func (b *box) wake() {
	select {
	case b.signal <- struct{}{}:
	default:
	}
}

// put queues msg under tag and wakes a waiting receiver.
func (m *mailbox) put(tag Tag, msg Message) {
	m.mu.Lock()
	if tag < m.floor {
		m.mu.Unlock() // a late message of a finished statement
		return
	}
	b := m.boxFor(tag)
	b.q = append(b.q, msg)
	m.mu.Unlock()
	b.wake()
}

// leave records that rank said goodbye: it will send nothing more (its
// earlier messages are queued already, connections being ordered).
func (m *mailbox) leave(rank int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.left[rank] {
		m.left[rank] = true
		close(m.leftCh)
		m.leftCh = make(chan struct{})
	}
}

// get pops the oldest message under tag. Messages that arrived before a
// failure are still delivered; after them the failure is reported. With
// owes set, waiting ends in an error once a rank that owes the caller a
// message (owes(rank)) has left: it would wait forever otherwise.
func (m *mailbox) get(ctx context.Context, tag Tag, owes func(rank int) bool) (Message, error) {
	m.mu.Lock()
	b := m.boxFor(tag)
	for {
		if len(b.q) > 0 {
			msg := b.q[0]
			b.q[0] = Message{}
			b.q = b.q[1:]
			if len(b.q) > 0 {
				b.wake() // another waiter may be sleeping on this tag
			} else if b.waiters == 0 {
				delete(m.boxes, tag)
			}
			m.mu.Unlock()
			return msg, nil
		}
		err := m.err
		if err == nil && owes != nil {
			for r := range m.left {
				if owes(r) {
					err = errs.New(errs.Communication, "rank %d left the job while this rank still expected data from it (did every rank run the same statements?)", r)
					break
				}
			}
		}
		if err != nil {
			if b.waiters == 0 {
				delete(m.boxes, tag)
			}
			m.mu.Unlock()
			return Message{}, err
		}
		b.waiters++
		leftCh := m.leftCh
		m.mu.Unlock()
		var ctxErr error
		select {
		case <-b.signal:
		case <-m.failed:
		case <-leftCh:
		case <-ctx.Done():
			ctxErr = ctx.Err()
		}
		m.mu.Lock()
		b.waiters--
		if ctxErr != nil {
			if b.waiters == 0 && len(b.q) == 0 {
				delete(m.boxes, tag)
			}
			m.mu.Unlock()
			return Message{}, errs.Wrap(errs.Cancelled, ctxErr, "waiting for a message")
		}
	}
}

// fail records the first failure and wakes every receiver.
func (m *mailbox) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return
	}
	m.err = err
	close(m.failed)
}

func (m *mailbox) failure() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// forgetBelow drops the queued messages under op ids below floor and
// every such message that arrives later.
func (m *mailbox) forgetBelow(floor Tag) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.floor = min(floor, opTagLimit)
	for tag, b := range m.boxes {
		if tag < m.floor {
			b.q = nil
			if b.waiters == 0 {
				delete(m.boxes, tag)
			}
		}
	}
}

// ForgetOpsBelow tells c that this rank is done with every exchange whose
// op id is below floor: their queued messages are dropped, and so are
// those still to arrive. A statement cancelled or failed on some ranks
// mid-way leaves chunks (and fingerprints) that no one will ask for;
// without this a long-running server under ranks would keep them. The
// floor may move down (op ids wrap after 2^32). Backends without a
// mailbox ignore it.
func ForgetOpsBelow(c Communicator, floor uint32) {
	if m := mailboxOf(c); m != nil {
		m.forgetBelow(Tag(floor))
	}
}

// Queued is the number of messages c holds that no Recv has asked for
// yet (-1 for a backend without a mailbox); tests check that finished
// statements leave none.
func Queued(c Communicator) int {
	if m := mailboxOf(c); m != nil {
		return m.pending()
	}
	return -1
}

// withInbox is implemented by the backends built on a mailbox.
type withInbox interface{ inbox() *mailbox }

func mailboxOf(c Communicator) *mailbox {
	if w, ok := c.(withInbox); ok {
		return w.inbox()
	}
	return nil
}

// pending is the number of buffered messages (tests use it to check that
// nothing is left behind).
func (m *mailbox) pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, b := range m.boxes {
		n += len(b.q)
	}
	return n
}

// owingReceiver is implemented by the communicators built on a mailbox:
// Recv that gives up when a rank the caller waits for has left.
type owingReceiver interface {
	recvOwed(ctx context.Context, tag Tag, owes func(rank int) bool) (Message, error)
}

// recv is c.Recv that, where the backend can tell, fails instead of
// waiting for a rank that has left (owes(rank): the caller still expects
// a message from rank).
func recv(ctx context.Context, c Communicator, tag Tag, owes func(rank int) bool) (Message, error) {
	if o, ok := c.(owingReceiver); ok {
		return o.recvOwed(ctx, tag, owes)
	}
	return c.Recv(ctx, tag)
}

func checkRank(dst, n int) error {
	if dst < 0 || dst >= n {
		return errs.New(errs.Internal, "send to rank %d of %d", dst, n)
	}
	return nil
}
