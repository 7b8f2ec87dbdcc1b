package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// evaluator is the part of *expr.Evaluator the operators use.
type evaluator interface {
	Eval(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error)
	EvalNarrow(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error)
	EvalMemo(mem memory.Allocator, b arrow.RecordBatch, m *expr.Memo) (arrow.Array, error)
	EvalNarrowMemo(mem memory.Allocator, b arrow.RecordBatch, m *expr.Memo) (arrow.Array, error)
	EvalFilter(mem memory.Allocator, b arrow.RecordBatch, sel []int32) ([]int32, error)
	EvalFilterFrom(mem memory.Allocator, b arrow.RecordBatch, cand []int32) ([]int32, error)
}

// compiledExpr is one expression prepared for a node. A bare column is
// served by reusing the input array (Retain, no copy), which is also the
// common case of projections and sort keys.
type compiledExpr struct {
	col int // >= 0: the expression is input column col
	ev  evaluator
}

func compileExpr(e expr.Expr) (compiledExpr, error) {
	if c, ok := e.(*expr.Column); ok {
		return compiledExpr{col: c.Index}, nil
	}
	ev, err := compileEvaluator(e)
	if err != nil {
		return compiledExpr{}, err
	}
	return compiledExpr{col: -1, ev: ev}, nil
}

func compileExprs(es []expr.Expr) ([]compiledExpr, error) {
	out := make([]compiledExpr, len(es))
	for i, e := range es {
		ce, err := compileExpr(e)
		if err != nil {
			return nil, err
		}
		out[i] = ce
	}
	return out, nil
}

// eval returns the expression's value over b; the caller releases it.
func (ce compiledExpr) eval(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error) {
	if ce.col >= 0 {
		if ce.col >= int(b.NumCols()) {
			return nil, errs.New(errs.Internal, "column #%d out of range (batch has %d columns)", ce.col, b.NumCols())
		}
		a := b.Column(ce.col)
		a.Retain()
		return a, nil
	}
	return ce.ev.Eval(mem, b)
}

// evalNarrow is eval, except that a decimal128 expression may give a
// batch whose values all fit an int64 as a Decimal64 array of the same
// scale (expr's EvalNarrow), for consumers that take either width.
func (ce compiledExpr) evalNarrow(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error) {
	if ce.col >= 0 {
		return ce.eval(mem, b)
	}
	return ce.ev.EvalNarrow(mem, b)
}

// evalMemo is eval with the shared calls of expressions compiled together
// (compileShared) kept in m for one batch.
func (ce compiledExpr) evalMemo(mem memory.Allocator, b arrow.RecordBatch, m *expr.Memo) (arrow.Array, error) {
	if ce.col >= 0 {
		return ce.eval(mem, b)
	}
	return ce.ev.EvalMemo(mem, b, m)
}

// evalNarrowMemo is evalNarrow with the shared calls of expressions
// compiled together (compileShared) kept in m for one batch.
func (ce compiledExpr) evalNarrowMemo(mem memory.Allocator, b arrow.RecordBatch, m *expr.Memo) (arrow.Array, error) {
	if ce.col >= 0 {
		return ce.eval(mem, b)
	}
	return ce.ev.EvalNarrowMemo(mem, b, m)
}

// compileShared recompiles the computed expressions among ces together
// (expr.CompileShared), so that a call two of them share is computed once
// per batch by callers that pass one Memo; it reports whether any is
// shared.
func compileShared(ces []*compiledExpr, es []expr.Expr) (bool, error) {
	var idx []int
	var computed []expr.Expr
	for i, ce := range ces {
		if ce != nil && ce.col < 0 {
			idx = append(idx, i)
			computed = append(computed, es[i])
		}
	}
	if len(computed) < 2 {
		return false, nil
	}
	evs, shared, err := expr.CompileShared(computed)
	if err != nil || !shared {
		return false, err
	}
	for k, i := range idx {
		ces[i].ev = evs[k]
	}
	return true, nil
}

// filterFrom returns the rows of cand (ascending; nil: all rows of b)
// where the predicate is true (NULL: false), in sel's or cand's storage.
func (ce compiledExpr) filterFrom(mem memory.Allocator, b arrow.RecordBatch, cand, sel []int32) ([]int32, error) {
	if cand == nil {
		return ce.filter(mem, b, sel)
	}
	if ce.col < 0 {
		return ce.ev.EvalFilterFrom(mem, b, cand)
	}
	a, ok := b.Column(ce.col).(*array.Boolean)
	if !ok {
		return nil, errs.New(errs.Internal, "filter column #%d is %s, not boolean", ce.col, b.Column(ce.col).DataType())
	}
	k := 0
	for _, r := range cand {
		if a.IsValid(int(r)) && a.Value(int(r)) {
			cand[k] = r
			k++
		}
	}
	return cand[:k], nil
}

// filter returns the rows of b where the predicate is true (NULL: false).
func (ce compiledExpr) filter(mem memory.Allocator, b arrow.RecordBatch, sel []int32) ([]int32, error) {
	if ce.col < 0 {
		return ce.ev.EvalFilter(mem, b, sel)
	}
	a, ok := b.Column(ce.col).(*array.Boolean)
	if !ok {
		return nil, errs.New(errs.Internal, "filter column #%d is %s, not boolean", ce.col, b.Column(ce.col).DataType())
	}
	sel = sel[:0]
	for i, n := 0, a.Len(); i < n; i++ {
		if a.IsValid(i) && a.Value(i) {
			sel = append(sel, int32(i))
		}
	}
	return sel, nil
}

// evalAll evaluates every expression over b; on error nothing is leaked.
func evalAll(mem memory.Allocator, ces []compiledExpr, b arrow.RecordBatch) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(ces))
	for i, ce := range ces {
		a, err := ce.eval(mem, b)
		if err != nil {
			releaseArrays(out[:i])
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}
