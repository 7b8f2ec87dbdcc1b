package flight

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// registry tracks queries by id so that CancelFlightInfo can stop one: a
// running query's cancel func, and ids cancelled before their DoGet came
// (kept for tombstoneTTL so a late DoGet fails instead of running).
type registry struct {
	mu        sync.Mutex
	running   map[string]context.CancelFunc
	cancelled map[string]time.Time
	swept     time.Time // the last sweep of expired tombstones
}

// Any client may cancel any id, issued or not, and each leaves a
// tombstone: they are bounded by maxTombstones, or a flood of made-up ids
// would grow the server for tombstoneTTL. Past the bound the oldest
// protection gives way (a query cancelled before its DoGet may then run);
// the server stays up.
const (
	tombstoneTTL  = 10 * time.Minute
	maxTombstones = 100000
)

func (r *registry) init() {
	r.running = map[string]context.CancelFunc{}
	r.cancelled = map[string]time.Time{}
}

// start records a running query; it fails when the id was cancelled.
func (r *registry) start(id string, cancel context.CancelFunc) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, gone := r.cancelled[id]; gone {
		return false
	}
	r.running[id] = cancel
	return true
}

func (r *registry) finish(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, id)
}

// cancel stops query id, or marks it so that it never starts; it reports
// whether the query was running.
func (r *registry) cancel(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	// Sweeping on every cancel made a request with many ids quadratic,
	// holding r.mu (so every query's start and end) for minutes: sweep
	// once per TTL, or when full, and then down to 3/4 of the bound, so
	// that a cancel costs O(1) amortized. The sweep copies the survivors
	// into a new map: deleting from the old one under a steady flood left
	// its table growing (the soak saw 50 MiB for 100000 entries).
	if len(r.cancelled) >= maxTombstones || now.Sub(r.swept) > tombstoneTTL {
		r.swept = now
		kept := make(map[string]time.Time, min(len(r.cancelled), maxTombstones*3/4))
		for k, t := range r.cancelled { // past the bound any go (map order)
			if now.Sub(t) <= tombstoneTTL && len(kept) < maxTombstones*3/4 {
				kept[k] = t
			}
		}
		r.cancelled = kept
	}
	r.cancelled[id] = now
	c, ok := r.running[id]
	if ok {
		c()
	}
	return ok
}

func (r *registry) cancelAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.running {
		c()
	}
}

// newID is a random query or statement id: unguessable, so that one
// client cannot cancel or use another's by counting.
func newID() string {
	var b [idLen / 2]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

const idLen = 32
