package arrowgpu

import (
	"strings"
	"sync"

	"gq/expr"
)

// memo remembers generated kernels (GenerateFused, GenerateAgg) by their
// expressions' keys. The device's operators are placed by generating
// their kernels, for every query, so the same filters, projections and
// aggregations were written again and again: a third of planning a
// TPC-H query on the GPU. Kernels are not changed once made (WithHaving
// and WithTopN copy), so callers share them. At most memoMax entries
// (then emptied).
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

const memoMax = 1024

func newMemo[T any]() *memo[T] { return &memo[T]{m: map[string]T{}} }

func (m *memo[T]) get(key string) (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

func (m *memo[T]) put(key string, v T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= memoMax {
		clear(m.m)
	}
	m.m[key] = v
}

// exprsKey is a memo key of a generator's call: what (its name and
// arguments other than expressions), exprs and pred (may be nil); false
// when an expression has no key (expr.WriteKey). The expressions' text
// is part of it too: a kernel's Sites name its columns in error
// messages, which must be this query's names.
func exprsKey(what string, exprs []expr.Expr, pred expr.Expr) (string, bool) {
	var b strings.Builder
	b.WriteString(what)
	b.WriteByte('|')
	for _, e := range append(exprs[:len(exprs):len(exprs)], pred) {
		if e == nil {
			continue
		}
		if !expr.WriteKey(&b, e) {
			return "", false
		}
		b.WriteByte('=')
		b.WriteString(e.String())
		b.WriteByte(';')
	}
	if pred == nil {
		b.WriteString("|no predicate")
	}
	return b.String(), true
}
