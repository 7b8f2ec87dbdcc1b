package engine

import (
	"context"
	"encoding/json"
	"sync"

	"gq/errs"
	"gq/shuffle"
)

// Serving under ranks. A server's rank 0 takes statements from clients;
// every rank must run each of them, in the same order, for the SPMD
// exchanges to meet (see ranks.go). So rank 0 broadcasts each statement
// to the other ranks ("followers", FollowStatements), runs it itself and
// streams its (gathered) result, then collects every follower's outcome.
// Statements are serialized: one runs across the ranks at a time, the
// others wait their turn at rank 0 (their context can end the wait).
// Before each statement rank 0 also sends the statement sequence number
// every rank starts from, so a statement cancelled on some ranks before
// it reached its exchanges cannot leave the ranks' op ids apart.

// The serve tags sit far above the exchanges' op ids (uint32) and the
// bootstrap's tags (1<<32 + small).
const (
	tagServeStatement shuffle.Tag = 1<<40 + iota // rank 0 → followers: statement or stop
	tagServeCancel                               // rank 0 → followers: cancel statement ID
	tagServeDone                                 // followers → rank 0: statement ID finished
)

// serveState is rank 0's broadcast bookkeeping.
type serveState struct {
	once sync.Once
	turn chan struct{} // holds one token: the right to run a statement
	next uint64        // the next statement id (under turn)
}

type statementMsg struct {
	ID   uint64 `json:"id"`
	SQL  string `json:"sql,omitempty"`
	Seq  uint32 `json:"seq"`
	Stop bool   `json:"stop,omitempty"`
}

type doneMsg struct {
	ID   uint64 `json:"id"`
	Rank int    `json:"rank"`
	Seq  uint32 `json:"seq"`
	Kind string `json:"kind,omitempty"`
	Err  string `json:"err,omitempty"`
}

// ServeStream is QueryStream for a server: under the per-query memory
// limit, and with several ranks (on rank 0) broadcast to every rank.
func (e *Engine) ServeStream(ctx context.Context, sql string) (*Stream, error) {
	if !e.distributed() {
		return e.limitedStream(ctx, sql)
	}
	if e.Rank() != 0 {
		return nil, errs.New(errs.Internal, "rank %d cannot serve statements: rank 0 serves", e.Rank())
	}
	return e.leadStatement(ctx, sql)
}

// leadStatement runs sql on every rank (rank 0's part of ServeStream).
func (e *Engine) leadStatement(ctx context.Context, sql string) (*Stream, error) {
	st := &e.serve
	st.once.Do(func() { st.turn = make(chan struct{}, 1) })
	select {
	case st.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, errs.Wrap(errs.Cancelled, ctx.Err(), "waiting for the ranks")
	}
	id := st.next
	st.next++
	comm := e.opts.Comm
	msg, _ := json.Marshal(statementMsg{ID: id, SQL: sql, Seq: e.ranks.seq.Load()})
	for r := 1; r < comm.NRanks(); r++ {
		if err := comm.Send(r, tagServeStatement, msg); err != nil {
			// Some followers may have it: the job is broken anyway (the
			// communicator failed), so the turn is not given back.
			return nil, errs.Wrap(errs.Communication, err, "broadcasting a statement to rank %d", r)
		}
	}
	// A client that goes away cancels the statement on every rank; rank 0
	// may have stopped before its exchanges, where the others wait.
	stopCancel := context.AfterFunc(ctx, func() {
		cm, _ := json.Marshal(id)
		for r := 1; r < comm.NRanks(); r++ {
			comm.Send(r, tagServeCancel, cm)
		}
	})
	finish := func(err error) error {
		stopCancel()
		ferr := e.collectDone(id)
		<-st.turn
		switch {
		case ferr == nil || ctx.Err() != nil:
		case err == nil:
			err = ferr // rank 0 succeeded where a follower did not
		case errs.KindOf(ferr) == errs.ResourcesExhausted && errs.KindOf(err) != errs.ResourcesExhausted:
			err = ferr // rank 0 failed because that follower ran out of memory: say so
		}
		return err
	}
	inner, err := e.limitedStream(ctx, sql)
	if err != nil {
		return nil, finish(err)
	}
	return wrapStream(inner, finish), nil
}

