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
}

const tombstoneTTL = 10 * time.Minute

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
	for k, t := range r.cancelled {
		if now.Sub(t) > tombstoneTTL {
			delete(r.cancelled, k)
		}
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
