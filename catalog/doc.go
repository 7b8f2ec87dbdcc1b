// Package catalog owns what queries can name: tables (Parquet, CSV and
// in-memory), views, and the statistics the planner estimates with.
//
// Every table presents its columns in gq's value types (expr lists
// them): readers normalise narrower or foreign Arrow types while reading.
// A table is read in splits (row groups, file chunks, slices of memory), the
// unit of parallel work and, later, of distribution across ranks.
//
// Files are reached in two ways. A backtick path in a query opens through
// Catalog.OpenFile, and a table function (read_csv(…), read_parquet(…))
// through Catalog.TableFunction, both under the catalog's file-access
// policy (access.go): the
// CLI's reads any path; a server's (Confine) reads only under its allowed
// prefixes, judging each path by its text and each link's target before
// anything is looked up, so that a refusal reveals nothing of what lies
// outside. Globs are walked within limits and the query's context
// (glob.go), never by filepath.Glob. The tables of a RegisterDir directory
// follow their files (fresh.go): every Catalog.Table lookup checks their
// stamps and reopens what changed, and the directory is listed again when
// it changed. An entry that cannot be opened is skipped with a warning
// (Catalog.SetWarn) and tried again when it changes: one bad file must
// not keep the other tables from loading.
//
// Parquet list, struct and map columns are read as Arrow nested arrays of
// the same shape whose leaves are normalised like flat columns (nested.go).
// Timestamps of any unit and zone and times read as gq's µs TIMESTAMP,
// TIMESTAMPTZ and TIME (normalize_time.go); CSV sniffing finds them too.
// Parquet's INTERVAL (12 bytes: months, days, milliseconds) reads as and
// is written from gq's INTERVAL (interval_parquet.go).
// UUIDs and other fixed-size binaries read as VARCHAR (normalize_fixed.go).
// A file's columns that gq has no value type for (other interval types,
// decimals past 38 digits, nested columns with such a leaf…) do not block the file: they
// stay out of the table's Schema and are listed by Unreadable, so that the
// binder can leave them out of * and fail a query naming one with its type
// and file (unreadable.go). CSV files may be gzip or zstd compressed; their
// delimiter, header line and column types are sniffed from a sample
// spread through the file (csv.go); a type read_csv declares wins, and a
// declared DECIMAL(p,s) (up to 38 digits) rounds extra fraction digits as
// DuckDB's cast does (csvcolumn.go). read_csv and read_parquet's options
// and hive partition columns are csvOptions, parquetOptions and
// Catalog.TableFunction (tablefunc.go, hive.go).
//
// catalog must not import planner, physical or exec; it takes gq's value types
// from expr, the bottom floor.
package catalog
