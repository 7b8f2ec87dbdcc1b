package flight

import (
	"container/list"
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	"gq/catalog"
)

// Sessions. Each client has a session: its prepared statements, the
// bytes they hold, and (unless the server allows shared DDL) its own
// catalog over the shared one, where its CREATE VIEW, CREATE TABLE AS and
// DROP go. A session is named by something the client cannot forge:
//   - under basic auth, the session token the handshake returned: a
//     random 128-bit bearer secret, so holding it is being that client
//     (and a client's reconnects keep their session);
//   - otherwise (no auth, or the shared --auth-token, which every client
//     holds alike) the client's gRPC connection: the server tags each
//     accepted connection (a stats handler's TagConn) and the tag reaches
//     every call on it through the call's context, which no header or
//     cookie a client sends can change. The session ends when the
//     connection closes; a client that reconnects starts a new one.
//
// Sessions expire after an idle time (none of their calls running), token
// sessions also at an absolute lifetime, and they are bounded in number:
// past the bound the least recently used idle one goes. An expired
// session's tables, views and prepared statements are dropped with it.

// session is one client's state on the server.
type session struct {
	key     string // "t:"+token or "c:"+connection id
	user    string // the basic-auth user; "" for connection sessions
	token   bool
	created time.Time

	// Guarded by the store's mu.
	elem     *list.Element
	lastUsed time.Time
	active   int  // calls running on behalf of the session
	closed   bool // expired, evicted or its connection ended

	mu         sync.Mutex
	cat        *catalog.Catalog     // its own catalog over the shared one
	prepared   map[string]*prepared // its open prepared statements, by handle
	stmtBytes  int64                // their SQL and bound parameters
	tables     map[string]int64     // its CREATE TABLE AS tables' bytes
	tableBytes int64
	decimal64  *bool // the gq.wire_decimal64 session option; nil: the server's
}

// sessionStore holds the sessions, most recently used first.
type sessionStore struct {
	mu       sync.Mutex
	byKey    map[string]*session
	lru      *list.List
	idle     time.Duration
	lifetime time.Duration // token sessions' absolute lifetime
	max      int
	shared   *catalog.Catalog
	free     func(*session) // frees what a closed session held (under mu)
	connIDs  atomic.Uint64
}

func newSessionStore(shared *catalog.Catalog, idle, lifetime time.Duration, max int, free func(*session)) *sessionStore {
	return &sessionStore{byKey: map[string]*session{}, lru: list.New(), idle: idle, lifetime: lifetime,
		max: max, shared: shared, free: free}
}

// add makes a new session under key; the least recently used idle
// session goes when the store is full.
func (st *sessionStore) add(key, user string, token bool) *session {
	now := time.Now()
	s := &session{key: key, user: user, token: token, created: now, lastUsed: now,
		cat: st.shared.Session(), prepared: map[string]*prepared{}, tables: map[string]int64{}}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sweepLocked(now, false)
	for e := st.lru.Back(); len(st.byKey) >= st.max && e != nil; {
		prev := e.Prev()
		if old := e.Value.(*session); old.active == 0 {
			st.closeLocked(old)
		}
		e = prev
	}
	s.elem = st.lru.PushFront(s)
	st.byKey[key] = s
	return s
}

// acquire finds the session under key (making one for a connection key
// when create is set) and marks a call of it running; release ends that.
func (st *sessionStore) acquire(key string, create bool) (*session, bool) {
	st.mu.Lock()
	s, ok := st.byKey[key]
	if ok && st.expiredLocked(s, time.Now()) && s.active == 0 {
		st.closeLocked(s)
		ok = false
	}
	if ok {
		s.active++
		s.lastUsed = time.Now()
		st.lru.MoveToFront(s.elem)
		st.mu.Unlock()
		return s, true
	}
	st.mu.Unlock()
	if !create {
		return nil, false
	}
	s = st.add(key, "", false)
	st.mu.Lock()
	s.active++
	st.mu.Unlock()
	return s, true
}

func (st *sessionStore) release(s *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.active--
	s.lastUsed = time.Now()
	if !s.closed {
		st.lru.MoveToFront(s.elem)
	}
}

