package flight

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/util"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"gq/parser/sqlparser"

	"gq/errs"
)

// prepared is an open prepared statement: its SQL, how many `?` it holds
// and the values last bound to them. It belongs to the session that made
// it: another client's handle is not found.
type prepared struct {
	sql     string
	nparams int
	bound   []sqlparser.Expr // nil until DoPut binds parameters
	// bytes is what it holds against its session's quota: its SQL and
	// the bound parameters' Arrow bytes.
	bytes int64
}

// CreatePreparedStatement parses sql and counts its parameters. The
// dataset schema comes from planning it with NULL parameters; where NULL
// does not bind (a parameter whose type matters), it is left out, which
// Flight SQL allows.
func (s *Server) CreatePreparedStatement(ctx context.Context, req flightsql.ActionCreatePreparedStatementRequest) (flightsql.ActionCreatePreparedStatementResult, error) {
	var res flightsql.ActionCreatePreparedStatementResult
	sess, done, err := s.session(ctx)
	if err != nil {
		return res, err
	}
	defer done()
	sql := req.GetQuery()
	if int64(len(sql)) > s.cfg.MaxStatementBytes {
		return res, status.Errorf(codes.ResourceExhausted, "a prepared statement of %d bytes, over the limit of %d", len(sql), s.cfg.MaxStatementBytes)
	}
	ast, err := parseOne(sql)
	if err != nil {
		return res, toStatus(err)
	}
	n := countPlaceholders(ast)
	probe := sql
	if n > 0 {
		nulls := make([]sqlparser.Expr, n)
		for i := range nulls {
			nulls[i] = &sqlparser.NullVal{}
		}
		probe, err = bindParams(sql, nulls)
	}
	var schema *arrow.Schema
	if err == nil {
		pctx, cancel := s.bounded(ctx, true)
		schema, err = s.eng.Schema(s.catalogCtx(pctx, sess), probe)
		cancel()
	}
	if err != nil && n == 0 {
		return res, toStatus(err) // a statement without parameters must plan
	}
	cat := s.sessionCatalog(sess)
	if cat == nil {
		cat = s.eng.Catalog()
	}
	types := paramTypes(cat, ast, n)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.prepared == nil {
		return res, status.Error(codes.Unauthenticated, "the session closed")
	}
	if len(sess.prepared) >= s.cfg.MaxPrepared {
		return res, status.Errorf(codes.ResourceExhausted, "too many open prepared statements in this session (%d): close some", s.cfg.MaxPrepared)
	}
	p := &prepared{sql: sql, nparams: n, bytes: int64(len(sql))}
	if err := s.chargeLocked(sess, p.bytes); err != nil {
		return res, err
	}
	h := newID()
	sess.prepared[h] = p
	res.Handle = []byte(h)
	dec64 := s.wireDecimal64Locked(sess)
	res.DatasetSchema = wireSchema(schema, dec64)
	if !adbcGoClient(ctx) {
		res.ParameterSchema = wireSchema(paramSchema(types), dec64)
	}
	return res, nil
}

// adbcGoClient reports whether the call comes from ADBC's Flight SQL
// driver (its gRPC user agent says so), which gets no parameter schema.
// Its database/sql layer checks each Go argument against a parameter
// schema's types and refuses any that is not exactly the Go type of the
// Arrow type (a Go int for an int64 parameter, a float64 for a decimal
// one), and then builds the Arrow value from the Go type alone. Without
// a parameter schema it converts arguments the database/sql way (int to
// int64), which every gq parameter type accepts — as arrow-go's example
// server, which sends none, lets it. ADBC's own Bind takes whatever
// batch it is given, so the schema serves ADBC nothing; JDBC, which
// binds a value only to a typed parameter, still gets it.
func adbcGoClient(ctx context.Context) bool {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return false
	}
	for _, ua := range md.Get("user-agent") {
		if strings.Contains(ua, "ADBC Flight SQL Driver") {
			return true
		}
	}
	return false
}

// chargeLocked counts delta more bytes of prepared statements against
// sess (whose mu is held) and the server, or refuses them.
func (s *Server) chargeLocked(sess *session, delta int64) error {
	if delta > 0 && sess.stmtBytes+delta > s.cfg.MaxSessionStmtBytes {
		return status.Errorf(codes.ResourceExhausted, "this session's prepared statements would hold %d bytes of SQL and parameters, over its limit of %d: close some",
			sess.stmtBytes+delta, s.cfg.MaxSessionStmtBytes)
	}
	if total := s.paramBytes.Add(delta); delta > 0 && total > s.cfg.MaxParamBytesTotal {
		s.paramBytes.Add(-delta)
		return status.Errorf(codes.ResourceExhausted, "the server's prepared statements hold %d bytes of SQL and parameters, its limit: try later", s.cfg.MaxParamBytesTotal)
	}
	sess.stmtBytes += delta
	return nil
}

