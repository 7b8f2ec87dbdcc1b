// Package slt runs SQLite's sqllogictest corpus (github.com/gregrahn/sqllogictest)
// against gq in the mysql dialect, the way the corpus's own C runner
// (src/sqllogictest.c with the ODBC engine, slt_odbc3.c) runs it against
// MySQL: records marked "skipif mysql", or "onlyif" another engine, are
// skipped; values are rendered per the query's type string (I: a 32-bit
// integer, R: "%.3f", T: text with "(empty)" and "@" for unprintables);
// results are sorted per rowsort/valuesort and compared value by value,
// or by MD5 when there are more values than the hash threshold.
//
// The tables are created and filled by gq itself (CREATE TABLE, INSERT …
// VALUES, INSERT … SELECT). gq keeps no keys or indexes, so the runner
// drops PRIMARY KEY from column definitions and skips CREATE/DROP INDEX
// statements, counting both: neither changes any query's answer.
//
// Each query is classified as pass, wrong (an answer that differs from
// the expected one, or a different number of columns), refused (an error
// of kind errs.Unsupported: gq says it does not implement something) or
// error (any other error, a timeout included). cmd/slt runs a corpus
// directory and writes a Markdown report (benchmarks/results/slt.md).
package slt

import (
	"fmt"
	"strconv"
	"strings"
)

// Engine is the database name skipif/onlyif conditions are matched against.
const Engine = "mysql"

// DefaultHashThreshold is sqllogictest.c's default: results with more
// values than this are compared by hash.
const DefaultHashThreshold = 8

// Record is one record of a test script.
type Record struct {
	Kind string // "statement", "query", "hash-threshold"
	Line int    // 1-based line of the record's first line (after any conditions)
	// Skip: a skipif/onlyif condition excludes the record for Engine.
	Skip bool
	// statement
	WantError bool
	// query
	Types string // one of I, R, T per column
	Sort  string // "nosort", "rowsort" or "valuesort"
	Label string
	SQL   string
	Want  []string // the expected lines: values, or one "N values hashing to H"
	// hash-threshold
	Threshold int
}

// Parse reads a script. A "halt" record ends it.
func Parse(text string) ([]Record, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var recs []Record
	for i := 0; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var r Record
		// Conditions precede the record they apply to.
		for len(f) > 0 && (f[0] == "skipif" || f[0] == "onlyif") {
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: %s without an engine", i+1, f[0])
			}
			match := strings.EqualFold(f[1], Engine)
			if (f[0] == "skipif") == match {
				r.Skip = true
			}
			i++
			if i >= len(lines) {
				return nil, fmt.Errorf("line %d: condition at end of file", i)
			}
			f = strings.Fields(lines[i])
		}
		if len(f) == 0 {
			return nil, fmt.Errorf("line %d: condition without a record", i)
		}
		r.Line = i + 1
		switch f[0] {
		case "halt":
			return recs, nil
		case "hash-threshold":
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: hash-threshold without a value", i+1)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, fmt.Errorf("line %d: hash-threshold %q", i+1, f[1])
			}
			r.Kind, r.Threshold = "hash-threshold", n
			recs = append(recs, r)
			continue
		case "statement":
			if len(f) < 2 || (f[1] != "ok" && f[1] != "error") {
				return nil, fmt.Errorf("line %d: statement must be ok or error", i+1)
			}
			r.Kind, r.WantError = "statement", f[1] == "error"
		case "query":
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: query without a type string", i+1)
			}
			r.Kind, r.Types, r.Sort = "query", f[1], "nosort"
			for _, c := range r.Types {
				if c != 'I' && c != 'R' && c != 'T' {
					return nil, fmt.Errorf("line %d: unknown type %q", i+1, c)
				}
			}
			if len(f) >= 3 {
				r.Sort = f[2]
				if r.Sort != "nosort" && r.Sort != "rowsort" && r.Sort != "valuesort" {
					return nil, fmt.Errorf("line %d: unknown sort mode %q", i+1, r.Sort)
				}
			}
			if len(f) >= 4 {
				r.Label = f[3]
			}
		default:
			return nil, fmt.Errorf("line %d: unknown record %q", i+1, f[0])
		}
		// The SQL runs to a blank line or "----".
		var sql []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			sql = append(sql, lines[i])
		}
		r.SQL = strings.Join(sql, "\n")
		if r.Kind == "query" && i < len(lines) && lines[i] == "----" {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				r.Want = append(r.Want, strings.TrimRight(lines[i], " \t"))
			}
		}
		recs = append(recs, r)
	}
	return recs, nil
}
