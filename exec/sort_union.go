package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// UnionAll emits the batches of all Inputs (same column types as Out).
type UnionAll struct {
	Inputs []Node
	Out    *arrow.Schema
	// InOrder: every batch of input k before any of input k+1 (VALUES
	// rows, whose order a window without ORDER BY reads); otherwise the
	// inputs are forwarded concurrently.
	InOrder bool
}

func (u *UnionAll) Schema() *arrow.Schema { return u.Out }
func (u *UnionAll) Children() []Node      { return u.Inputs }
func (u *UnionAll) Explain() string       { return "UnionAll" }

// Open forwards every input concurrently (or, InOrder, one after
// another), each batch under Out's schema.
func (u *UnionAll) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	if u.InOrder {
		ins := make([]<-chan arrow.RecordBatch, len(u.Inputs))
		for i, n := range u.Inputs {
			ins[i] = n.Open(c)
		}
		c.Go(func() error {
			defer close(out)
			for k, in := range ins {
				for b := range in {
					b, err := conform(b, u.Out)
					if err == nil && !Send(c, out, b) {
						err = c.Err()
					}
					if err != nil {
						for _, rest := range ins[k:] {
							drainLater(c, rest)
						}
						return err
					}
				}
			}
			return nil
		})
		return out
	}
	var wg sync.WaitGroup
	wg.Add(len(u.Inputs))
	for _, n := range u.Inputs {
		in := n.Open(c)
		c.Go(func() error {
			defer wg.Done()
			defer drainLater(c, in)
			for b := range in {
				b, err := conform(b, u.Out)
				if err != nil {
					return err
				}
				if !Send(c, out, b) {
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
