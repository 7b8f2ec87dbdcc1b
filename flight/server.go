package flight

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"gq/engine"
	"gq/errs"
)

// Config is a server's settings.
type Config struct {
	Engine *engine.Engine
	// AuthToken, when set, is a bearer token every request must carry.
	// Users (user → password), when set, enables basic auth through the
	// Flight handshake, which hands out a session bearer token. With
	// neither, the server asks for no authentication.
	AuthToken string
	Users     map[string]string
	// TLS, when set, serves over TLS only.
	TLS *tls.Config
	// MaxConcurrentQueries bounds the queries that run at once; further
	// ones wait in line (0: no bound). QueryTimeout bounds one query's
	// run, queue time included (0: none).
	MaxConcurrentQueries int
	QueryTimeout         time.Duration
	// AllowDDL sends every client's CREATE VIEW, CREATE TABLE AS and DROP
	// to the shared catalog, as a trusted single-user server wants;
	// without it each session's DDL touches only its own objects.
	AllowDDL bool
	// SessionIdleTimeout ends a session none of whose calls ran for that
	// long, freeing its tables, views and prepared statements (0: 30
	// minutes). TokenLifetime ends a basic-auth session token that long
	// after its handshake however busy (0: 12 hours). MaxSessions bounds
	// the sessions and tokens held (0: 10,000).
	SessionIdleTimeout time.Duration
	TokenLifetime      time.Duration
	MaxSessions        int
	// Per-session quotas (0: the defaults below): open prepared
	// statements; the bytes of one statement's SQL and bound parameters,
	// and of all of a session's; the bytes of a session's CREATE TABLE AS
	// tables. All tables together stay under the engine's host memory
	// limit (the engine holds a reservation for each), and all sessions'
	// statements under MaxParamBytesTotal.
	MaxPrepared          int
	MaxStatementBytes    int64
	MaxSessionStmtBytes  int64
	MaxParamBytesTotal   int64
	MaxSessionTableBytes int64
	// StreamIdleTimeout cancels a query whose client has not taken a
	// batch for that long, freeing its slot (0: 60 s; negative: never).
	StreamIdleTimeout time.Duration
	// ShutdownGrace is how long Shutdown waits for calls in flight before
	// it closes their connections (0: 750 ms, so that Shutdown returns
	// within a second).
	ShutdownGrace time.Duration
	// WireDecimal64 sends gq's DECIMAL columns as Arrow decimal64, as the
	// engine holds them, rather than as decimal128, which far more Arrow
	// readers know (wire.go); a session may choose for itself with the
	// gq.wire_decimal64 session option.
	WireDecimal64 bool
	// Version is the server version GetSqlInfo reports.
	Version string
	// Logger receives one record per query and per server event (nil:
	// slog.Default()).
	Logger *slog.Logger
}

// Defaults of the Config limits left 0. A bound parameter set cannot
// exceed one gRPC message (grpc-go's default receive limit is 4 MiB), so
// a statement's SQL and parameters fit in 8 MiB; a session gets the room
// for a few such statements and a thousand ordinary ones, and all bound
// parameters together a small share of a server's memory.
const (
	defaultSessionIdle       = 30 * time.Minute
	defaultTokenLifetime     = 12 * time.Hour
	defaultMaxSessions       = 10000
	defaultMaxPrepared       = 1000
	defaultStatementBytes    = 8 << 20
	defaultSessionStmtBytes  = 64 << 20
	defaultParamBytesTotal   = 1 << 30
	defaultSessionTableBytes = 1 << 30
	defaultStreamIdle        = 60 * time.Second
	defaultShutdownGrace     = 750 * time.Millisecond
)

// Server is a Flight SQL service over one engine.
type Server struct {
	flightsql.BaseServer
	eng   *engine.Engine
	cfg   Config
	log   *slog.Logger
	slots chan struct{} // nil: unbounded
	auth  *authenticator

	queries  registry // running and cancelled queries, by id
	sessions *sessionStore
	// paramBytes is every session's prepared statements' bytes;
	// tableBytes every session's CREATE TABLE AS tables' (the engine
	// counts all tables under its memory limit; these are the sessions'
	// quotas); tablesMu serializes the check of a new table.
	paramBytes, tableBytes atomic.Int64
	tablesMu               sync.Mutex

	stopping context.Context // cancelled by Shutdown: every call's work ends
	stop     context.CancelFunc
	mu       sync.Mutex
	grpc     *grpc.Server
	served   chan struct{} // closed when Shutdown is done
	shutOnce sync.Once
}

