// Command gq is gq's command-line interface: it runs SQL from -c, -f,
// stdin or an interactive shell against the tables of --data, prints
// results in the format package's modes, generates TPC-H data (gq gen
// tpch) and serves Arrow Flight SQL (gq serve).
//
// The shell (repl.go) follows the DuckDB and psql habits people bring:
// statements span lines until ';' (continuation prompt "..>"), history in
// ~/.gq_history (GQ_HISTORY overrides), Tab completes keywords, tables and
// columns (complete.go), Ctrl-C cancels the running query and, twice at an
// empty prompt, exits, as Ctrl-D does. Dot commands live in dot.go; result
// printing, timers and redirection in shell.go; the progress bar in
// progress.go (only when stderr is a terminal and a statement runs over a
// second); error carets in errors.go; --help and the GQ_* variables, which
// every setting flag has, in help.go.
//
// Exit statuses: 0 success, 1 a statement failed, 2 bad flags or arguments.
package main