// paramSchema describes the parameters (see paramTypes); the names are
// their positions.
func paramSchema(types []arrow.DataType) *arrow.Schema {
	fields := make([]arrow.Field, len(types))
	for i, t := range types {
		fields[i] = arrow.Field{Name: strconv.Itoa(i + 1), Type: t, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// ClosePreparedStatement forgets a prepared statement of the caller's
// session.
func (s *Server) ClosePreparedStatement(ctx context.Context, req flightsql.ActionClosePreparedStatementRequest) error {
	sess, done, err := s.session(ctx)
	if err != nil {
		return err
	}
	defer done()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	h := string(req.GetPreparedStatementHandle())
	p, ok := sess.prepared[h]
	if !ok {
		return status.Error(codes.NotFound, "no such prepared statement")
	}
	delete(sess.prepared, h)
	s.chargeLocked(sess, -p.bytes)
	return nil
}

// lookup finds a prepared statement of the caller's session; done ends
// the session's use.
func (s *Server) lookup(ctx context.Context, handle []byte) (*prepared, *session, func(), error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	sess.mu.Lock()
	p, ok := sess.prepared[string(handle)]
	sess.mu.Unlock()
	if !ok {
		done()
		return nil, nil, nil, status.Error(codes.NotFound, "no such prepared statement in this session (closed, or expired with its session?)")
	}
	cp := *p
	return &cp, sess, done, nil
}

// DoPutPreparedStatementQuery binds parameters: one row of values, one
// column per placeholder. A query runs with one parameter set; several
// rows are refused rather than silently using one. The bound values count
// against the session's statement bytes.
func (s *Server) DoPutPreparedStatementQuery(ctx context.Context, cmd flightsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) ([]byte, error) {
	h := cmd.GetPreparedStatementHandle()
	p, sess, done, err := s.lookup(ctx, h)
	if err != nil {
		return nil, err
	}
	defer done()
	rows, n, err := readParams(rdr, p.nparams, s.cfg.MaxStatementBytes-int64(len(p.sql)))
	if err != nil {
		return nil, toStatus(err)
	}
	if len(rows) == 0 && p.nparams == 0 {
		return h, nil
	}
	if len(rows) != 1 {
		return nil, status.Errorf(codes.Unimplemented, "a prepared query takes one parameter set, got %d", len(rows))
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if q, ok := sess.prepared[string(h)]; ok {
		nb := int64(len(q.sql)) + n
		if err := s.chargeLocked(sess, nb-q.bytes); err != nil {
			return nil, err
		}
		q.bound, q.bytes = rows[0], nb
	}
	return h, nil
}

// readParams reads every parameter row a client sent, refusing more than
// limit bytes of them (the sum of the batches' Arrow buffers) before it
// holds much more than that.
func readParams(rdr flight.MessageReader, n int, limit int64) ([][]sqlparser.Expr, int64, error) {
	var rows [][]sqlparser.Expr
	var bytes int64
	for rdr.Next() {
		rec := rdr.RecordBatch()
		if int(rec.NumCols()) != n {
			return nil, 0, errs.New(errs.Binding, "the statement has %d parameters, %d were bound", n, rec.NumCols())
		}
		if bytes += util.TotalRecordSize(rec); bytes > limit {
			return nil, 0, errs.New(errs.ResourcesExhausted, "more than %d bytes of parameters for one statement", max(limit, 0))
		}
		r, err := paramRows(rec)
		if err != nil {
			return nil, 0, err
		}
		rows = append(rows, r...)
	}
	if err := rdr.Err(); err != nil {
		return nil, 0, errs.Wrap(errs.Communication, err, "reading parameters")
	}
	return rows, bytes, nil
}

// statementSQL is a prepared statement's SQL with its bound parameters.
func (p *prepared) statementSQL(vals []sqlparser.Expr) (string, error) {
	if p.nparams == 0 {
		return p.sql, nil
	}
	if vals == nil {
		return "", errs.New(errs.Binding, "the statement has %d parameters and none were bound", p.nparams)
	}
	return bindParams(p.sql, vals)
}

// GetFlightInfoPreparedStatement plans the statement with its bound
// parameters; the ticket is an ordinary statement ticket.
func (s *Server) GetFlightInfoPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	p, _, done, err := s.lookup(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	done()
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		return nil, toStatus(err)
	}
	return s.flightInfo(ctx, sql, desc)
}

// GetSchemaPreparedStatement returns the result schema with the bound
// parameters.
func (s *Server) GetSchemaPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	p, _, done, err := s.lookup(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	done()
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		return nil, toStatus(err)
	}
	return s.GetSchemaStatement(ctx, stmtQuery(sql), nil)
}

// DoGetPreparedStatement runs the statement directly, for clients that
// fetch with the command rather than the ticket GetFlightInfo gave.
func (s *Server) DoGetPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	p, sess, done, err := s.lookup(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		done()
		return nil, nil, toStatus(err)
	}
	return s.runQuery(ctx, sess, done, newID(), sql)
}

// DoPutPreparedStatementUpdate runs a prepared DDL statement once per
// parameter row sent (or once with the bound parameters when none is).
func (s *Server) DoPutPreparedStatementUpdate(ctx context.Context, cmd flightsql.PreparedStatementUpdate, rdr flight.MessageReader) (int64, error) {
	p, sess, done, err := s.lookup(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return 0, err
	}
	defer done()
	rows, _, err := readParams(rdr, p.nparams, s.cfg.MaxStatementBytes-int64(len(p.sql)))
	if err != nil {
		return 0, toStatus(err)
	}
	if len(rows) == 0 {
		rows = [][]sqlparser.Expr{p.bound}
	}
	var total int64
	for _, vals := range rows {
		sql, err := p.statementSQL(vals)
		if err != nil {
			return total, toStatus(err)
		}
		n, err := s.update(ctx, sess, newID(), sql)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// stmtQuery is a flightsql.StatementQuery of a SQL text.
type stmtQuery string

func (q stmtQuery) GetQuery() string         { return string(q) }
func (q stmtQuery) GetTransactionId() []byte { return nil }
