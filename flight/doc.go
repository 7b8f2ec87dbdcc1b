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
//   - Prepared statements: `?` placeholders are replaced in the parsed
//     statement by typed literal nodes built from the Arrow values bound
//     through DoPut, then printed back to SQL (params.go): values never
//     splice into text, so they cannot change the statement. The
//     parameter schema types each placeholder from the column it is
//     compared with (paramtypes.go), which JDBC needs to bind values.
//   - Metadata: GetSqlInfo, GetTables (with include_schema), GetTableTypes,
//     GetXdbcTypeInfo; no catalogs or schemas (gq's SQL takes no
//     qualifiers) and no keys (gq has no constraints).
//   - Cancellation: CancelFlightInfo by query id, a client disconnect, or
//     the query timeout cancel the query's context; the engine stops and
//     frees its memory.
//   - Auth (auth.go): none, a static bearer token, or basic auth through
//     the Flight handshake returning a session token; TLS.
//   - Limits: a bounded number of running queries (the rest queue), a
//     per-query timeout and a per-query memory limit (the engine's
//     Options.QueryMemoryLimit: an over-limit query fails alone with
//     ResourceExhausted); each query logs one slog record with its id,
//     duration, rows and bytes.
//
// Under ranks (rrun -n N gq serve) rank 0 alone runs this server: its
// engine's ServeStream broadcasts every statement to the other ranks,
// which run engine.FollowStatements, and statements run one at a time
// across the ranks.
package flight
