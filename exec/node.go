package exec

import "github.com/apache/arrow-go/v18/arrow"

// Node is one physical operator in a running network.
type Node interface {
	// Schema is the schema of every batch the node emits.
	Schema() *arrow.Schema
	// Children are the node's inputs, in order.
	Children() []Node
	// Explain is the node's one-line description for EXPLAIN (no children).
	Explain() string
	// WithChildren returns a copy of the node whose children are
	// children (as many as Children has, in its order); the node itself
	// is unchanged (node_children.go).
	WithChildren(children []Node) Node
	// Open starts the node's workers under c (opening its children first)
	// and returns the channel its output batches arrive on. The node closes
	// the channel when its output is complete, and also when c is cancelled
	// or the node fails; a failure is returned from the worker's function so
	// c.Wait reports it. Open itself never blocks. A node may be opened
	// again, also under another Context at the same time: what a run
	// keeps lives in the run (runstate.go), not on the node.
	Open(c *Context) <-chan arrow.RecordBatch
}

// Run opens root under c, passes each output batch to emit (in order, from
// one goroutine; emit must not keep the batch past the call unless it
// retains it) and returns the query's first error. After Run returns, no
// goroutine of the query is left.
func Run(c *Context, root Node, emit func(arrow.RecordBatch) error) error {
	queryStarted()
	defer queryEnded()
	out := root.Open(c)
	var emitErr error
	for b := range out {
		if emitErr == nil {
			emitErr = emit(b)
		}
		b.Release()
		if emitErr != nil {
			break
		}
	}
	if emitErr != nil {
		c.Go(func() error { return emitErr }) // cancels the rest
		Drain(out)
	}
	err := c.Wait()
	c.releaseShared()
	if err == nil {
		err = emitErr
	}
	return CancelledErr(err)
}

// RewriteChildren returns n with f applied to each of its children and
// links (Linked): n itself when f returned every one unchanged, else a
// copy (WithChildren, WithLinks); n is never modified. The planner above
// exec rewrites plans with it: physical (shared sources, join filters)
// and gpuexec (placement). A node reached twice (a shared source, a
// build side its CPU twin also runs) is handed to f twice: an f that
// makes new nodes memoises, so that both places get the same one.
func RewriteChildren(n Node, f func(Node) Node) Node {
	if c, ok := mapNodes(n.Children(), f); ok {
		n = n.WithChildren(c)
	}
	if l, ok := n.(Linked); ok {
		if c, ok := mapNodes(l.Links(), f); ok {
			n = l.WithLinks(c)
		}
	}
	return n
}

// mapNodes returns f over ns (nil entries kept) and whether any changed.
func mapNodes(ns []Node, f func(Node) Node) ([]Node, bool) {
	var out []Node
	for i, c := range ns {
		if c == nil {
			continue
		}
		if m := f(c); m != c {
			if out == nil {
				out = append([]Node(nil), ns...)
			}
			out[i] = m
		}
	}
	return out, out != nil
}
