// Package duckdb is the root of gq's DuckDB oracle module: a separate Go
// module, so that cgo DuckDB never enters the gq binary. It holds
// commands that run the same SQL files in DuckDB (cmd/duckref) to produce
// expected results in gq's canonical CSV format, and the SQL translation
// and CSV formatting they share.
package duckdb
