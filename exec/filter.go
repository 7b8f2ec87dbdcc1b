package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// Filter keeps the rows where Pred is true. KeepOrder runs one worker so
// that output order is input order.
type Filter struct {
	Input     Node
	Pred      expr.Expr
	KeepOrder bool
}

func (f *Filter) Schema() *arrow.Schema { return f.Input.Schema() }
func (f *Filter) Children() []Node      { return []Node{f.Input} }
func (f *Filter) Explain() string       { return "Filter " + f.Pred.String() }
func (f *Filter) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Filter")
}

// Project computes Exprs as the columns of Out. KeepOrder as in Filter.
type Project struct {
	Input     Node
	Exprs     []expr.Expr
	Out       *arrow.Schema
	KeepOrder bool
}

func (p *Project) Schema() *arrow.Schema { return p.Out }
func (p *Project) Children() []Node      { return []Node{p.Input} }
func (p *Project) Explain() string       { return "Project" }
func (p *Project) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "Project")
}
