// Package format writes query results (an Arrow schema and record batches)
// in the CLI's output modes: a DuckDB-style box table, CSV, JSON, JSON
// lines, Markdown and one-value-per-line. Value gives the canonical text of
// one value, shared by every writer and by the tests' expected outputs;
// nested values print as DuckDB prints them, and as JSON arrays and objects
// in JSON (nested.go).
// Write dispatches on a mode name so the CLI, the REPL's .mode and tests
// agree on the set of modes.
package format
