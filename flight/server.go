package flight

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"sync"
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
	// Version is the server version GetSqlInfo reports.
	Version string
	// Logger receives one record per query and per server event (nil:
	// slog.Default()).
	Logger *slog.Logger
}

// Server is a Flight SQL service over one engine.
type Server struct {
	flightsql.BaseServer
	eng   *engine.Engine
	cfg   Config
	log   *slog.Logger
	slots chan struct{} // nil: unbounded
	auth  *authenticator

	queries  registry // running and cancelled queries, by id
	mu       sync.Mutex
	prepared map[string]*prepared // open prepared statements, by handle
	grpc     flight.Server
}

// New returns a server for cfg; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errs.New(errs.Internal, "flight: no engine")
	}
	if cfg.MaxConcurrentQueries < 0 || cfg.QueryTimeout < 0 {
		return nil, errs.New(errs.Binding, "flight: negative limit")
	}
	s := &Server{eng: cfg.Engine, cfg: cfg, log: cfg.Logger, prepared: map[string]*prepared{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	if cfg.MaxConcurrentQueries > 0 {
		s.slots = make(chan struct{}, cfg.MaxConcurrentQueries)
	}
	s.queries.init()
	if cfg.AuthToken != "" || len(cfg.Users) > 0 {
		s.auth = newAuthenticator(cfg.AuthToken, cfg.Users)
	}
	if err := s.registerSqlInfo(); err != nil {
		return nil, err
	}
	return s, nil
}

// Serve answers Flight SQL on lis until Shutdown; it returns when the
// server stops.
func (s *Server) Serve(lis net.Listener) error {
	var mw []flight.ServerMiddleware
	if s.auth != nil {
		mw = append(mw, flight.CreateServerBasicAuthMiddleware(s.auth))
	}
	var opts []grpc.ServerOption
	if s.cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(s.cfg.TLS)))
	}
	g := flight.NewServerWithMiddleware(mw, opts...)
	g.RegisterFlightService(flightService{flightsql.NewFlightServer(s)})
	g.InitListener(lis)
	s.mu.Lock()
	s.grpc = g
	s.mu.Unlock()
	s.log.Info("flight sql server listening", "addr", lis.Addr().String(), "tls", s.cfg.TLS != nil, "auth", s.authMode())
	return g.Serve()
}

// Shutdown cancels the running queries, stops accepting calls and waits
// for the calls in flight to end.
func (s *Server) Shutdown() {
	s.queries.cancelAll()
	s.mu.Lock()
	g := s.grpc
	s.mu.Unlock()
	if g != nil {
		g.Shutdown()
	}
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
