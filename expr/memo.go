package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Common subexpressions of expressions evaluated together. An operator
// that evaluates several expressions over each batch (an aggregation's
// arguments) may find the same call in more than one of them: TPC-H q01
// sums l_extendedprice*(1-l_discount) and, inside another sum, that times
// (1+l_tax). CompileShared compiles such a call once, as a memoNode, and
// the evaluators called with one Memo compute it once per batch.
//
// This is done here rather than by the planner projecting the shared value
// into a column: a projected decimal128 column would be materialised at
// 16 bytes a value, where the evaluator hands a sum the batches whose
// values fit an int64 as int64s (EvalNarrow), and the products built on
// it would take the 128-bit kernels.

// CompileShared compiles es (as Compile each) so that every call that
// occurs more than once among them, counted as a whole (not inside a
// larger shared call), is one node: evaluators called with the same Memo
// (EvalMemo, EvalNarrowMemo) compute it once per batch. Expressions are
// deterministic, so equal text and type mean equal values. shared reports
// whether any call is shared.
func CompileShared(es []Expr) (evs []*Evaluator, shared bool, err error) {
	counts := map[string]int{}
	for _, e := range es {
		countCalls(e, counts)
	}
	memos := map[string]*memoNode{}
	for _, e := range es {
		markShared(e, counts, memos)
	}
	evs = make([]*Evaluator, len(es))
	for i, e := range es {
		n, err := compileMemo(e, memos)
		if err != nil {
			return nil, false, err
		}
		evs[i] = &Evaluator{root: n, typ: e.DataType()}
	}
	for _, m := range memos {
		shared = shared || m.inner != nil
	}
	return evs, shared, nil
}

// exprKey identifies an expression by its text and type.
func exprKey(e Expr) string { return e.String() + "\x00" + e.DataType().String() }

// countCalls counts every call of e, nested ones included.
func countCalls(e Expr, counts map[string]int) {
	c, ok := e.(*Call)
	if !ok {
		return
	}
	counts[exprKey(c)]++
	for _, a := range c.Args {
		countCalls(a, counts)
	}
}

// markShared records the outermost calls of e that occur more than once.
func markShared(e Expr, counts map[string]int, shared map[string]*memoNode) {
	c, ok := e.(*Call)
	if !ok {
		return
	}
	if k := exprKey(c); counts[k] > 1 {
		if shared[k] == nil {
			shared[k] = &memoNode{id: len(shared)}
		}
		return
	}
	for _, a := range c.Args {
		markShared(a, counts, shared)
	}
}

// compileMemo is compile with the shared calls as their memoNodes.
func compileMemo(e Expr, shared map[string]*memoNode) (node, error) {
	c, ok := e.(*Call)
	if !ok || len(shared) == 0 {
		return compile(e)
	}
	m := shared[exprKey(c)]
	if m != nil && m.inner != nil {
		return m, nil
	}
	var n node
	var err error
	if m != nil {
		n, err = compile(c) // a shared call holds no shared call
	} else {
		args := make([]node, len(c.Args))
		allLit := true
		for i, a := range c.Args {
			if args[i], err = compileMemo(a, shared); err != nil {
				return nil, err
			}
			if _, ok := args[i].(*litNode); !ok {
				allLit = false
			}
		}
		if n, err = compileCall(c, args); err == nil && allLit {
			n = fold(n)
		}
	}
	if err != nil {
		return nil, err
	}
	if _, ok := n.(*litNode); ok || m == nil {
		return n, nil // a folded constant costs nothing to repeat
	}
	m.inner = n
	return m, nil
}

// memoNode is a shared call: with a Memo in the context it is evaluated
// once per batch, its result kept in the Memo for the other evaluators.
type memoNode struct {
	inner node
	id    int
}

func (n *memoNode) typ() arrow.DataType { return n.inner.typ() }

func (n *memoNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	return n.cached(c, b, false)
}

// evalNarrow keeps its own result apart from eval's: the two may differ in
// type (narrower).
func (n *memoNode) evalNarrow(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	return n.cached(c, b, true)
}

func (n *memoNode) cached(c *ctx, b arrow.RecordBatch, narrow bool) (arrow.Array, error) {
	slot := 2 * n.id
	if narrow {
		slot++
	}
	if c.memo != nil && slot < len(c.memo.vals) && c.memo.vals[slot] != nil {
		a := c.memo.vals[slot]
		a.Retain()
		return a, nil
	}
	var a arrow.Array
	var err error
	if nr, ok := n.inner.(narrower); ok && narrow {
		a, err = nr.evalNarrow(c, b)
	} else {
		a, err = n.inner.eval(c, b)
	}
	if err != nil || c.memo == nil {
		return a, err
	}
	for len(c.memo.vals) <= slot {
		c.memo.vals = append(c.memo.vals, nil)
	}
	a.Retain()
	c.memo.vals[slot] = a
	return a, nil
}

// Memo holds the values of shared calls (CompileShared) for one batch. A
// worker keeps one and calls Reset after each batch; it is not safe for
// concurrent use.
type Memo struct {
	vals []arrow.Array
}

// Reset releases the values held, for the next batch.
func (m *Memo) Reset() {
	for i, a := range m.vals {
		if a != nil {
			a.Release()
			m.vals[i] = nil
		}
	}
}

// EvalMemo is Eval with the shared calls taken from, or left in, m (nil:
// none kept).
func (ev *Evaluator) EvalMemo(mem memory.Allocator, batch arrow.RecordBatch, m *Memo) (arrow.Array, error) {
	c := &ctx{mem: mem, n: int(batch.NumRows()), memo: m}
	if l, ok := ev.root.(*litNode); ok {
		return makeConst(c, l.t, l.v), nil
	}
	return ev.root.eval(c, batch)
}

// EvalNarrowMemo is EvalNarrow with the shared calls taken from, or left
// in, m (nil: none kept).
func (ev *Evaluator) EvalNarrowMemo(mem memory.Allocator, batch arrow.RecordBatch, m *Memo) (arrow.Array, error) {
	c := &ctx{mem: mem, n: int(batch.NumRows()), memo: m}
	if nr, ok := ev.root.(narrower); ok {
		return nr.evalNarrow(c, batch)
	}
	if l, ok := ev.root.(*litNode); ok {
		return makeConst(c, l.t, l.v), nil
	}
	return ev.root.eval(c, batch)
}
