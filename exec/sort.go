package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// SortKey orders rows by Expr.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its whole input by Keys (stable: ties keep input order) and
// emits it in order. Limit >= 0 makes it a top-N: only rows
// [Offset, Offset+Limit) of the sorted order are emitted, keeping only
// Offset+Limit rows in memory. Limit < 0: all rows, Offset ignored.
type Sort struct {
	Input  Node
	Keys   []SortKey
	Limit  int64
	Offset int64
}

func (s *Sort) Schema() *arrow.Schema { return s.Input.Schema() }
func (s *Sort) Children() []Node      { return []Node{s.Input} }
func (s *Sort) Explain() string       { return "Sort" }
func (s *Sort) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Sort")
}

// Limit skips Offset rows then passes Count rows (Count < 0: all), in input
// order, and then stops its input.
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

func (l *Limit) Schema() *arrow.Schema { return l.Input.Schema() }
func (l *Limit) Children() []Node      { return []Node{l.Input} }
func (l *Limit) Explain() string       { return "Limit" }
func (l *Limit) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Limit")
}

// UnionAll emits the batches of all Inputs (same column types as Out).
type UnionAll struct {
	Inputs []Node
	Out    *arrow.Schema
}

func (u *UnionAll) Schema() *arrow.Schema { return u.Out }
func (u *UnionAll) Children() []Node      { return u.Inputs }
func (u *UnionAll) Explain() string       { return "UnionAll" }
func (u *UnionAll) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "UnionAll")
}
