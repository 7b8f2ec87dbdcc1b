package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// WindowFunc is one window function: Fn is row_number, rank, dense_rank,
// sum, count, count_star, avg, min or max; Args its arguments (none for
// row_number, rank, dense_rank, count_star); Type its result type.
type WindowFunc struct {
	Fn   string
	Args []expr.Expr
	Type arrow.DataType
}

// Window partitions its input by PartitionBy, orders each partition by
// OrderBy and appends one column per Func (Out = input columns then those).
// With OrderBy, aggregates are running totals over the frame "unbounded
// preceding to current row" including peers (SQL's default RANGE frame);
// without OrderBy, over the whole partition. Output order: by partition,
// then OrderBy.
type Window struct {
	Input       Node
	PartitionBy []expr.Expr
	OrderBy     []SortKey
	Funcs       []WindowFunc
	Out         *arrow.Schema
}

func (w *Window) Schema() *arrow.Schema { return w.Out }
func (w *Window) Children() []Node      { return []Node{w.Input} }
func (w *Window) Explain() string       { return "Window" }
func (w *Window) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Window")
}
