package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sync/errgroup"
)

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

// Open runs the input under a child context of its own, so that once
// Count rows have passed it can stop the producers (cancel the child)
// instead of letting them run to the end while it drains them. The
// child's cancellation errors are expected then and not reported.
func (l *Limit) Open(c *Context) <-chan arrow.RecordBatch {
	child, cancel := c.subContext()
	in := l.Input.Open(child)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		stopped := false
		err := l.pass(c, in, out, &stopped)
		close(out)
		cancel()
		Drain(in)
		childErr := child.Wait()
		if err != nil {
			return err
		}
		if childErr != nil && !(stopped && errors.Is(childErr, context.Canceled)) {
			return childErr
		}
		return c.Err()
	})
	return out
}

func (l *Limit) pass(c *Context, in <-chan arrow.RecordBatch, out chan<- arrow.RecordBatch, stopped *bool) error {
	skip, left := l.Offset, l.Count
	if left == 0 {
		*stopped = true
		return nil
	}
	for b := range in {
		n := b.NumRows()
		if skip >= n {
			skip -= n
			b.Release()
			continue
		}
		start, end := skip, n
		skip = 0
		if left >= 0 && end-start > left {
			end = start + left
		}
		if start > 0 || end < n {
			s := b.NewSlice(start, end)
			b.Release()
			b = s
		}
		if !Send(c, out, b) {
			return c.Err()
		}
		if left >= 0 {
			left -= end - start
			if left == 0 {
				*stopped = true
				return nil
			}
		}
	}
	return nil
}

// subContext returns a Context under c with its own cancellation and error
// group: its failures cancel only it, until the owner reports them.
func (c *Context) subContext() (*Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(c.Context)
	g, gctx := errgroup.WithContext(ctx)
	sub := *c // every other setting is shared
	sub.Context, sub.group = gctx, g
	return &sub, cancel
}
