// Package flight is gq's Arrow Flight SQL server (`gq serve`): it lets the
// Arrow ecosystem's clients — ADBC drivers, the Flight SQL JDBC/ODBC
// drivers, arrow-go's flightsql client — run SQL on an engine.Engine. It
// is built on arrow-go's flightsql.BaseServer.
//
// It owns the protocol and nothing of SQL itself (everything about a query
// goes through the engine):
//   - Statements: GetFlightInfo plans for the schema (engine.Schema); the
//     ticket carries a random query id and the SQL, and DoGet streams
//     engine.ServeStream batch by batch, cut below gRPC's default 4 MiB
//     message limit. DDL (CREATE VIEW, CREATE TABLE AS, DROP) goes through
//     CommandStatementUpdate.
//   - Wire types (wire.go): gq's DECIMAL (Arrow decimal64) goes out as
//     decimal128 of the same precision and scale in every schema and
//     batch, since most Arrow readers (arrow-rs before 54, the JDBC
//     driver, pyarrow before 19) know no decimal64; Config.WireDecimal64
//     (`--wire-decimal64`) or the session option gq.wire_decimal64
//     (SetSessionOptions) keeps decimal64. Each decimal64 column is
//     widened in one pass; other columns are shared, DECIMAL(19..38)
//     (decimal128 already) among them.
//   - Prepared statements: `?` placeholders are replaced in the parsed
//     statement by typed literal nodes built from the Arrow values bound
//     through DoPut, then printed back to SQL (params.go): values never
//     splice into text, so they cannot change the statement. Integers of
//     any width bind as BIGINT (an unsigned one past its range is
//     InvalidArgument), floats as DOUBLE, decimals of any width up to 38
//     digits as exact DECIMAL literals, timestamps and times of any unit as TIMESTAMP and
//     TIME in µs (params_time.go). The parameter schema types each placeholder from
//     the column it is compared with (paramtypes.go), which JDBC needs to
//     bind values; ADBC's driver gets none, as its database/sql layer
//     would refuse a Go int for a typed int64 parameter.
//   - Metadata: GetSqlInfo (all a JDBC DatabaseMetaData reads, for BI
//     tools: quoting, keywords, function lists, supports-* flags, no
//     transactions), GetTables (with include_schema), GetTableTypes,
//     GetXdbcTypeInfo; no catalogs or schemas (gq's SQL takes no
//     qualifiers) and no keys (gq has no constraints).
//   - Cancellation: CancelFlightInfo by query id, a client disconnect, or
//     the query timeout cancel the query's context; the engine stops and
//     frees its memory. Shutdown cancels every query and planning, waits
//     ShutdownGrace (750 ms) for calls in flight, then closes their
//     connections (grpc Stop): a client that stops reading cannot hold
//     the server up.
//   - Auth (auth.go): none, a static bearer token, or basic auth through
//     the Flight handshake returning a session token; TLS. A plaintext
//     client of a TLS server is answered, in plaintext HTTP/2, with a gRPC
//     error saying the server needs TLS (sniff.go).
//   - Sessions (session.go): a server is a trust boundary, so each client
//     has a session, named by what it cannot forge: its basic-auth
//     session token (a random 128-bit secret), else its gRPC connection
//     (tagged by a stats handler when accepted, and carried in each call's
//     context — no header or cookie can claim another's). DDL goes to the
//     session's own catalog (catalog.Session, through engine.WithCatalog)
//     unless Config.AllowDDL (`--allow-ddl`): a client cannot drop,
//     replace or shadow a shared table, nor see another's objects. Under
//     ranks the other ranks run statements on their own catalogs and know
//     no session, so DDL there needs AllowDDL. Prepared statements belong
//     to their session (another's handle is NotFound). Sessions end when
//     idle for SessionIdleTimeout, when their connection closes, at
//     TokenLifetime for tokens, or as the least recently used past
//     MaxSessions; their tables, views and statements go with them.
//   - Limits: a bounded number of running queries (the rest queue), a
//     per-query timeout that covers planning too, and a per-query memory
//     limit (the engine's Options.QueryMemoryLimit: an over-limit query
//     fails alone with ResourceExhausted); a stream whose client takes no
//     batch for StreamIdleTimeout is cancelled and frees its slot. Per
//     session: MaxPrepared statements, MaxStatementBytes of SQL and bound
//     parameters each (parameter reads stop there), MaxSessionStmtBytes
//     in all (MaxParamBytesTotal for the server), and
//     MaxSessionTableBytes of CREATE TABLE AS tables (the engine holds
//     every table under its memory limit too). Over a limit:
//     ResourceExhausted. Each query logs one slog record with its id,
//     duration, rows and bytes, and at most 1 KiB of its SQL (longer
//     statements add their length and a hash). File errors map to
//     NotFound, PermissionDenied or InvalidArgument; Unavailable, which
//     clients retry, only to passing conditions (errors.go).
//
// Under ranks (rrun -n N gq serve) rank 0 alone runs this server: its
// engine's ServeStream broadcasts every statement to the other ranks,
// which run engine.FollowStatements, and statements run one at a time
// across the ranks.
package flight
