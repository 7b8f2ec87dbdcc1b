package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
	"gq/shuffle"
)

// ExchangeKind says how an Exchange moves rows between ranks.
type ExchangeKind int

const (
	// ExchangeHash sends each row to the rank that owns the hash of Keys:
	// afterwards equal keys are on one rank (joins, group-bys, distinct).
	ExchangeHash ExchangeKind = iota
	// ExchangeBroadcast sends every row to every rank (allgather): small
	// join build sides, inputs of global aggregates.
	ExchangeBroadcast
	// ExchangeGather sends every row to rank 0; the other ranks emit none.
	ExchangeGather
	// ExchangeKeepRoot moves nothing: rank 0 passes a replicated input
	// through, the others drop it, so the rows exist once across ranks.
	ExchangeKeepRoot
)

func (k ExchangeKind) String() string {
	return [...]string{"hash", "broadcast", "gather", "keep-root"}[k]
}

// Exchange is the node that moves rows between the ranks of an SPMD job
// through a shuffle.Shuffler. Every rank's plan holds the same exchanges
// with the same Op ids (assigned from the plan), so the ranks' shuffles
// meet. Rows travel as Arrow IPC streams, one per chunk.
type Exchange struct {
	Kind  ExchangeKind
	Input Node
	Keys  []expr.Expr // ExchangeHash: the partitioning keys
	Comm  shuffle.Communicator
	Op    uint32
	Stats *shuffle.Statistics // may be nil
}

func (e *Exchange) Schema() *arrow.Schema { return e.Input.Schema() }
func (e *Exchange) Children() []Node      { return []Node{e.Input} }
func (e *Exchange) Explain() string {
	if e.Kind == ExchangeKeepRoot {
		return "Exchange keep-root"
	}
	return fmt.Sprintf("Exchange %s op=%d", e.Kind, e.Op)
}

// Open runs a sender, which encodes input batches and inserts them into
// the shuffle, and a receiver, which emits this rank's chunks as they
// arrive (Shuffler.Next) until its partitions are complete. A failure of
// either, or a peer's abort, fails the query.
func (e *Exchange) Open(c *Context) <-chan arrow.RecordBatch {
	in := e.Input.Open(c)
	if e.Kind == ExchangeKeepRoot {
		return e.keepRoot(c, in)
	}
	if e.Comm == nil {
		return failedDrain(c, in, errs.New(errs.Internal, "exchange op %d has no communicator", e.Op))
	}
	n := e.Comm.NRanks()
	nparts, assign := n, shuffle.RoundRobin
	if e.Kind == ExchangeGather {
		nparts, assign = 1, shuffle.Contiguous
	}
	// Received chunks wait in c.Mem's HOST tier, spillable, until emitted.
	sh := shuffle.NewShuffler(e.Comm, e.Op, nparts, assign, e.Stats, shuffle.WithMemory(c.Mem, c.Stats))
	var part *partitioner
	if e.Kind == ExchangeHash {
		p, err := newPartitioner(e.Keys, n)
		if err != nil {
			return failedDrain(c, in, err)
		}
		part = p
	}
	st := RunState[exchangeRun](c, e)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer drainLater(c, in)
		for b := range in {
			err := e.insert(c, st, sh, part, b)
			b.Release()
			if err != nil {
				return err
			}
		}
		if err := c.Err(); err != nil {
			return err
		}
		return sh.InsertFinished()
	})
	c.Go(func() error {
		defer close(out)
		defer sh.Shutdown()
		schema := e.Input.Schema()
		for {
			pid, chunk, err := sh.Next(c)
			if err != nil {
				return err
			}
			if pid < 0 {
				return nil
			}
			st.received.Add(int64(len(chunk)))
			// Decoding copies into the query's allocator, so the chunk's
			// bytes can go back to the receive pool at once.
			err = decodeBatches(c, chunk, schema, func(b arrow.RecordBatch) bool { return Send(c, out, b) })
			shuffle.Release(chunk)
			if err != nil {
				return err
			}
			if c.Err() != nil {
				return c.Err()
			}
		}
	})
	return out
}

// insert sends one input batch: whole to rank 0 (gather) or to every
// partition (broadcast), or split by key hash.
func (e *Exchange) insert(c *Context, st *exchangeRun, sh *shuffle.Shuffler, part *partitioner, b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	switch e.Kind {
	case ExchangeGather:
		data, err := encodeBatch(b)
		if err != nil {
			return err
		}
		return st.insertChunk(sh, 0, data)
	case ExchangeBroadcast:
		data, err := encodeBatch(b)
		if err != nil {
			return err
		}
		data = data[:len(data):len(data)] // one buffer, many inserts: no room to write into
		for pid := range e.Comm.NRanks() {
			if err := st.insertChunk(sh, pid, data); err != nil {
				return err
			}
		}
		return nil
	}
	if pb, ok := b.(*partBatch); ok && pb.Parts == part.nparts {
		data, err := encodeBatch(pb.RecordBatch)
		if err != nil {
			return err
		}
		st.devParted.Add(1)
		return st.insertChunk(sh, pb.Part, data)
	}
	parts, err := part.Split(c, b)
	if err != nil {
		return err
	}
	for pid, pb := range parts {
		if pb == nil {
			continue
		}
		data, err := encodeBatch(pb)
		pb.Release()
		if err != nil {
			releaseParts(parts[pid+1:])
			return err
		}
		if err := st.insertChunk(sh, pid, data); err != nil {
			releaseParts(parts[pid+1:])
			return err
		}
	}
	return nil
}

func releaseParts(bs []arrow.RecordBatch) {
	for _, b := range bs {
		if b != nil {
			b.Release()
		}
	}
}

func (e *Exchange) keepRoot(c *Context, in <-chan arrow.RecordBatch) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	root := e.Comm == nil || e.Comm.Rank() == 0
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		for b := range in {
			if !root {
				b.Release()
				continue
			}
			if !Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// AbortExchanges tells every peer that this rank's query failed, on each
// of the query's exchange ops, so peers waiting in those shuffles fail
// promptly instead of waiting for chunks that will never come.
func AbortExchanges(comm shuffle.Communicator, ops []uint32, err error) {
	for _, op := range ops {
		shuffle.NewShuffler(comm, op, 1, shuffle.Contiguous, nil).Abort(err)
	}
}