// New returns a server for cfg; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errs.New(errs.Internal, "flight: no engine")
	}
	if cfg.MaxConcurrentQueries < 0 || cfg.QueryTimeout < 0 || cfg.SessionIdleTimeout < 0 || cfg.TokenLifetime < 0 ||
		cfg.MaxSessions < 0 || cfg.MaxPrepared < 0 || cfg.MaxStatementBytes < 0 || cfg.MaxSessionStmtBytes < 0 ||
		cfg.MaxParamBytesTotal < 0 || cfg.MaxSessionTableBytes < 0 || cfg.ShutdownGrace < 0 {
		return nil, errs.New(errs.Binding, "flight: negative limit")
	}
	def := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	defDur(&cfg.SessionIdleTimeout, defaultSessionIdle)
	defDur(&cfg.TokenLifetime, defaultTokenLifetime)
	defDur(&cfg.StreamIdleTimeout, defaultStreamIdle)
	defDur(&cfg.ShutdownGrace, defaultShutdownGrace)
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = defaultMaxSessions
	}
	if cfg.MaxPrepared == 0 {
		cfg.MaxPrepared = defaultMaxPrepared
	}
	def(&cfg.MaxStatementBytes, defaultStatementBytes)
	def(&cfg.MaxSessionStmtBytes, defaultSessionStmtBytes)
	def(&cfg.MaxParamBytesTotal, defaultParamBytesTotal)
	def(&cfg.MaxSessionTableBytes, defaultSessionTableBytes)
	s := &Server{eng: cfg.Engine, cfg: cfg, log: cfg.Logger, served: make(chan struct{})}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.stopping, s.stop = context.WithCancel(context.Background())
	if cfg.MaxConcurrentQueries > 0 {
		s.slots = make(chan struct{}, cfg.MaxConcurrentQueries)
	}
	s.queries.init()
	s.sessions = newSessionStore(cfg.Engine.Catalog(), cfg.SessionIdleTimeout, cfg.TokenLifetime, cfg.MaxSessions, s.freeSession)
	if cfg.AuthToken != "" || len(cfg.Users) > 0 {
		s.auth = newAuthenticator(cfg.AuthToken, cfg.Users, s.sessions)
	}
	if err := s.registerSqlInfo(); err != nil {
		return nil, err
	}
	return s, nil
}

// Serve answers Flight SQL on lis until Shutdown; it returns when the
// server stops.
func (s *Server) Serve(lis net.Listener) error {
	var unary []grpc.UnaryServerInterceptor
	var stream []grpc.StreamServerInterceptor
	if s.auth != nil {
		mw := flight.CreateServerBasicAuthMiddleware(s.auth)
		unary, stream = append(unary, mw.Unary), append(stream, mw.Stream)
	}
	// The gRPC server is made here rather than by flight.NewServer, whose
	// Shutdown (GracefulStop) waits for every call however long: Shutdown
	// needs Stop after its grace.
	opts := []grpc.ServerOption{grpc.ChainUnaryInterceptor(unary...), grpc.ChainStreamInterceptor(stream...),
		grpc.StatsHandler(connTagger{s.sessions})}
	if s.cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(s.cfg.TLS)))
		lis = &sniffListener{Listener: lis, log: s.log}
	}
	g := grpc.NewServer(opts...)
	flight.RegisterFlightServiceServer(g, flightService{flightsql.NewFlightServer(s)})
	s.mu.Lock()
	if s.stopping.Err() != nil {
		s.mu.Unlock()
		return nil
	}
	s.grpc = g
	s.mu.Unlock()
	stopJanitor := make(chan struct{})
	go s.janitor(stopJanitor)
	defer close(stopJanitor)
	s.log.Info("flight sql server listening", "addr", lis.Addr().String(), "tls", s.cfg.TLS != nil, "auth", s.authMode(),
		"shared_ddl", s.cfg.AllowDDL)
	errc := make(chan error, 1)
	go func() { errc <- g.Serve(lis) }()
	select {
	case err := <-errc:
		if s.stopping.Err() != nil {
			<-s.served
			return nil
		}
		return err
	case <-s.served:
		return nil
	}
}

