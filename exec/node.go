package exec

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
)

// Node is one physical operator in a running network.
type Node interface {
	// Schema is the schema of every batch the node emits.
	Schema() *arrow.Schema
	// Children are the node's inputs, in order.
	Children() []Node
	// Explain is the node's one-line description for EXPLAIN (no children).
	Explain() string
	// Open starts the node's workers under c (opening its children first)
	// and returns the channel its output batches arrive on. The node closes
	// the channel when its output is complete, and also when c is cancelled
	// or the node fails; a failure is returned from the worker's function so
	// c.Wait reports it. Open itself never blocks.
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

// RewriteChildren returns n with f applied to each child field, found
// by reflection (n itself is modified: plans are freshly lowered per
// statement). The planner above exec rewrites plans with it: physical
// (shared sources, join filters) and gpuexec (placement).
func RewriteChildren(n Node, f func(Node) Node) Node {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return n
	}
	s := v.Elem()
	for i := range s.NumField() {
		fv := s.Field(i)
		if !fv.CanSet() {
			continue
		}
		switch {
		case fv.Type() == nodeType && !fv.IsNil():
			fv.Set(reflect.ValueOf(f(fv.Interface().(Node))))
		case fv.Kind() == reflect.Slice && fv.Type().Elem() == nodeType:
			for j := range fv.Len() {
				if e := fv.Index(j); !e.IsNil() {
					e.Set(reflect.ValueOf(f(e.Interface().(Node))))
				}
			}
		}
	}
	return n
}
