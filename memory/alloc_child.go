package memory

// NewChildAllocator returns an Allocator that allocates from parent's own
// underlying allocator and counts every byte in itself, parent and
// parent's parents: a part's account (one operator's, under EXPLAIN
// ANALYZE) inside the whole's (the query's). Unlike NewAllocator(parent,
// nil), which would wrap parent as an opaque allocator, the child's
// buffers are the same kind as the parent's, so what depends on the inner
// allocator (Adopt) works through it as through the parent.
func NewChildAllocator(parent *Allocator) *Allocator {
	return &Allocator{mem: parent.mem, parent: parent}
}
