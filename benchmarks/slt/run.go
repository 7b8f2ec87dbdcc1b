package slt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"gq/catalog"
	"gq/engine"
	"gq/errs"
)

// Options configure a run.
type Options struct {
	Timeout time.Duration // per statement; 0: 30s
	Threads int           // the engine's worker threads; 0: 1
	// Examples is how many wrong and failed queries per file are kept with
	// their SQL and answers (0: none).
	Examples int
	// Env, when set, is how the binary reads the environment: the engine
	// takes the GQ_* variables' memory limits and spill mode through it
	// (engine.Options.WithEnv), as gq does.
	Env func(string) (string, bool)
}

// Example is one query that did not pass.
type Example struct {
	Line      int
	SQL       string
	Got, Want []string // for wrong answers
	Err       string   // for refusals and errors
}

// FileResult is a file's tally.
type FileResult struct {
	Name                                  string
	Queries, Pass, Wrong, Refused, Errors int
	Skipped                               int // queries excluded by skipif/onlyif
	Statements, StatementsFailed          int
	StatementsSkipped                     int // statements excluded by skipif/onlyif
	// KeysDropped counts CREATE TABLE statements that had PRIMARY KEY
	// removed; IndexesSkipped counts CREATE/DROP INDEX statements not run.
	KeysDropped, IndexesSkipped int
	Refusals                    map[string]int // reason -> queries
	ErrorReasons                map[string]int // "<kind>: reason" -> queries and statements
	Wrongs, Failures            []Example
	Elapsed                     time.Duration
}

var (
	indexStmt  = regexp.MustCompile(`(?is)^\s*(create\s+(unique\s+)?index|drop\s+index)\b`)
	createStmt = regexp.MustCompile(`(?is)^\s*create\s+table\b`)
	primaryKey = regexp.MustCompile(`(?i)\s+primary\s+key\b`)
)

// RunFile runs one script on a fresh engine with an empty catalog.
func RunFile(path, name string, opts Options) (*FileResult, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Threads == 0 {
		opts.Threads = 1
	}
	eopts := engine.Options{Threads: opts.Threads, Device: "cpu"}
	if opts.Env != nil {
		eopts = eopts.WithEnv(opts.Env)
	}
	e := engine.New(catalog.New(), eopts)
	defer e.Close()
	fr := &FileResult{Name: name, Refusals: map[string]int{}, ErrorReasons: map[string]int{}}
	start := time.Now()
	threshold := DefaultHashThreshold
	for _, r := range recs {
		switch r.Kind {
		case "hash-threshold":
			threshold = r.Threshold
			continue
		case "statement":
			if r.Skip {
				fr.StatementsSkipped++
				continue
			}
			fr.Statements++
			sql := r.SQL
			if indexStmt.MatchString(sql) {
				fr.IndexesSkipped++
				continue
			}
			if createStmt.MatchString(sql) && primaryKey.MatchString(sql) {
				sql = primaryKey.ReplaceAllString(sql, "")
				fr.KeysDropped++
			}
			_, err := run(e, sql, opts.Timeout, "")
			if (err != nil) != r.WantError {
				fr.StatementsFailed++
				reason := "statement succeeded, error expected"
				if err != nil {
					reason = "statement: " + kindReason(err)
				}
				fr.ErrorReasons[reason]++
				fr.keep(&fr.Failures, opts, Example{Line: r.Line, SQL: sql, Err: reason})
			}
			continue
		}
		if r.Skip {
			fr.Skipped++
			continue
		}
		fr.Queries++
		rows, err := run(e, r.SQL, opts.Timeout, r.Types)
		var colErr *columnsError
		switch {
		case errors.As(err, &colErr):
			fr.Wrong++
			fr.keep(&fr.Wrongs, opts, Example{Line: r.Line, SQL: r.SQL, Err: err.Error(), Want: r.Want})
		case err != nil && errs.KindOf(err) == errs.Unsupported:
			fr.Refused++
			reason := Reason(err)
			fr.Refusals[reason]++
			fr.keep(&fr.Failures, opts, Example{Line: r.Line, SQL: r.SQL, Err: err.Error()})
		case err != nil:
			fr.Errors++
			fr.ErrorReasons[kindReason(err)]++
			fr.keep(&fr.Failures, opts, Example{Line: r.Line, SQL: r.SQL, Err: err.Error()})
		default:
			vals := Values(rows, r.Sort)
			if Compare(vals, r.Want, threshold) {
				fr.Pass++
				continue
			}
			got := vals
			if threshold > 0 && len(vals) > threshold {
				got = []string{Hash(vals)}
			}
			fr.Wrong++
			fr.keep(&fr.Wrongs, opts, Example{Line: r.Line, SQL: r.SQL, Got: got, Want: r.Want})
		}
	}
	fr.Elapsed = time.Since(start)
	return fr, nil
}

func (fr *FileResult) keep(list *[]Example, opts Options, ex Example) {
	if len(*list) < opts.Examples {
		*list = append(*list, ex)
	}
}

// columnsError: the result has another number of columns than the
// query's type string, a wrong answer.
type columnsError struct{ got, want int }

func (c *columnsError) Error() string {
	return fmt.Sprintf("%d result columns, the type string has %d", c.got, c.want)
}

// run executes sql and, for a query (types != ""), renders its rows.
func run(e *engine.Engine, sql string, timeout time.Duration, types string) ([][]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := e.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	if types == "" {
		return nil, nil
	}
	if res.Schema == nil || res.Schema.NumFields() != len(types) {
		n := 0
		if res.Schema != nil {
			n = res.Schema.NumFields()
		}
		return nil, &columnsError{n, len(types)}
	}
	var rows [][]string
	for _, b := range res.Batches {
		cols := b.Columns()
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]string, len(cols))
			for c, col := range cols {
				row[c] = Render(col, i, types[c])
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

var (
	positionRe = regexp.MustCompile(` at line \d+, column \d+`)
	numberRe   = regexp.MustCompile(`\b\d+(\.\d+)?\b`)
	quotedRe   = regexp.MustCompile(`'[^']{24,}'`)
	identRe    = regexp.MustCompile(`"[^"]*"`)
)

// Reason buckets an error by its message: positions dropped, numbers
// replaced by N, quoted identifiers by "…" and long quoted text cut, so
// that the same limitation met in different queries counts once.
func Reason(err error) string {
	msg := err.Error()
	var ge *errs.Error
	if errors.As(err, &ge) {
		msg = ge.Msg
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = positionRe.ReplaceAllString(msg, "")
	msg = numberRe.ReplaceAllString(msg, "N")
	msg = identRe.ReplaceAllString(msg, `"…"`)
	msg = quotedRe.ReplaceAllStringFunc(msg, func(s string) string { return s[:20] + "…'" })
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return msg
}

func kindReason(err error) string {
	if errs.KindOf(err) == errs.Cancelled {
		return "timeout"
	}
	return errs.KindOf(err).Error() + ": " + Reason(err)
}
