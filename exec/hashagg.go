package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// AggFunc is one aggregate: Fn is count_star, count, sum, avg, min or max;
// Arg is nil for count_star; Distinct aggregates distinct non-NULL values;
// Type is the result type (see planner.AggCall for the rules). sum/avg of
// an empty group (or all NULL) is NULL; count is 0.
type AggFunc struct {
	Fn       string
	Distinct bool
	Arg      expr.Expr
	Type     arrow.DataType
}

// HashAggregate groups by GroupBy and computes Aggs; Out has the group
// columns then the aggregates. NULL keys form one group. With no GroupBy it
// emits exactly one row, even for empty input. Decimal sums that overflow
// int64 are an Execution error.
type HashAggregate struct {
	Input   Node
	GroupBy []expr.Expr
	Aggs    []AggFunc
	Out     *arrow.Schema
}

func (h *HashAggregate) Schema() *arrow.Schema { return h.Out }
func (h *HashAggregate) Children() []Node      { return []Node{h.Input} }
func (h *HashAggregate) Explain() string       { return "HashAggregate" }
func (h *HashAggregate) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "HashAggregate")
}
