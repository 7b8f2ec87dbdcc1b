package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/exec/expr"
)

// Scan reads Columns of Table, splits in parallel, applying Filter (over
// the output columns; may be nil) to each batch as it is read.
type Scan struct {
	Table   catalog.Table
	Columns []int
	Filter  expr.Expr
	Out     *arrow.Schema
}

func (s *Scan) Schema() *arrow.Schema { return s.Out }
func (s *Scan) Children() []Node      { return nil }
func (s *Scan) Explain() string       { return "Scan " + s.Table.Name() }
func (s *Scan) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Scan")
}

// Values emits Rows (literals of Out's column types) as one batch.
type Values struct {
	Rows [][]*expr.Literal
	Out  *arrow.Schema
}

func (v *Values) Schema() *arrow.Schema { return v.Out }
func (v *Values) Children() []Node      { return nil }
func (v *Values) Explain() string       { return "Values" }
func (v *Values) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Values")
}