// Shutdown cancels the running queries and every call's planning, stops
// accepting calls, and waits for the calls in flight to end for at most
// ShutdownGrace: then it closes their connections and returns (a call
// that does not heed its cancellation is left to the process's exit).
func (s *Server) Shutdown() {
	s.shutOnce.Do(func() {
		defer close(s.served)
		s.stop()
		s.queries.cancelAll()
		s.mu.Lock()
		g := s.grpc
		s.mu.Unlock()
		if g == nil {
			return
		}
		graceful := make(chan struct{})
		go func() { g.GracefulStop(); close(graceful) }()
		select {
		case <-graceful:
			return
		case <-time.After(s.cfg.ShutdownGrace):
		}
		s.log.Warn("calls still running after the shutdown grace: closing their connections", "grace", s.cfg.ShutdownGrace)
		stopped := make(chan struct{})
		go func() { g.Stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(s.cfg.ShutdownGrace / 4):
		}
	})
}

// bounded is ctx for a call's work: cancelled by Shutdown and, for
// planning, at the query timeout.
func (s *Server) bounded(ctx context.Context, timeout bool) (context.Context, context.CancelFunc) {
	var cancel context.CancelFunc
	if timeout && s.cfg.QueryTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.cfg.QueryTimeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	stop := context.AfterFunc(s.stopping, cancel)
	return ctx, func() { stop(); cancel() }
}

func (s *Server) authMode() string {
	switch {
	case s.auth == nil:
		return "none"
	case s.cfg.AuthToken != "" && len(s.cfg.Users) > 0:
		return "token+basic"
	case s.cfg.AuthToken != "":
		return "token"
	}
	return "basic"
}

// acquire waits for a query slot (the queue beyond
// MaxConcurrentQueries); the returned func gives it back.
func (s *Server) acquire(ctx context.Context) (func(), error) {
	if s.slots == nil {
		return func() {}, nil
	}
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, errs.Wrap(errs.Cancelled, ctx.Err(), "waiting for a query slot")
	}
}

// flightService is arrow-go's Flight SQL service with the request checks
// it lacks.
type flightService struct{ flight.FlightServer }

// DoPut refuses a stream whose first message has no FlightDescriptor:
// arrow-go's flightsql DoPut dereferences that descriptor unchecked, so
// one such request (TestServerRobustness sends it) panicked in the gRPC
// handler and took the whole server down.
func (f flightService) DoPut(stream flight.FlightService_DoPutServer) error {
	return f.FlightServer.DoPut(&describedPut{FlightService_DoPutServer: stream})
}

type describedPut struct {
	flight.FlightService_DoPutServer
	first bool // the first message was read
}

func (p *describedPut) Recv() (*flight.FlightData, error) {
	d, err := p.FlightService_DoPutServer.Recv()
	if err == nil && !p.first {
		p.first = true
		if d.GetFlightDescriptor() == nil {
			return nil, status.Error(codes.InvalidArgument, "DoPut: the first message carries no FlightDescriptor")
		}
	}
	return d, err
}

// DoGet runs arrow-go's DoGet so that the query may end the call itself:
// a client that stops reading leaves DoGet blocked in a gRPC Send that
// only the call's end unblocks, holding the batch it sends (and, under
// GracefulStop, the server). When the query gives up on the client
// (abortCall), the handler returns at once; gRPC then ends the call,
// which cancels its context and frees the blocked Send.
func (f flightService) DoGet(tkt *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	ab := &abort{ch: make(chan struct{})}
	ctx := context.WithValue(stream.Context(), abortKey{}, ab)
	done := make(chan error, 1)
	go func() { done <- f.FlightServer.DoGet(tkt, &doGetStream{FlightService_DoGetServer: stream, ctx: ctx}) }()
	select {
	case err := <-done:
		return err
	case <-ab.ch:
		return ab.err
	}
}

type doGetStream struct {
	flight.FlightService_DoGetServer
	ctx context.Context
}

func (d *doGetStream) Context() context.Context { return d.ctx }

type abortKey struct{}

// abort ends a DoGet call with err.
type abort struct {
	once sync.Once
	ch   chan struct{}
	err  error
}

// abortCall ends ctx's DoGet call with err, if ctx is one's.
func abortCall(ctx context.Context, err error) {
	if ab, ok := ctx.Value(abortKey{}).(*abort); ok {
		ab.once.Do(func() { ab.err = err; close(ab.ch) })
	}
}
