package flight

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/util"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"gq/parser/sqlparser"

	"gq/catalog"
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
	schema, err := s.schema(ctx, sql)
	if err != nil {
		s.log.Warn("query rejected", append(sqlAttrs(sql), "phase", "plan", "error", err.Error())...)
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
	schema, err := s.schema(ctx, cmd.GetQuery())
	if err != nil {
		return nil, toStatus(err)
	}
	return &flight.SchemaResult{Schema: flight.SerializeSchema(schema, memory.DefaultAllocator)}, nil
}

// schema plans sql in the caller's session for its result schema as sent
// (wire types), under the query timeout and the server's shutdown:
// planning may be as costly as running (a glob over many files, a huge
// UNION).
func (s *Server) schema(ctx context.Context, sql string) (*arrow.Schema, error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	ctx, cancel := s.bounded(ctx, true)
	defer cancel()
	schema, err := s.eng.Schema(s.catalogCtx(ctx, sess), sql)
	if err != nil {
		return nil, err
	}
	return wireSchema(schema, s.wireDecimal64(sess)), nil
}

// DoGetStatement runs the query of a ticket and streams its batches.
func (s *Server) DoGetStatement(ctx context.Context, tkt flightsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	id, sql, err := decodeHandle(tkt.GetStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s.runQuery(ctx, sess, done, id, sql)
}

// DoPutCommandStatementUpdate runs a statement that returns no rows (CREATE
// VIEW, CREATE TABLE AS, DROP) and answers the rows it stored.
func (s *Server) DoPutCommandStatementUpdate(ctx context.Context, cmd flightsql.StatementUpdate) (int64, error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	return s.update(ctx, sess, newID(), cmd.GetQuery())
}

func (s *Server) update(ctx context.Context, sess *session, id, sql string) (int64, error) {
	q, err := s.begin(ctx, sess, id, sql)
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

// CloseSession ends the caller's session now: its tables, views and
// prepared statements are dropped (a later call starts a new session, or
// for a token session must authenticate again).
func (s *Server) CloseSession(ctx context.Context, _ *flight.CloseSessionRequest) (*flight.CloseSessionResult, error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	done()
	s.sessions.remove(sess.key)
	return &flight.CloseSessionResult{Status: flight.CloseSessionResultClosed}, nil
}

// query is one running statement with what its end must undo.
type query struct {
	s           *Server
	sess        *session
	id, sql     string
	ctx         context.Context
	cancel      context.CancelFunc
	release     func()
	st          *engine.Stream
	start       time.Time
	queued      time.Duration
	rows, bytes int64
	ended       sync.Once
}

// begin registers query id (so CancelFlightInfo finds it), waits for a
// slot and starts sql in sess under the query timeout. DDL goes to the
// session's catalog unless the server allows shared DDL; a CREATE TABLE
// AS table is then held to the session's quota.
func (s *Server) begin(ctx context.Context, sess *session, id, sql string) (*query, error) {
	q := &query{s: s, sess: sess, id: id, sql: sql, start: time.Now(), release: func() {}}
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
		s.log.Warn("query failed", append(sqlAttrs(sql), "query_id", id, "phase", phase, "duration", time.Since(q.start), "error", err.Error())...)
		return nil, toStatus(err)
	}
	if s.stopping.Err() != nil {
		return fail("queue", errs.New(errs.Cancelled, "the server is shutting down"))
	}
	ddl, ctas := classify(sql)
	if ddl && !s.cfg.AllowDDL && s.eng.NRanks() > 1 {
		return fail("plan", errs.New(errs.Unsupported, "DDL under ranks needs the server's --allow-ddl: "+
			"a session's own tables and views would exist on rank 0 alone, while every rank runs each statement on its own catalog"))
	}
	var err error
	if q.release, err = s.acquire(q.ctx); err != nil {
		q.release = func() {}
		return fail("queue", err)
	}
	q.queued = time.Since(q.start)
	cat := s.sessionCatalog(sess)
	existed := false
	if ctas != "" && cat != nil {
		_, existed = cat.Table(ctas)
	}
	if q.st, err = s.eng.ServeStream(s.catalogCtx(q.ctx, sess), sql); err != nil {
		return fail("plan", err)
	}
	if ddl && cat != nil {
		if err := s.chargeTables(q.ctx, sess, cat, ctas, existed); err != nil {
			return fail("quota", err)
		}
	}
	return q, nil
}

// classify tells DDL (CREATE VIEW, CREATE TABLE AS, DROP) from other
// statements, and names the table a CREATE TABLE AS makes. Only
// statements starting with CREATE or DROP are parsed here, so that a
// query's text is not parsed twice.
func classify(sql string) (ddl bool, ctas string) {
	switch strings.ToLower(firstWord(sql)) {
	case "create", "drop":
	default:
		return false, ""
	}
	ast, err := parseOne(sql)
	if err != nil {
		return false, "" // the engine reports it
	}
	switch st := ast.(type) {
	case *sqlparser.CreateTable:
		return true, st.Table.Name.String()
	case *sqlparser.CreateView, *sqlparser.DropView, *sqlparser.DropTable, *sqlparser.AlterView:
		return true, ""
	}
	return false, ""
}

// firstWord is sql's first word past spaces and comments.
func firstWord(sql string) string {
	for {
		sql = strings.TrimLeft(sql, " \t\r\n(")
		switch {
		case strings.HasPrefix(sql, "--"), strings.HasPrefix(sql, "#"):
			i := strings.IndexByte(sql, '\n')
			if i < 0 {
				return ""
			}
			sql = sql[i+1:]
		case strings.HasPrefix(sql, "/*"):
			i := strings.Index(sql[2:], "*/")
			if i < 0 {
				return ""
			}
			sql = sql[i+4:]
		default:
			end := strings.IndexFunc(sql, func(r rune) bool { return !unicode.IsLetter(r) })
			if end < 0 {
				return sql
			}
			return sql[:end]
		}
	}
}

// perSession reports whether DDL goes to each session's own catalog.
// Under ranks it never does (DDL there needs AllowDDL): the other ranks
// run statements on their own catalogs and know no session.
func (s *Server) perSession() bool { return !s.cfg.AllowDDL && s.eng.NRanks() <= 1 }

// sessionCatalog is sess's own catalog, or nil when DDL is shared (or
// the session is gone).
func (s *Server) sessionCatalog(sess *session) *catalog.Catalog {
	if !s.perSession() {
		return nil
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.cat
}

// catalogCtx makes the statements run under ctx name sess's catalog when
// DDL is per session. A session closed under a running call gets an
// empty catalog of its own for the rest of it, never the shared one.
func (s *Server) catalogCtx(ctx context.Context, sess *session) context.Context {
	if !s.perSession() {
		return ctx
	}
	cat := s.sessionCatalog(sess)
	if cat == nil {
		cat = s.eng.Catalog().Session()
	}
	return engine.WithCatalog(ctx, cat)
}

// chargeTables brings sess's table accounts up to date after DDL in cat:
// tables dropped leave them, and a table made by CREATE TABLE AS (ctas,
// unless it existed before) counts its bytes against the session's quota
// — past it, it is dropped again and the statement fails.
func (s *Server) chargeTables(ctx context.Context, sess *session, cat *catalog.Catalog, ctas string, existed bool) error {
	s.tablesMu.Lock()
	defer s.tablesMu.Unlock()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.tables == nil {
		return nil // the session closed meanwhile
	}
	for name, n := range sess.tables {
		if !cat.Owned(name) {
			delete(sess.tables, name)
			sess.tableBytes -= n
			s.tableBytes.Add(-n)
		}
	}
	if ctas == "" || existed {
		return nil
	}
	t, ok := cat.Table(ctas)
	if !ok || !cat.Owned(ctas) {
		return nil
	}
	n, err := tableBytes(ctx, t)
	if err != nil {
		return err
	}
	if quota := s.cfg.MaxSessionTableBytes; sess.tableBytes+n > quota {
		cat.DropTable(ctas, true)
		return errs.New(errs.ResourcesExhausted, "CREATE TABLE %s AS: its %d bytes would bring this session's tables to %d bytes, past its quota of %d (drop some)",
			ctas, n, sess.tableBytes+n, quota)
	}
	key := strings.ToLower(ctas)
	sess.tables[key] = n
	sess.tableBytes += n
	s.tableBytes.Add(n)
	return nil
}

// tableBytes is the memory of an in-memory table's buffers: each split is
// read as one zero-copy slice of its whole batch.
func tableBytes(ctx context.Context, t catalog.Table) (int64, error) {
	cols := make([]int, len(t.Schema().Fields()))
	for i := range cols {
		cols[i] = i
	}
	var n int64
	for split := range t.NumSplits() {
		err := t.Read(ctx, split, cols, math.MaxInt, memory.DefaultAllocator, func(b arrow.RecordBatch) error {
			n += util.TotalRecordSize(b)
			b.Release()
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// end stops the query (a no-op once it finished), frees its slot and
// forgets it.
func (q *query) end() {
	q.ended.Do(func() {
		if q.st != nil {
			q.st.Close()
		}
		q.release()
		q.s.queries.finish(q.id)
		q.cancel()
	})
}

// maxLoggedSQL bounds the SQL a log record carries: a client may send
// megabytes of it, and one log line per query must stay readable. The
// length and a hash still tell statements apart.
const maxLoggedSQL = 1 << 10

// sqlAttrs are the log attributes naming a statement.
func sqlAttrs(sql string) []any {
	if len(sql) <= maxLoggedSQL {
		return []any{"sql", sql}
	}
	cut := maxLoggedSQL
	for cut > 0 && !utf8.RuneStart(sql[cut]) {
		cut--
	}
	h := sha256.Sum256([]byte(sql))
	return []any{"sql", sql[:cut] + "…", "sql_bytes", len(sql), "sql_sha256", hex.EncodeToString(h[:8])}
}

// log writes the query's record: one per query, with its figures.
func (q *query) log(err error) {
	attrs := append(sqlAttrs(q.sql), "query_id", q.id, "duration", time.Since(q.start), "queued", q.queued,
		"rows", q.rows, "bytes", q.bytes)
	if err != nil {
		q.s.log.Warn("query failed", append(attrs, "phase", "run", "error", err.Error())...)
		return
	}
	q.s.log.Info("query done", attrs...)
}

// runQuery starts sql in sess and streams its batches; done ends the
// session's use once the stream is over. The stream's goroutine owns the
// query: it stops it when the client goes away (ctx), on
// CancelFlightInfo, at the timeout, or when the client takes no batch
// for StreamIdleTimeout (a client that never reads would hold its query
// slot forever).
func (s *Server) runQuery(ctx context.Context, sess *session, done func(), id, sql string) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	q, err := s.begin(ctx, sess, id, sql)
	if err != nil {
		done()
		return nil, nil, err
	}
	schema := wireSchema(q.st.Schema, s.wireDecimal64(sess))
	ch := make(chan flight.StreamChunk)
	go func() {
		defer done()
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
		var idle <-chan time.Time
		var timer *time.Timer
		if s.cfg.StreamIdleTimeout > 0 {
			timer = time.NewTimer(s.cfg.StreamIdleTimeout)
			defer timer.Stop()
		}
		stalled := false
	read:
		for {
			b, ok := q.st.Next()
			if !ok {
				break
			}
			q.rows += b.NumRows()
			q.bytes += util.TotalRecordSize(b)
			for _, piece := range split(wireBatch(b, schema), maxMessageBytes) {
				sb := &sentBatch{RecordBatch: piece}
				if timer != nil {
					timer.Reset(s.cfg.StreamIdleTimeout)
					idle = timer.C
				}
				select {
				case ch <- flight.StreamChunk{Data: sb}:
					unreleased = append(slices.DeleteFunc(unreleased, (*sentBatch).isReleased), sb)
				case <-q.ctx.Done():
					piece.Release()
				case <-idle:
					piece.Release()
					stalled = true
					q.cancel()
					break read
				}
			}
		}
		if stalled {
			err := errs.New(errs.Cancelled, "the client took no batch for %v: the query was cancelled and its slot freed", s.cfg.StreamIdleTimeout)
			q.log(err)
			q.end() // the slot goes now, not when the call ends
			abortCall(ctx, status.Error(codes.DeadlineExceeded, err.Error()))
			return
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
	return schema, ch, nil
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
