package memory

import (
	"slices"
	"sync"
	"time"
)

// Spillable is a buffer the spill manager may move one tier down (DEVICE
// → HOST, HOST → DISK) to free memory of a tier.
//
// Spill is called from other goroutines than the owner's: it must lock the
// buffer itself and, when the owner is using it (TryLock fails), return 0
// rather than wait — a Reserve made by the owner while it holds its own
// lock would otherwise deadlock. It frees at least n bytes of tier t where
// it can (it may free more: a buffer spills whole), releases the
// reservation that covered them and returns the bytes freed.
type Spillable interface {
	Spill(t Tier, n int64) int64
}

// SpillID names a registration with a SpillManager.
type SpillID uint64

type spillEntry struct {
	id       SpillID
	priority int
	s        Spillable
}

// SpillManager keeps the spillable buffers of a BufferResource, each with a
// priority, and spills the lowest-priority ones first (oldest first among
// equals).
type SpillManager struct {
	br      *BufferResource
	mu      sync.Mutex
	next    SpillID
	entries []spillEntry // sorted by priority, then id

	spillMu sync.Mutex // one spill pass at a time
	stop    chan struct{}
	done    chan struct{}
}

// Add registers s with priority (lower spills first) and returns its id
// for Remove.
func (m *SpillManager) Add(s Spillable, priority int) SpillID {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	e := spillEntry{id: m.next, priority: priority, s: s}
	i, _ := slices.BinarySearchFunc(m.entries, e, func(a, b spillEntry) int {
		if a.priority != b.priority {
			return a.priority - b.priority
		}
		return int(a.id - b.id)
	})
	m.entries = slices.Insert(m.entries, i, e)
	return e.id
}

// Remove unregisters id (a no-op when it is not registered).
func (m *SpillManager) Remove(id SpillID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = slices.DeleteFunc(m.entries, func(e spillEntry) bool { return e.id == id })
}

// Len is the number of registered buffers.
func (m *SpillManager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// Spill frees at least n bytes of tier t as a reservation that does not
// fit does (spill), for a caller whose bytes are reserved but whose
// memory is in pieces: a device pool with no free span large enough.
func (m *SpillManager) Spill(t Tier, n int64) int64 { return m.spill(t, n) }

// spill frees at least n bytes of tier t by spilling registered buffers,
// lowest priority first, and returns the bytes freed (less than n when
// there was not enough to spill). n = Unlimited spills everything.
func (m *SpillManager) spill(t Tier, n int64) int64 {
	if n <= 0 {
		return 0
	}
	m.spillMu.Lock()
	defer m.spillMu.Unlock()
	m.mu.Lock()
	entries := slices.Clone(m.entries)
	m.mu.Unlock()
	var freed int64
	for _, e := range entries {
		if freed >= n {
			break
		}
		freed += e.s.Spill(t, n-freed)
	}
	return freed
}

// StartPeriodicCheck starts rapidsmpf's periodic_spill_check: every
// interval, each limited tier that is overbooked (more reserved than its
// limit) is spilled back under its limit, ahead of the next Reserve. In
// SpillAlways mode everything spillable is spilled at every check. Close
// of the BufferResource stops it; a second call replaces the first.
func (m *SpillManager) StartPeriodicCheck(interval time.Duration) {
	m.stopPeriodic()
	stop, done := make(chan struct{}), make(chan struct{})
	m.mu.Lock()
	m.stop, m.done = stop, done
	m.mu.Unlock()
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				m.check()
			}
		}
	}()
}

// check runs one periodic spill pass.
func (m *SpillManager) check() {
	for t := range Tier(NumTiers) {
		if m.br.spillAlways {
			m.spill(t, Unlimited)
			continue
		}
		if !m.br.Limited(t) {
			continue
		}
		if over := -m.br.Available(t); over > 0 {
			m.spill(t, over)
		}
	}
}

func (m *SpillManager) stopPeriodic() {
	m.mu.Lock()
	stop, done := m.stop, m.done
	m.stop, m.done = nil, nil
	m.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}
