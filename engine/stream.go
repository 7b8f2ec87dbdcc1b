package engine

import (
	"context"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"gq/parser/sqlparser"

	"gq/errs"
	"gq/exec"
	gqmem "gq/memory"
	"gq/parser"
	"gq/planner"
)

// Streaming results. Query collects every batch before it returns, which
// suits a terminal but not a server: a large result would sit whole in
// memory. QueryStream hands batches out as the operators produce them;
// the bounded channel between the executor and the consumer is the
// backpressure, and cancelling the context (a client that went away) stops
// the operators and frees what they hold.

// streamDepth is how many batches may wait between the executor and a
// slow consumer.
const streamDepth = 2

// Stream is a query's result read batch by batch. Next until it returns
// false, then Err; Close always (it cancels a query not read to the end).
type Stream struct {
	// Schema is the result's schema, fixed before the first batch; it has
	// no fields for statements that return no rows.
	Schema *arrow.Schema
	// RowsAffected is set by CREATE TABLE AS.
	RowsAffected int64
	// Stats and Mem are the query's statistics and accounting allocator
	// (nil for statements that run no query); Mem.Live() is 0 once the
	// stream is closed and every batch it returned released.
	Stats *gqmem.Statistics
	Mem   *gqmem.Allocator

	batches chan arrow.RecordBatch
	done    chan struct{} // closed when the executor has finished
	cancel  context.CancelFunc
	err     error // valid once done is closed
	once    sync.Once
}

// Next returns the next batch, which the caller owns (Release it), or
// false at the end of the result or on failure (see Err).
func (s *Stream) Next() (arrow.RecordBatch, bool) {
	b, ok := <-s.batches
	return b, ok
}

// Err is the query's error once Next has returned false.
func (s *Stream) Err() error {
	<-s.done
	return s.err
}

// Close cancels the query if it is still running, waits for its operators
// to stop and releases batches not yet read.
func (s *Stream) Close() {
	s.once.Do(func() {
		s.cancel()
		for b := range s.batches {
			b.Release()
		}
		<-s.done
	})
}

// QueryStream runs sql, which must hold exactly one statement, and streams
// its result. Row-returning queries (SELECT, UNION) stream; other
// statements (DDL, SHOW, EXPLAIN) run to completion first and their small
// result is streamed from memory. Planning errors are returned here;
// execution errors come from Err.
func (e *Engine) QueryStream(ctx context.Context, sql string) (*Stream, error) {
	st, err := one(sql)
	if err != nil {
		return nil, err
	}
	s, _, err := e.statementStream(ctx, st)
	if err != nil {
		return nil, locate(err, st)
	}
	return s, nil
}

// ExecStream is Exec for a client that writes results as they come (the
// CLI): a row-returning statement's result is a Stream whose batches flow
// while the query runs, so a result of any size passes through in bounded
// memory. each reads the stream as far as it wants; ExecStream then closes
// it and returns the query's error, located in the script, or else each's.
// Statements that return no rows are not shown to each.
func (e *Engine) ExecStream(ctx context.Context, sql string, each func(*Stream) error) error {
	stmts, err := parser.Split(sql)
	for _, st := range stmts {
		s, rows, rerr := e.statementStream(ctx, st)
		if rerr != nil {
			return locate(rerr, st)
		}
		if !rows {
			s.Close()
			continue
		}
		cerr := each(s)
		s.Close()
		if serr := s.Err(); serr != nil && cerr == nil {
			return locate(serr, st)
		}
		if cerr != nil {
			return cerr
		}
	}
	return err
}

// statementStream runs one statement as QueryStream does; rows says
// whether it returns rows (DDL does not: its stream carries RowsAffected).
func (e *Engine) statementStream(ctx context.Context, st parser.Statement) (s *Stream, rows bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, exec.CancelledErr(err)
	}
	switch st.AST.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		if intoOf(st.AST) == nil {
			s, err = e.stream(ctx, st.AST)
			return s, err == nil, err
		}
	}
	res, err := e.run(ctx, st)
	if err != nil {
		return nil, false, err
	}
	return resultStream(res), res.Schema != nil, nil
}

