package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// UnionAll emits the batches of all Inputs (same column types as Out).
type UnionAll struct {
	Inputs []Node
	Out    *arrow.Schema
}

func (u *UnionAll) Schema() *arrow.Schema { return u.Out }
func (u *UnionAll) Children() []Node      { return u.Inputs }
func (u *UnionAll) Explain() string       { return "UnionAll" }

// Open forwards every input concurrently, each batch under Out's schema.
func (u *UnionAll) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
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
