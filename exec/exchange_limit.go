package exec

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// HoldsExchange reports whether the plan n holds an exchange: a plan that
// holds none may be cancelled on one rank alone (Limit instead of
// DrainLimit).
func HoldsExchange(n Node) bool {
	if _, ok := n.(*Exchange); ok {
		return true
	}
	return slices.ContainsFunc(n.Children(), HoldsExchange)
}

// DrainLimit is Limit for distributed plans: it skips Offset rows, passes
// Count, and then drains its input instead of cancelling it. Cancelling
// would stop exchanges below it mid-shuffle on this rank while the other
// ranks still wait for its chunks.
type DrainLimit struct {
	Input  Node
	Offset int64
	Count  int64
}

func (l *DrainLimit) Schema() *arrow.Schema { return l.Input.Schema() }
func (l *DrainLimit) Children() []Node      { return []Node{l.Input} }
func (l *DrainLimit) Explain() string       { return "Limit (draining)" }

func (l *DrainLimit) Open(c *Context) <-chan arrow.RecordBatch {
	in := l.Input.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer drainLater(c, in)
		skip, left := l.Offset, l.Count
		for b := range in {
			n := b.NumRows()
			if left == 0 || n <= skip {
				skip -= min(skip, n)
				b.Release()
				continue
			}
			lo := skip
			skip = 0
			hi := n
			if left >= 0 {
				hi = min(n, lo+left)
				left -= hi - lo
			}
			if lo == 0 && hi == n {
				if !Send(c, out, b) {
					return c.Err()
				}
				continue
			}
			s := b.NewSlice(lo, hi)
			b.Release()
			if !Send(c, out, s) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}
