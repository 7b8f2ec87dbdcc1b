package flight

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/util"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gq/engine"
	"gq/errs"
	"gq/exec"
)

// A statement's ticket carries its query id and its SQL: DoGet needs no
// server state from GetFlightInfo (a client may DoGet much later, or
// never), and CancelFlightInfo finds the query by the id. Prepared
// statements hand out the same kind of ticket, with their parameters
// already substituted, so every query runs and cancels one way.

func encodeHandle(id, sql string) []byte { return append([]byte(id), sql...) }

func decodeHandle(h []byte) (id, sql string, err error) {
	if len(h) < idLen {
		return "", "", status.Error(codes.InvalidArgument, "malformed statement handle")
	}
	return string(h[:idLen]), string(h[idLen:]), nil
}

// flightInfo plans sql for its schema and returns the FlightInfo whose one
// endpoint's ticket runs it.
func (s *Server) flightInfo(ctx context.Context, sql string, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	schema, err := s.eng.Schema(ctx, sql)
	if err != nil {
		s.log.Warn("query rejected", "phase", "plan", "sql", sql, "error", err.Error())
		return nil, toStatus(err)
	}
	tkt, err := flightsql.CreateStatementQueryTicket(encodeHandle(newID(), sql))
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encoding a ticket: %v", err)
	}
	return &flight.FlightInfo{
		Endpoint:         []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: tkt}}},
		FlightDescriptor: desc,
		Schema:           flight.SerializeSchema(schema, memory.DefaultAllocator),
		TotalRecords:     -1,
		TotalBytes:       -1,
	}, nil
}

// GetFlightInfoStatement plans a query; DoGetStatement runs it.
func (s *Server) GetFlightInfoStatement(ctx context.Context, cmd flightsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.flightInfo(ctx, cmd.GetQuery(), desc)
}

// GetSchemaStatement returns a query's schema without running it.
func (s *Server) GetSchemaStatement(ctx context.Context, cmd flightsql.StatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	schema, err := s.eng.Schema(ctx, cmd.GetQuery())
	if err != nil {
		return nil, toStatus(err)
	}
	return &flight.SchemaResult{Schema: flight.SerializeSchema(schema, memory.DefaultAllocator)}, nil
}

