package exec

import (
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// UnionAll emits the batches of all Inputs (same column types as Out).
type UnionAll struct {
	Inputs []Node
	Out    *arrow.Schema
	// InOrder: every batch of input k before any of input k+1, always
	// (VALUES rows, whose order a window without ORDER BY reads). Without
	// it the inputs still come out in order, as DuckDB keeps insertion
	// order, where that cannot deadlock (inOrderSafe); otherwise they are
	// forwarded concurrently.
	InOrder bool
}

// inOrderSafe reports whether consuming n's output only after the inputs
// before it are done cannot stall them: no exchange below it (ranks wait
// on each other's chunks of every exchange that is open) and no shared
// subplan read (a read waits for its source, which another input of the
// union may be the one running).
func inOrderSafe(n Node) bool {
	switch n.(type) {
	case *Exchange, *SharedRead, *SharedSource:
		return false
	}
	for _, ch := range n.Children() {
		if !inOrderSafe(ch) {
			return false
		}
	}
	return true
}

func (u *UnionAll) Schema() *arrow.Schema { return u.Out }
func (u *UnionAll) Children() []Node      { return u.Inputs }
func (u *UnionAll) Explain() string       { return "UnionAll" }

// Open forwards the inputs one after another (all of them open and
// running meanwhile), or concurrently where that could deadlock, each
// batch under Out's schema.
func (u *UnionAll) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	if u.InOrder || !slices.ContainsFunc(u.Inputs, func(n Node) bool { return !inOrderSafe(n) }) {
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
