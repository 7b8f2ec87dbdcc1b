package flight

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"vitess.io/vitess/go/vt/sqlparser"

	"gq/errs"
)

// prepared is an open prepared statement: its SQL, how many `?` it holds
// and the values last bound to them.
type prepared struct {
	sql     string
	nparams int
	bound   []sqlparser.Expr // nil until DoPut binds parameters
}

// maxPrepared bounds the open prepared statements, so clients that never
// close theirs cannot grow the server without end.
const maxPrepared = 10000

// CreatePreparedStatement parses sql and counts its parameters. The
// dataset schema comes from planning it with NULL parameters; where NULL
// does not bind (a parameter whose type matters), it is left out, which
// Flight SQL allows.
func (s *Server) CreatePreparedStatement(ctx context.Context, req flightsql.ActionCreatePreparedStatementRequest) (flightsql.ActionCreatePreparedStatementResult, error) {
	var res flightsql.ActionCreatePreparedStatementResult
	sql := req.GetQuery()
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
		schema, err = s.eng.Schema(ctx, probe)
	}
	if err != nil && n == 0 {
		return res, toStatus(err) // a statement without parameters must plan
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.prepared) >= maxPrepared {
		return res, status.Errorf(codes.ResourceExhausted, "too many open prepared statements (%d): close some", maxPrepared)
	}
	h := newID()
	s.prepared[h] = &prepared{sql: sql, nparams: n}
	res.Handle = []byte(h)
	res.DatasetSchema = schema
	res.ParameterSchema = paramSchema(paramTypes(s.eng.Catalog(), ast, n))
	return res, nil
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

// ClosePreparedStatement forgets a prepared statement.
func (s *Server) ClosePreparedStatement(_ context.Context, req flightsql.ActionClosePreparedStatementRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := string(req.GetPreparedStatementHandle())
	if _, ok := s.prepared[h]; !ok {
		return status.Error(codes.NotFound, "no such prepared statement")
	}
	delete(s.prepared, h)
	return nil
}

func (s *Server) lookup(handle []byte) (*prepared, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prepared[string(handle)]
	if !ok {
		return nil, status.Error(codes.NotFound, "no such prepared statement (closed?)")
	}
	cp := *p
	return &cp, nil
}

// DoPutPreparedStatementQuery binds parameters: one row of values, one
// column per placeholder. A query runs with one parameter set; several
// rows are refused rather than silently using one.
func (s *Server) DoPutPreparedStatementQuery(_ context.Context, cmd flightsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) ([]byte, error) {
	h := cmd.GetPreparedStatementHandle()
	p, err := s.lookup(h)
	if err != nil {
		return nil, err
	}
	rows, err := readParams(rdr, p.nparams)
	if err != nil {
		return nil, toStatus(err)
	}
	if len(rows) == 0 && p.nparams == 0 {
		return h, nil
	}
	if len(rows) != 1 {
		return nil, status.Errorf(codes.Unimplemented, "a prepared query takes one parameter set, got %d", len(rows))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := s.prepared[string(h)]; ok {
		q.bound = rows[0]
	}
	return h, nil
}

// readParams reads every parameter row a client sent.
func readParams(rdr flight.MessageReader, n int) ([][]sqlparser.Expr, error) {
	var rows [][]sqlparser.Expr
	for rdr.Next() {
		rec := rdr.RecordBatch()
		if int(rec.NumCols()) != n {
			return nil, errs.New(errs.Binding, "the statement has %d parameters, %d were bound", n, rec.NumCols())
		}
		r, err := paramRows(rec)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	if err := rdr.Err(); err != nil {
		return nil, errs.Wrap(errs.Communication, err, "reading parameters")
	}
	return rows, nil
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
	p, err := s.lookup(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		return nil, toStatus(err)
	}
	return s.flightInfo(ctx, sql, desc)
}

// GetSchemaPreparedStatement returns the result schema with the bound
// parameters.
func (s *Server) GetSchemaPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	p, err := s.lookup(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		return nil, toStatus(err)
	}
	return s.GetSchemaStatement(ctx, stmtQuery(sql), nil)
}

// DoGetPreparedStatement runs the statement directly, for clients that
// fetch with the command rather than the ticket GetFlightInfo gave.
func (s *Server) DoGetPreparedStatement(ctx context.Context, cmd flightsql.PreparedStatementQuery) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	p, err := s.lookup(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	sql, err := p.statementSQL(p.bound)
	if err != nil {
		return nil, nil, toStatus(err)
	}
	return s.runQuery(ctx, newID(), sql)
}

// DoPutPreparedStatementUpdate runs a prepared DDL statement once per
// parameter row sent (or once with the bound parameters when none is).
func (s *Server) DoPutPreparedStatementUpdate(ctx context.Context, cmd flightsql.PreparedStatementUpdate, rdr flight.MessageReader) (int64, error) {
	p, err := s.lookup(cmd.GetPreparedStatementHandle())
	if err != nil {
		return 0, err
	}
	rows, err := readParams(rdr, p.nparams)
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
		n, err := s.update(ctx, newID(), sql)
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
