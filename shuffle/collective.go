package shuffle

import (
	"context"

	"gq/errs"
)

// The collectives below exchange one buffer per rank under a tag that the
// ranks agree on (an op id). They are built on plain Send/Recv: each rank
// sends before it waits, so no ordering between ranks is needed.

// AllGather sends data to every rank and returns every rank's buffer,
// indexed by rank.
func AllGather(ctx context.Context, c Communicator, op uint32, data []byte) ([][]byte, error) {
	return allGather(ctx, c, Tag(op), data)
}

func allGather(ctx context.Context, c Communicator, tag Tag, data []byte) ([][]byte, error) {
	n := c.NRanks()
	for r := range n {
		if err := c.Send(r, tag, append([]byte(nil), data...)); err != nil {
			return nil, err
		}
	}
	return collect(ctx, c, tag, n)
}

// Tags of gq's own exchanges, above every op id (op ids are 32-bit).
const (
	tagBootstrapBarrier Tag = 1<<32 + iota
)

// barrier returns once every rank has entered it.
func barrier(ctx context.Context, c Communicator, tag Tag) error {
	_, err := allGather(ctx, c, tag, nil)
	return err
}

// Gather returns, on root, every rank's buffer indexed by rank; other
// ranks get nil.
func Gather(ctx context.Context, c Communicator, op uint32, root int, data []byte) ([][]byte, error) {
	if err := c.Send(root, Tag(op), data); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	return collect(ctx, c, Tag(op), c.NRanks())
}

// broadcast returns root's data on every rank.
func broadcast(ctx context.Context, c Communicator, op uint32, root int, data []byte) ([]byte, error) {
	if c.Rank() == root {
		for r := range c.NRanks() {
			if r != root {
				if err := c.Send(r, Tag(op), append([]byte(nil), data...)); err != nil {
					return nil, err
				}
			}
		}
		return data, nil
	}
	m, err := recv(ctx, c, Tag(op), func(r int) bool { return r == root })
	if err != nil {
		return nil, err
	}
	if m.Src != root {
		return nil, errs.New(errs.Communication, "broadcast %d: message from rank %d, want root %d", op, m.Src, root)
	}
	return m.Data, nil
}

func collect(ctx context.Context, c Communicator, tag Tag, n int) ([][]byte, error) {
	out := make([][]byte, n)
	seen := make([]bool, n)
	for range n {
		m, err := recv(ctx, c, tag, func(r int) bool { return !seen[r] })
		if err != nil {
			return nil, err
		}
		if seen[m.Src] {
			return nil, errs.New(errs.Communication, "collective %d: two messages from rank %d", tag, m.Src)
		}
		seen[m.Src] = true
		out[m.Src] = m.Data
	}
	return out, nil
}
