package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/expr"
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
	in := f.Input.Open(c)
	pred, err := compileExpr(f.Pred)
	if err != nil {
		return failedDrain(c, in, err)
	}
	return mapBatches(c, in, workersFor(c, f.KeepOrder), func() func(arrow.RecordBatch) (arrow.RecordBatch, error) {
		var sel []int32 // per worker scratch
		return func(b arrow.RecordBatch) (arrow.RecordBatch, error) {
			var err error
			b, sel, err = applyFilter(c, pred, b, sel)
			return b, err
		}
	})
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
	in := p.Input.Open(c)
	exprs, err := compileExprs(p.Exprs)
	if err != nil {
		return failedDrain(c, in, err)
	}
	return mapBatches(c, in, workersFor(c, p.KeepOrder), func() func(arrow.RecordBatch) (arrow.RecordBatch, error) {
		return func(b arrow.RecordBatch) (arrow.RecordBatch, error) {
			defer b.Release()
			cols, err := evalAll(c.Alloc, exprs, b)
			if err != nil {
				return nil, err
			}
			if _, err := fitColumns(cols, p.Out, int(b.NumRows()), c.Alloc); err != nil {
				releaseArrays(cols)
				return nil, err
			}
			out := array.NewRecordBatch(p.Out, cols, b.NumRows())
			releaseArrays(cols)
			if pb, ok := b.(*partBatch); ok { // the same rows: one partition's
				return &partBatch{RecordBatch: out, Part: pb.Part, Parts: pb.Parts}, nil
			}
			return out, nil
		}
	})
}

func workersFor(c *Context, keepOrder bool) int {
	if keepOrder {
		return 1
	}
	return c.Threads
}

// mapBatches runs workers goroutines that each apply a function made by
// newFn (one per worker, so it may own scratch space) to input batches and
// send the results on; a nil result is dropped. The function consumes its
// input batch. The output closes when every worker is done.
func mapBatches(c *Context, in <-chan arrow.RecordBatch, workers int, newFn func() func(arrow.RecordBatch) (arrow.RecordBatch, error)) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		fn := newFn()
		c.Go(func() error {
			defer wg.Done()
			defer drainLater(c, in)
			for b := range in {
				r, err := fn(b)
				if err != nil {
					return err
				}
				if r != nil && !Send(c, out, r) {
					return c.Err()
				}
			}
			return nil
		})
	}
	c.Go(func() error {
		wg.Wait()
		close(out)
		return nil
	})
	return out
}

// drainLater releases whatever still arrives on in, in the query's group so
// Wait covers it. A worker that stops early (error, cancellation) calls it
// so producers blocked on in can finish and no batch is leaked; after a
// normal end in is closed and it returns at once.
func drainLater(c *Context, in <-chan arrow.RecordBatch) {
	c.Go(func() error {
		Drain(in)
		return nil
	})
}

// failedDrain is failed for a node with an input: it also drains in.
func failedDrain(c *Context, in <-chan arrow.RecordBatch, err error) <-chan arrow.RecordBatch {
	drainLater(c, in)
	return failed(c, make(chan arrow.RecordBatch), err)
}
