// Package engine runs SQL text against a catalog: it splits a script into
// statements (parser), binds, optimises, lowers and executes queries
// (planner, physical, exec), handles DDL (views, CREATE TABLE AS, DROP) and
// metadata statements (SHOW TABLES, DESCRIBE of a table, a file or a table
// function, EXPLAIN), writes results to files (COPY … TO and SELECT … INTO
// OUTFILE share writeQuery, outfile.go), and gives every error a kind and
// a line:column in the script. It prints nothing; format and cmd/gq
// present results. It reads no environment variable: a binary passes
// gq's GQ_* variables in through Options.WithEnv and ConfigureDevice.
package engine
