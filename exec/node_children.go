package exec

import "fmt"

// WithChildren for every operator of the package, in one place: each
// returns a copy of its node with new inputs, in Children's order, and
// leaves the node itself as it was, so that a rewrite (physical's shared
// subplans and join filters, gpuexec's placement, EXPLAIN ANALYZE's
// wrappers) builds a new plan instead of changing one another plan may
// hold. A node without children has nothing to replace: it returns
// itself.

// Linked is implemented by nodes that hold nodes besides their Children:
// a SharedRead's source after the first read (EXPLAIN shows it once), a
// device operator's CPU twin (run when the device cannot). A rewrite maps
// those too (RewriteChildren), so that a node reached twice stays one
// node: two reads of one source must read the same run of it.
type Linked interface {
	// Links are the nodes besides Children, in a fixed order.
	Links() []Node
	// WithLinks is a copy of the node with new links, in Links' order.
	WithLinks(links []Node) Node
}

// arity panics unless children has n entries: a rewrite that hands a node
// another number of inputs than it has is a bug in the rewrite.
func arity(node Node, children []Node, n int) {
	if len(children) != n {
		panic(fmt.Sprintf("exec: %s.WithChildren: %d children, want %d", node.Explain(), len(children), n))
	}
}

func (a *AvgCombine) WithChildren(c []Node) Node {
	arity(a, c, 1)
	cp := *a
	cp.Input = c[0]
	return &cp
}

func (u *UnionAll) WithChildren(c []Node) Node {
	arity(u, c, len(u.Inputs))
	cp := *u
	cp.Inputs = append([]Node(nil), c...)
	return &cp
}

func (f *Filter) WithChildren(c []Node) Node {
	arity(f, c, 1)
	cp := *f
	cp.Input = c[0]
	return &cp
}

func (p *Project) WithChildren(c []Node) Node {
	arity(p, c, 1)
	cp := *p
	cp.Input = c[0]
	return &cp
}

func (h *HashJoin) WithChildren(c []Node) Node {
	arity(h, c, 2)
	cp := *h
	cp.Left, cp.Right = c[0], c[1]
	return &cp
}

func (n *NestedLoopJoin) WithChildren(c []Node) Node {
	arity(n, c, 2)
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp
}

func (h *HashAggregate) WithChildren(c []Node) Node {
	arity(h, c, 1)
	cp := *h
	cp.Input = c[0]
	return &cp
}

func (w *Window) WithChildren(c []Node) Node {
	arity(w, c, 1)
	cp := *w
	cp.Input = c[0]
	return &cp
}

func (s *Sort) WithChildren(c []Node) Node {
	arity(s, c, 1)
	cp := *s
	cp.Input = c[0]
	return &cp
}

func (l *Limit) WithChildren(c []Node) Node {
	arity(l, c, 1)
	cp := *l
	cp.Input = c[0]
	return &cp
}

func (l *DrainLimit) WithChildren(c []Node) Node {
	arity(l, c, 1)
	cp := *l
	cp.Input = c[0]
	return &cp
}

func (e *Exchange) WithChildren(c []Node) Node {
	arity(e, c, 1)
	cp := *e
	cp.Input = c[0]
	return &cp
}

func (s *Scan) WithChildren(c []Node) Node {
	arity(s, c, 0)
	return s
}

func (v *Values) WithChildren(c []Node) Node {
	arity(v, c, 0)
	return v
}

func (s *SharedSource) WithChildren(c []Node) Node {
	arity(s, c, 1)
	cp := *s
	cp.Input = c[0]
	return &cp
}

// WithChildren of the first read replaces its source; the others have
// no children (their source is a link).
func (r *SharedRead) WithChildren(c []Node) Node {
	if !r.Primary {
		arity(r, c, 0)
		return r
	}
	arity(r, c, 1)
	cp := *r
	cp.Src = c[0]
	return &cp
}

// Links of a read after the first is its source.
func (r *SharedRead) Links() []Node {
	if r.Primary {
		return nil
	}
	return []Node{r.Src}
}

func (r *SharedRead) WithLinks(l []Node) Node {
	if r.Primary {
		arity(r, l, 0)
		return r
	}
	arity(r, l, 1)
	cp := *r
	cp.Src = l[0]
	return &cp
}

// WithChildren of a wrapper wraps Inner's copy afresh: the figures belong
// to the run of the node it wrapped.
func (a *Analyzed) WithChildren(c []Node) Node {
	return &Analyzed{Inner: a.Inner.WithChildren(c), progress: a.progress, progressOnly: a.progressOnly}
}

func (s *concatSource) WithChildren(c []Node) Node {
	arity(s, c, 1)
	cp := *s
	cp.first = c[0]
	return &cp
}

func (s *partitionSource) WithChildren(c []Node) Node {
	arity(s, c, 0)
	return s
}

func (s *chanSource) WithChildren(c []Node) Node {
	arity(s, c, 0)
	return s
}