// DoGetStatement runs the query of a ticket and streams its batches.
func (s *Server) DoGetStatement(ctx context.Context, tkt flightsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	id, sql, err := decodeHandle(tkt.GetStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	return s.runQuery(ctx, id, sql)
}

// DoPutCommandStatementUpdate runs a statement that returns no rows (CREATE
// VIEW, CREATE TABLE AS, DROP) and answers the rows it stored.
func (s *Server) DoPutCommandStatementUpdate(ctx context.Context, cmd flightsql.StatementUpdate) (int64, error) {
	return s.update(ctx, newID(), cmd.GetQuery())
}

func (s *Server) update(ctx context.Context, id, sql string) (int64, error) {
	q, err := s.begin(ctx, id, sql)
	if err != nil {
		return 0, err
	}
	defer q.end()
	if len(q.st.Schema.Fields()) > 0 {
		err := errs.New(errs.Binding, "the statement returns rows: run it as a query, not an update")
		q.log(err)
		return 0, toStatus(err)
	}
	for {
		b, ok := q.st.Next()
		if !ok {
			break
		}
		q.rows += b.NumRows()
		b.Release()
	}
	err = q.st.Err()
	q.log(err)
	return q.st.RowsAffected, toStatus(err)
}

// CancelFlightInfo cancels the query of a FlightInfo this server issued:
// a running one stops, and one not yet fetched never runs.
func (s *Server) CancelFlightInfo(_ context.Context, req *flight.CancelFlightInfoRequest) (flight.CancelFlightInfoResult, error) {
	info := req.GetInfo()
	if info == nil {
		return flight.CancelFlightInfoResult{}, status.Error(codes.InvalidArgument, "CancelFlightInfo without a FlightInfo")
	}
	cancelled := false
	for _, ep := range info.GetEndpoint() {
		t, err := flightsql.GetStatementQueryTicket(ep.GetTicket())
		if err != nil {
			continue // a metadata ticket: nothing to cancel
		}
		id, _, err := decodeHandle(t.GetStatementHandle())
		if err != nil {
			return flight.CancelFlightInfoResult{}, err
		}
		running := s.queries.cancel(id)
		s.log.Info("query cancel", "query_id", id, "running", running)
		cancelled = true
	}
	if !cancelled {
		return flight.CancelFlightInfoResult{Status: flight.CancelStatusNotCancellable}, nil
	}
	return flight.CancelFlightInfoResult{Status: flight.CancelStatusCancelled}, nil
}

// CloseSession ends a client's session: gq keeps no per-session state
// beyond prepared statements, which clients close themselves, so there is
// nothing to free.
func (s *Server) CloseSession(context.Context, *flight.CloseSessionRequest) (*flight.CloseSessionResult, error) {
	return &flight.CloseSessionResult{Status: flight.CloseSessionResultClosed}, nil
}

// query is one running statement with what its end must undo.
type query struct {
	s           *Server
	id, sql     string
	ctx         context.Context
	cancel      context.CancelFunc
	release     func()
	st          *engine.Stream
	start       time.Time
	queued      time.Duration
	rows, bytes int64
}

// begin registers query id (so CancelFlightInfo finds it), waits for a
// slot and starts sql under the query timeout.
func (s *Server) begin(ctx context.Context, id, sql string) (*query, error) {
	q := &query{s: s, id: id, sql: sql, start: time.Now(), release: func() {}}
	q.ctx, q.cancel = context.WithCancel(ctx)
	if s.cfg.QueryTimeout > 0 {
		q.ctx, q.cancel = context.WithTimeout(ctx, s.cfg.QueryTimeout)
	}
	if !s.queries.start(id, q.cancel) {
		q.cancel()
		return nil, status.Error(codes.Canceled, "the query was cancelled")
	}
	fail := func(phase string, err error) (*query, error) {
		q.end()
		s.log.Warn("query failed", "query_id", id, "phase", phase, "sql", sql, "duration", time.Since(q.start), "error", err.Error())
		return nil, toStatus(err)
	}
	var err error
	if q.release, err = s.acquire(q.ctx); err != nil {
		q.release = func() {}
		return fail("queue", err)
	}
	q.queued = time.Since(q.start)
	if q.st, err = s.eng.ServeStream(q.ctx, sql); err != nil {
		return fail("plan", err)
	}
	return q, nil
}

// end stops the query (a no-op once it finished), frees its slot and
// forgets it.
func (q *query) end() {
	if q.st != nil {
		q.st.Close()
	}
	q.release()
	q.s.queries.finish(q.id)
	q.cancel()
}

// log writes the query's record: one per query, with its figures.
func (q *query) log(err error) {
	attrs := []any{"query_id", q.id, "sql", q.sql, "duration", time.Since(q.start), "queued", q.queued,
		"rows", q.rows, "bytes", q.bytes}
	if err != nil {
		q.s.log.Warn("query failed", append(attrs, "phase", "run", "error", err.Error())...)
		return
	}
	q.s.log.Info("query done", attrs...)
}

// runQuery starts sql and streams its batches. The stream's goroutine
// owns the query: it stops it when the client goes away (ctx), on
// CancelFlightInfo or at the timeout.
func (s *Server) runQuery(ctx context.Context, id, sql string) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	q, err := s.begin(ctx, id, sql)
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan flight.StreamChunk)
	go func() {
		// flightsql's DoGet does not release the batch it failed to
		// write (a client gone mid-stream), which would keep that batch's
		// query memory accounted forever. Batches go out wrapped so that
		// those DoGet never released are released here once the call is
		// over (its context ends when the handler returns).
		var unreleased []*sentBatch
		defer func() {
			if len(unreleased) > 0 {
				<-ctx.Done()
				for _, b := range unreleased {
					b.Release()
				}
			}
		}()
		defer close(ch)
		defer q.end()
		for {
			b, ok := q.st.Next()
			if !ok {
				break
			}
			q.rows += b.NumRows()
			q.bytes += util.TotalRecordSize(b)
			for _, piece := range split(b, maxMessageBytes) {
				sb := &sentBatch{RecordBatch: piece}
				select {
				case ch <- flight.StreamChunk{Data: sb}:
					unreleased = append(slices.DeleteFunc(unreleased, (*sentBatch).isReleased), sb)
				case <-q.ctx.Done():
					piece.Release()
				}
			}
		}
		err := q.st.Err()
		if err == nil && q.ctx.Err() != nil {
			err = exec.CancelledErr(q.ctx.Err()) // the client left while the last batch waited
		}
		q.log(err)
		if err != nil {
			select {
			case ch <- flight.StreamChunk{Err: toStatus(err)}:
			case <-ctx.Done():
			}
		}
	}()
	return q.st.Schema, ch, nil
}

// sentBatch is a batch handed to DoGet whose Release takes effect once,
// so that both DoGet and runQuery may call it.
type sentBatch struct {
	arrow.RecordBatch
	released atomic.Bool
}

func (b *sentBatch) isReleased() bool { return b.released.Load() }

func (b *sentBatch) Release() {
	if b.released.CompareAndSwap(false, true) {
		b.RecordBatch.Release()
	}
}

// maxMessageBytes bounds the size of one streamed batch. gRPC clients
// refuse messages over their receive limit, 4 MiB by default in grpc-go
// (arrow-go's flightsql client keeps it), and one engine batch of wide
// rows is larger; so batches are cut, without copying, into row slices
// below this size, leaving room for the message's metadata.
const maxMessageBytes = 3 << 20

// split cuts b into zero-copy row slices of at most about limit bytes
// each, estimated from b's average row size; it takes over b's reference.
func split(b arrow.RecordBatch, limit int64) []arrow.RecordBatch {
	size, rows := util.TotalRecordSize(b), b.NumRows()
	if size <= limit || rows <= 1 {
		return []arrow.RecordBatch{b}
	}
	per := max(1, rows*limit/size)
	out := make([]arrow.RecordBatch, 0, (rows+per-1)/per)
	for lo := int64(0); lo < rows; lo += per {
		out = append(out, b.NewSlice(lo, min(lo+per, rows)))
	}
	b.Release()
	return out
}