// Schema returns the schema of sql's result without running it (a
// client's GetFlightInfo). Statements that return no rows have an empty
// schema; SHOW, DESCRIBE and EXPLAIN (not EXPLAIN ANALYZE) are cheap and
// without side effects, so they run to learn theirs.
func (e *Engine) Schema(ctx context.Context, sql string) (*arrow.Schema, error) {
	st, err := one(sql)
	if err != nil {
		return nil, err
	}
	switch st.AST.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		if intoOf(st.AST) != nil {
			return arrow.NewSchema(nil, nil), nil // it writes a file, returning no rows
		}
		p, _, err := e.plan(ctx, st.AST)
		if err != nil {
			return nil, locate(err, st)
		}
		return planSchema(p.Columns()), nil
	case *sqlparser.ExplainStmt, *sqlparser.ExplainTab, *sqlparser.DescribeTableFunc, *sqlparser.Show:
		if x, ok := st.AST.(*sqlparser.ExplainStmt); ok && x.Type == sqlparser.AnalyzeType {
			// EXPLAIN ANALYZE runs its query: not for a schema.
			r := explainResult("")
			defer r.Release()
			return r.Schema, nil
		}
		res, err := e.run(ctx, st)
		if err != nil {
			return nil, locate(err, st)
		}
		defer res.Release()
		return res.Schema, nil
	}
	return arrow.NewSchema(nil, nil), nil
}

// one parses sql as exactly one statement.
func one(sql string) (parser.Statement, error) {
	stmts, err := parser.Split(sql)
	if err != nil {
		return parser.Statement{}, err
	}
	if len(stmts) != 1 {
		return parser.Statement{}, errs.New(errs.Syntax, "expected exactly one statement, got %d", len(stmts))
	}
	return stmts[0], nil
}

// stream plans a row-returning statement and starts its operators; their
// batches flow to the Stream as they are made.
func (e *Engine) stream(parent context.Context, ast sqlparser.Statement) (*Stream, error) {
	p, root, err := e.plan(parent, ast)
	return e.streamPlan(parent, p, root, err, ast)
}

// streamPlan is stream for a planned query (p lowered to root, or
// planning's error); ast names it in operator statistics.
func (e *Engine) streamPlan(parent context.Context, p planner.Plan, root exec.Node, err error, ast sqlparser.Statement) (*Stream, error) {
	root, ops, err := e.distribute(parent, root, err)
	if err != nil {
		return nil, e.agree(parent, err)
	}
	ctx, cancel := context.WithCancel(parent)
	root = trackProgress(ctx, root)
	root, reportOps := e.operatorStats(root, ast)
	schema := planSchema(p.Columns())
	copts, qa, qs := e.queryContext(exec.Options{Threads: e.opts.Threads, BatchSize: e.opts.BatchSize})
	s := &Stream{Schema: schema, Stats: qs, Mem: qa, cancel: cancel,
		batches: make(chan arrow.RecordBatch, streamDepth), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer e.finishQuery(qa, qs)
		defer close(s.batches)
		defer cancel()
		c := exec.NewContext(ctx, copts)
		start := time.Now()
		var rows int64
		// No row leaves before the device a query started has opened: a
		// --device gpu query on a machine whose device fails to open
		// fails whole, even where its operators fell back to the CPU.
		opened := false
		err := exec.Run(c, root, func(b arrow.RecordBatch) error {
			if b.NumRows() == 0 {
				return nil
			}
			if !opened {
				if err := e.gpuOpened(); err != nil {
					return err
				}
				opened = true
			}
			rows += b.NumRows()
			if int(b.NumCols()) != len(schema.Fields()) {
				return errs.New(errs.Internal, "query produced %d columns, plan has %d", b.NumCols(), len(schema.Fields()))
			}
			// Rewrap under the plan's schema (see query).
			out := array.NewRecordBatch(schema, b.Columns(), b.NumRows())
			select {
			case s.batches <- out:
				return nil
			case <-ctx.Done():
				out.Release()
				return exec.CancelledErr(ctx.Err())
			}
		})
		if err == nil && !opened {
			err = e.gpuOpened()
		}
		if err != nil {
			e.abortRanks(ops, err)
		}
		if err = e.agree(ctx, err); err == nil {
			reportOps(time.Since(start), rows)
		}
		s.err = err
	}()
	return s, nil
}

// resultStream streams an already materialised result.
func resultStream(res *Result) *Stream {
	schema := res.Schema
	if schema == nil {
		schema = arrow.NewSchema(nil, nil)
	}
	s := &Stream{Schema: schema, RowsAffected: res.RowsAffected, Stats: res.Stats, Mem: res.Mem, cancel: func() {},
		batches: make(chan arrow.RecordBatch, len(res.Batches)), done: make(chan struct{})}
	for _, b := range res.Batches {
		s.batches <- b
	}
	close(s.batches)
	close(s.done)
	return s
}

// planSchema is the result schema of a plan's output columns.
func planSchema(cols []planner.Column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	return arrow.NewSchema(fields, nil)
}