// touch checks a token session is alive and marks it used (IsValid).
func (st *sessionStore) touch(key string) (*session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.byKey[key]
	if !ok {
		return nil, false
	}
	now := time.Now()
	if st.expiredLocked(s, now) && s.active == 0 {
		st.closeLocked(s)
		return nil, false
	}
	s.lastUsed = now
	st.lru.MoveToFront(s.elem)
	return s, true
}

// remove closes the session under key (its connection ended).
func (st *sessionStore) remove(key string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.byKey[key]; ok {
		st.closeLocked(s)
	}
}

func (st *sessionStore) expiredLocked(s *session, now time.Time) bool {
	return now.Sub(s.lastUsed) > st.idle || s.token && now.Sub(s.created) > st.lifetime
}

// sweep closes the expired sessions that run no call: idle ones from the
// back of the list (so a sweep costs what it frees), and with all set
// every token past its lifetime too.
func (st *sessionStore) sweep(all bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sweepLocked(time.Now(), all)
}

func (st *sessionStore) sweepLocked(now time.Time, all bool) {
	for e := st.lru.Back(); e != nil; {
		s := e.Value.(*session)
		prev := e.Prev()
		if now.Sub(s.lastUsed) <= st.idle && !all {
			break
		}
		if s.active == 0 && st.expiredLocked(s, now) {
			st.closeLocked(s)
		}
		e = prev
	}
}

func (st *sessionStore) closeLocked(s *session) {
	if s.closed {
		return
	}
	s.closed = true
	delete(st.byKey, s.key)
	st.lru.Remove(s.elem)
	st.free(s)
}

func (st *sessionStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.byKey)
}

// connTagger is the gRPC stats handler that names each connection: the
// tag in a call's context is its connection's session key, and a closed
// connection's session is dropped.
type connTagger struct{ st *sessionStore }

type connKey struct{}

func (c connTagger) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return context.WithValue(ctx, connKey{}, "c:"+strconv.FormatUint(c.st.connIDs.Add(1), 10))
}

func (c connTagger) HandleConn(ctx context.Context, s stats.ConnStats) {
	if _, end := s.(*stats.ConnEnd); end {
		if k, ok := ctx.Value(connKey{}).(string); ok {
			c.st.remove(k)
		}
	}
}

func (connTagger) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (connTagger) HandleRPC(context.Context, stats.RPCStats)                       {}

// session is the calling client's session, marked in use until the
// returned func runs.
func (s *Server) session(ctx context.Context) (*session, func(), error) {
	if tok, ok := flight.AuthFromContext(ctx).(*session); ok {
		sess, ok := s.sessions.acquire(tok.key, false)
		if !ok {
			return nil, nil, status.Error(codes.Unauthenticated, "the session expired: authenticate again")
		}
		return sess, func() { s.sessions.release(sess) }, nil
	}
	key, ok := ctx.Value(connKey{}).(string)
	if !ok {
		return nil, nil, status.Error(codes.Internal, "a call without a connection")
	}
	sess, _ := s.sessions.acquire(key, true)
	return sess, func() { s.sessions.release(sess) }, nil
}

// freeSession drops what a closed session held: its catalog (its tables
// and views), its prepared statements and their bytes.
func (s *Server) freeSession(sess *session) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	s.paramBytes.Add(-sess.stmtBytes)
	s.tableBytes.Add(-sess.tableBytes)
	// A catalog that can give back what its tables hold (the engine's
	// reservations for them) is told to; otherwise dropping the last
	// reference frees them.
	if c, ok := any(sess.cat).(interface{ Close() }); ok && sess.cat != nil {
		c.Close()
	}
	sess.cat = nil
	sess.prepared = nil
	sess.tables = nil
	sess.stmtBytes, sess.tableBytes = 0, 0
	if sess.user != "" || sess.token {
		s.log.Info("session closed", "user", sess.user, "age", time.Since(sess.created).Round(time.Second))
	}
}

// janitor sweeps expired sessions until stop closes, so that idle
// sessions free their memory without waiting for the next call.
func (s *Server) janitor(stop <-chan struct{}) {
	every := min(max(s.cfg.SessionIdleTimeout/4, 10*time.Millisecond), 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	n := 0
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			n++
			// Tokens past their lifetime may sit anywhere in the list: a
			// full scan once a minute or so.
			s.sessions.sweep(n%max(1, int(time.Minute/every)) == 0)
		}
	}
}
