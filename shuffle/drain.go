package shuffle

import (
	"context"
	"time"

	"gq/errs"
)

// The progress goroutine of a Shuffler made WithMemory: it receives the
// shuffle's messages as they arrive and files each chunk in its
// partition's (accounted, spillable) store, so received data never waits
// unaccounted in the communicator's queues while the consumer is busy.
// Consumers (WaitAny, WaitOn, Next) wait for it to signal a change.
// It starts with the first consumer call and ends once every local
// partition is complete, at the first error, or at Shutdown.

// startDraining starts the progress goroutine once.
func (s *Shuffler) startDraining() {
	s.drainOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		s.dmu.Lock()
		s.stopDrain, s.drained = cancel, make(chan struct{})
		s.dmu.Unlock()
		go s.drain(ctx)
	})
}

// stopDraining ends the progress goroutine and waits for it.
func (s *Shuffler) stopDraining() {
	s.drainOnce.Do(func() {}) // none may start after this
	s.dmu.Lock()
	stop, drained := s.stopDrain, s.drained
	s.dmu.Unlock()
	if stop != nil {
		stop()
		<-drained
	}
	s.failDrain(errs.New(errs.Internal, "shuffle %d used after Shutdown", s.op))
}

func (s *Shuffler) drain(ctx context.Context) {
	defer close(s.drained)
	n := s.comm.NRanks()
	for {
		s.dmu.Lock()
		done := s.allCompleteLocked(n)
		s.dmu.Unlock()
		if done {
			return
		}
		// finFrom is written only here, so the owes test needs no lock.
		msg, err := s.recv(ctx)
		if err != nil {
			s.failDrain(err)
			return
		}
		loop := time.Now()
		s.dmu.Lock()
		err = s.handle(msg)
		s.notifyLocked()
		s.dmu.Unlock()
		if err != nil {
			s.failDrain(err)
			return
		}
		s.stats.addDuration(StatEventLoop, loop)
	}
}

func (s *Shuffler) allCompleteLocked(n int) bool {
	for _, p := range s.parts {
		if !p.complete(n) {
			return false
		}
	}
	return true
}

// notifyLocked wakes every consumer waiting for a change.
func (s *Shuffler) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Shuffler) failDrain(err error) {
	s.dmu.Lock()
	defer s.dmu.Unlock()
	if s.drainErr == nil {
		s.drainErr = err
	}
	s.notifyLocked()
}

// await waits for the progress goroutine's next change.
func await(ctx context.Context, changed <-chan struct{}) error {
	select {
	case <-changed:
		return nil
	case <-ctx.Done():
		return errs.Wrap(errs.Cancelled, ctx.Err(), "waiting for a shuffle")
	}
}

// waitDrained is wait for a shuffler with a progress goroutine.
func (s *Shuffler) waitDrained(ctx context.Context, want int) (int, error) {
	s.startDraining()
	s.recvMu.Lock()
	defer s.recvMu.Unlock()
	n := s.comm.NRanks()
	for {
		start := time.Now()
		s.dmu.Lock()
		if want >= 0 {
			if s.parts[want].complete(n) {
				s.markReturned(want)
				s.dmu.Unlock()
				return want, nil
			}
		} else {
			if s.remaining == 0 {
				s.dmu.Unlock()
				return -1, nil
			}
			for pid, p := range s.parts {
				if !s.returned[pid] && p.complete(n) {
					s.markReturned(pid)
					s.dmu.Unlock()
					return pid, nil
				}
			}
		}
		err, changed := s.drainErr, s.changed
		s.dmu.Unlock()
		s.stats.addDuration(StatCheckFinished, start)
		if err != nil {
			return -1, err
		}
		if err := await(ctx, changed); err != nil {
			return -1, err
		}
	}
}

// nextDrained is Next for a shuffler with a progress goroutine.
func (s *Shuffler) nextDrained(ctx context.Context) (int, []byte, error) {
	s.startDraining()
	s.recvMu.Lock()
	defer s.recvMu.Unlock()
	n := s.comm.NRanks()
	for {
		for id, p := range s.parts {
			c, ok, err := p.store.pop()
			if err != nil {
				return -1, nil, err
			}
			if ok {
				return id, c, nil
			}
		}
		// Chunks are filed under dmu, so this look is consistent: if a
		// chunk arrived since the pops above, go round again rather than
		// wait for a change that has already happened.
		s.dmu.Lock()
		held, done := false, s.allCompleteLocked(n)
		for _, p := range s.parts {
			if p.store.len() > 0 {
				held = true
			}
		}
		err, changed := s.drainErr, s.changed
		s.dmu.Unlock()
		switch {
		case held:
			continue
		case done:
			return -1, nil, nil
		case err != nil:
			return -1, nil, err
		}
		if err := await(ctx, changed); err != nil {
			return -1, nil, err
		}
	}
}
