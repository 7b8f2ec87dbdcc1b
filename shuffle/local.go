package shuffle

import (
	"context"

	"gq/errs"
)

// Local is the communicator of one rank among goroutines in one process:
// Send appends to the receiver's mailbox directly. Closing any rank of the
// group fails the others, like a peer process exiting would.
type Local struct {
	rank  int
	group *localGroup
}

type localGroup struct {
	boxes []*mailbox
}

// NewLocal returns the communicators of an n-rank job in this process,
// indexed by rank.
func NewLocal(n int) []*Local {
	g := &localGroup{boxes: make([]*mailbox, n)}
	out := make([]*Local, n)
	for r := range n {
		g.boxes[r] = newMailbox()
		out[r] = &Local{rank: r, group: g}
	}
	return out
}

func (l *Local) Rank() int       { return l.rank }
func (l *Local) NRanks() int     { return len(l.group.boxes) }
func (l *Local) Backend() string { return "local" }

func (l *Local) Send(dst int, tag Tag, data []byte) error {
	if err := checkRank(dst, l.NRanks()); err != nil {
		return err
	}
	if err := l.group.boxes[l.rank].failure(); err != nil {
		return err
	}
	l.group.boxes[dst].put(tag, Message{Src: l.rank, Data: data})
	return nil
}

func (l *Local) Recv(ctx context.Context, tag Tag) (Message, error) {
	return l.group.boxes[l.rank].get(ctx, tag, nil)
}

func (l *Local) recvOwed(ctx context.Context, tag Tag, owes func(int) bool) (Message, error) {
	return l.group.boxes[l.rank].get(ctx, tag, owes)
}

func (l *Local) inbox() *mailbox         { return l.group.boxes[l.rank] }
func (l *Local) Failed() <-chan struct{} { return l.group.boxes[l.rank].failed }
func (l *Local) Err() error              { return l.group.boxes[l.rank].failure() }

// Close ends this rank: the others learn it left (so none waits for it
// in vain). A rank that dies abnormally is modelled by Kill.
func (l *Local) Close() error {
	for r, b := range l.group.boxes {
		if r != l.rank {
			b.leave(l.rank)
		}
	}
	return nil
}

// Kill fails every rank of the group as if this rank had died (tests of
// failure handling).
func (l *Local) Kill() {
	err := errs.New(errs.Communication, "lost rank %d (local backend: rank killed)", l.rank)
	for _, b := range l.group.boxes {
		b.fail(err)
	}
}