// collectDone waits for every follower's outcome of statement id, moves
// rank 0's sequence past every rank's, and returns the first follower's
// error.
func (e *Engine) collectDone(id uint64) error {
	comm := e.opts.Comm
	var first error
	seq := e.ranks.seq.Load()
	for got := 1; got < comm.NRanks(); {
		m, err := comm.Recv(context.Background(), tagServeDone)
		if err != nil {
			return errs.Wrap(errs.Communication, err, "waiting for the ranks to finish a statement")
		}
		var d doneMsg
		if err := json.Unmarshal(m.Data, &d); err != nil {
			return errs.Wrap(errs.Communication, err, "a malformed message from rank %d", m.Src)
		}
		if d.ID != id {
			continue // a late answer to an earlier statement: cannot happen, statements are serialized
		}
		got++
		seq = max(seq, d.Seq)
		if d.Err != "" && first == nil {
			first = errs.New(kindNamed(d.Kind), "rank %d: %s", d.Rank, d.Err)
		}
	}
	e.ranks.seq.Store(seq)
	return first
}

// StopFollowers ends the FollowStatements loops of the other ranks (rank
// 0, at server shutdown).
func (e *Engine) StopFollowers() {
	if !e.distributed() || e.Rank() != 0 {
		return
	}
	msg, _ := json.Marshal(statementMsg{Stop: true})
	for r := 1; r < e.opts.Comm.NRanks(); r++ {
		e.opts.Comm.Send(r, tagServeStatement, msg)
	}
}

// FollowStatements is a server's loop on ranks other than 0: it runs the
// statements rank 0 broadcasts, discarding their results (rank 0 has them
// gathered), until rank 0 says stop (nil), ctx ends or the communicator
// fails.
func (e *Engine) FollowStatements(ctx context.Context) error {
	comm := e.opts.Comm
	if comm == nil || comm.Rank() == 0 {
		return errs.New(errs.Internal, "FollowStatements runs on ranks other than 0")
	}
	var (
		mu            sync.Mutex
		cur           uint64
		curCancel     context.CancelFunc
		cancelledUpTo uint64 // statements below this id are cancelled
	)
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	go func() {
		for {
			m, err := comm.Recv(lctx, tagServeCancel)
			if err != nil {
				return
			}
			var id uint64
			if json.Unmarshal(m.Data, &id) != nil {
				continue
			}
			mu.Lock()
			cancelledUpTo = max(cancelledUpTo, id+1)
			if cur == id && curCancel != nil {
				curCancel()
			}
			mu.Unlock()
		}
	}()
	for {
		m, err := comm.Recv(ctx, tagServeStatement)
		if err != nil {
			return err
		}
		var st statementMsg
		if err := json.Unmarshal(m.Data, &st); err != nil {
			return errs.Wrap(errs.Communication, err, "a malformed statement from rank %d", m.Src)
		}
		if st.Stop {
			return nil
		}
		e.ranks.seq.Store(st.Seq)
		sctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		cur, curCancel = st.ID, cancel
		if st.ID < cancelledUpTo {
			cancel()
		}
		mu.Unlock()
		rerr := e.drainStatement(sctx, st.SQL)
		mu.Lock()
		curCancel = nil
		mu.Unlock()
		cancel()
		d := doneMsg{ID: st.ID, Rank: comm.Rank(), Seq: e.ranks.seq.Load()}
		if rerr != nil {
			d.Kind, d.Err = errs.KindOf(rerr).Error(), rerr.Error()
		}
		out, _ := json.Marshal(d)
		if err := comm.Send(0, tagServeDone, out); err != nil {
			return err
		}
	}
}

// drainStatement runs sql and discards its result.
func (e *Engine) drainStatement(ctx context.Context, sql string) error {
	s, err := e.limitedStream(ctx, sql)
	if err != nil {
		return err
	}
	defer s.Close()
	for {
		b, ok := s.Next()
		if !ok {
			break
		}
		b.Release()
	}
	return s.Err()
}

// kindNamed is the kind a peer named (Internal for a name this build
// does not know).
func kindNamed(name string) *errs.Kind {
	if k := errs.KindNamed(name); k != nil {
		return k
	}
	return errs.Internal
}
