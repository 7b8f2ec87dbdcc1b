package engine

import (
	"time"

	"gq/parser/sqlparser"

	"gq/exec"
	"gq/physical"
)

// QueryOperators are one query's per-operator figures, as EXPLAIN ANALYZE
// shows them (gq --stats, --stats-json): Text is EXPLAIN ANALYZE's table,
// Operators the same figures as a flat list.
type QueryOperators struct {
	Statement string             `json:"statement"`
	Operators []exec.OperatorRow `json:"operators"`
	Text      string             `json:"-"`
}

// operatorStats instruments root as EXPLAIN ANALYZE does when
// Options.AfterQueryOperators is set, and returns the plan to run and the
// function to call once it ran (with its wall time and result rows), which
// passes the figures to the hook. Otherwise root is unchanged and the
// function does nothing: the instrumentation costs one goroutine and
// channel hop per operator, and counting allocator per operator, that a
// query not asked for them should not pay.
func (e *Engine) operatorStats(root exec.Node, ast sqlparser.Statement) (exec.Node, func(total time.Duration, rows int64)) {
	hook := e.opts.AfterQueryOperators
	if hook == nil || root == nil {
		return root, func(time.Duration, int64) {}
	}
	a := exec.Instrument(root)
	statement := sqlparser.String(ast)
	return a, func(total time.Duration, rows int64) {
		hook(QueryOperators{
			Statement: statement,
			Operators: exec.Operators(a, physical.Describe),
			Text:      physical.ExplainAnalyze(a, total, rows),
		})
	}
}
