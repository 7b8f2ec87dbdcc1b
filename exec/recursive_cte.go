package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sync/errgroup"

	"gq/errs"
	gqmem "gq/memory"
)

// A recursive CTE (WITH RECURSIVE), DuckDB's RECURSIVE_CTE: the anchor's
// rows are the first working table; the recursive term, whose WorkScans
// read the working table, runs over each working table in turn, and its
// rows are the next one, until one is empty. Every working table's rows
// are the output, streamed as each iteration yields them. With Distinct
// (UNION) a row is kept only the first time it appears, in the output and
// in the next working table, so a cyclic graph's walk ends.
//
// Each iteration opens the recursive term again under a Context of its
// own (its own error group and run state: a join's build side, a shared
// subplan's batches and a join filter are the iteration's, since the
// working table changes), with the working table reachable from it by
// the WorkTable. The working table waits for the next iteration in a
// SpillableBatches: under memory pressure it goes to disk. The set of
// rows seen (UNION) is reserved with the memory manager; when it no
// longer fits, the query fails with ResourcesExhausted.

// MaxRecursion is the most iterations a recursive CTE may run: a
// recursion that never ends fails with a clear error instead of running
// until memory runs out (MySQL's cte_max_recursion_depth; its default
// of 1000 would refuse ordinary series, so gq allows far more).
var MaxRecursion = 1_000_000

// WorkTable names one recursive CTE's working table: the RecursiveCTE
// and the WorkScans of its recursive term have the same Key (comparable;
// the planner's identity of the CTE's binding, so that two bindings of
// one CTE, nested or side by side, have their own).
type WorkTable struct {
	Name string
	Key  any
}

// RecursiveCTE runs a recursive CTE (above). Anchor and Recursive yield
// Out's column types.
type RecursiveCTE struct {
	Work      WorkTable
	Anchor    Node
	Recursive Node
	Distinct  bool
	Out       *arrow.Schema
	// Note is said in EXPLAIN after the operator (how several ranks run
	// it: physical.Distribute). The operator has no device twin: on a
	// GPU, placement leaves it (and its WorkScans) on the CPU, which
	// EXPLAIN marks, while the recursive term's other operators may run
	// on the device.
	Note string
}

func (r *RecursiveCTE) Schema() *arrow.Schema { return r.Out }
func (r *RecursiveCTE) Children() []Node      { return []Node{r.Anchor, r.Recursive} }
func (r *RecursiveCTE) Explain() string {
	op := "union all"
	if r.Distinct {
		op = "union"
	}
	s := "RecursiveCTE " + r.Work.Name + " " + op
	if r.Note != "" {
		s += " " + r.Note
	}
	return s
}

func (r *RecursiveCTE) WithChildren(c []Node) Node {
	arity(r, c, 2)
	cp := *r
	cp.Anchor, cp.Recursive = c[0], c[1]
	return &cp
}

// WorkScan reads the working table of Work in the current iteration of
// its RecursiveCTE.
type WorkScan struct {
	Work WorkTable
	Out  *arrow.Schema
}

func (w *WorkScan) Schema() *arrow.Schema      { return w.Out }
func (w *WorkScan) Children() []Node           { return nil }
func (w *WorkScan) Explain() string            { return "WorkScan " + w.Work.Name }
func (w *WorkScan) WithChildren(c []Node) Node { arity(w, c, 0); return w }

// workKey is the context key of a working table's batches.
type workKey struct{ key any }

func (w *WorkScan) Open(c *Context) <-chan arrow.RecordBatch {
	batches, ok := c.Value(workKey{w.Work.Key}).([]arrow.RecordBatch)
	if !ok {
		return failed(c, make(chan arrow.RecordBatch), errs.New(errs.Internal, "working table of %s read outside its recursive CTE", w.Work.Name))
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		for _, b := range batches {
			b.Retain()
			if !Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

func (r *RecursiveCTE) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		return r.run(c, out)
	})
	return out
}

// run computes the CTE, sending its rows to out.
func (r *RecursiveCTE) run(c *Context, out chan<- arrow.RecordBatch) error {
	var seen *rowSet
	if r.Distinct {
		var err error
		if seen, err = newRowSet(c, r.Work.Name, r.Out); err != nil {
			return err
		}
		defer seen.close()
	}
	// keep passes the new rows of b (all of them under UNION ALL) to out
	// and to the next working table.
	keep := func(b arrow.RecordBatch, next *gqmem.SpillableBatches) error {
		b, err := conform(b, r.Out)
		if err != nil {
			return err
		}
		if seen != nil {
			if b, err = seen.fresh(c, b); err != nil {
				return err
			}
		}
		if b.NumRows() == 0 {
			b.Release()
			return nil
		}
		b.Retain()
		next.Append(b)
		if !Send(c, out, b) {
			return c.Err()
		}
		return nil
	}
	next := gqmem.NewSpillableBatches(c.Mem, c.Stats, r.Out, sortPriority)
	defer func() { next.Close() }()
	anchor := r.Anchor.Open(c)
	for b := range anchor {
		if err := keep(b, next); err != nil {
			Drain(anchor)
			return err
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	for iter := 1; ; iter++ {
		work, err := next.Take(c.Alloc)
		if err != nil {
			return err
		}
		if len(work) == 0 {
			return nil
		}
		if iter > MaxRecursion {
			releaseBatchList(work)
			return errs.New(errs.ResourcesExhausted, "recursive CTE %s did not end after %d iterations (the limit); does its recursive term's WHERE ever stop it?", r.Work.Name, MaxRecursion)
		}
		next = gqmem.NewSpillableBatches(c.Mem, c.Stats, r.Out, sortPriority)
		err = r.iterate(c, work, func(b arrow.RecordBatch) error { return keep(b, next) })
		releaseBatchList(work)
		if err != nil {
			return err
		}
	}
}

// iterate runs the recursive term once over work, passing each batch it
// yields to emit. The term runs under a Context of its own (its error
// group, its run state), over the query's memory and cancellation.
func (r *RecursiveCTE) iterate(c *Context, work []arrow.RecordBatch, emit func(arrow.RecordBatch) error) error {
	g, ctx := errgroup.WithContext(context.WithValue(c.Context, workKey{r.Work.Key}, work))
	sub := *c
	sub.Context, sub.group, sub.shared = ctx, g, &sharedRuns{}
	in := r.Recursive.Open(&sub)
	var emitErr error
	for b := range in {
		if emitErr != nil {
			b.Release()
			continue
		}
		if emitErr = emit(b); emitErr != nil {
			sub.Go(func() error { return emitErr }) // stops the term
		}
	}
	err := sub.Wait()
	sub.releaseShared()
	if emitErr != nil {
		return emitErr
	}
	if err != nil {
		return CancelledErr(err)
	}
	return c.Err()
}

// rowSet is the set of rows a UNION recursive CTE has produced, keyed by
// every column with the hash operators' key encoding (NULLs equal).
type rowSet struct {
	name  string // the CTE's, for errors
	codec keyCodec
	table *keyTable
	bk    batchKeys
	ids   []int32
	sel   []int32
	res   *gqmem.Reservation
}

// rowSetBytesPerRow is the reservation per distinct row beyond its key's
// bytes: its hash slot, id, offset and hash.
const rowSetBytesPerRow = 32

func newRowSet(c *Context, name string, schema *arrow.Schema) (*rowSet, error) {
	types := make([]arrow.DataType, schema.NumFields())
	for i, f := range schema.Fields() {
		types[i] = f.Type
	}
	codec, err := newKeyCodec(types)
	if err != nil {
		return nil, errs.New(errs.Unsupported, "UNION (without ALL) in recursive CTE %s over these column types (%v) is not supported; use UNION ALL", name, types)
	}
	res, err := c.Mem.Reserve(gqmem.Host, 0, true)
	if err != nil {
		return nil, err
	}
	return &rowSet{name: name, codec: codec, table: newKeyTableFor(codec, 0), res: res}, nil
}

// fresh returns the rows of b not seen before (and not earlier in b),
// adding them to the set; it takes b.
func (s *rowSet) fresh(c *Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	s.codec.prepare(b.Columns(), n, &s.bk)
	s.ids = grown(s.ids, n)
	before := int32(s.table.len())
	s.table.insert(&s.bk, s.ids, true)
	s.sel = s.sel[:0]
	next := before
	var bytes int64
	for i, id := range s.ids[:n] {
		if id == next {
			s.sel = append(s.sel, int32(i))
			next++
			bytes += rowSetBytesPerRow
			if s.bk.offs != nil && !s.codec.single && !s.codec.pair {
				bytes += int64(len(s.bk.row(i)))
			} else {
				bytes += 16
			}
		}
	}
	if bytes > 0 {
		r, err := c.Mem.Reserve(gqmem.Host, bytes, false)
		if err != nil {
			b.Release()
			return nil, errs.New(errs.ResourcesExhausted, "recursive CTE %s: the rows it has produced, which UNION keeps to drop repeats, no longer fit in memory (%v)", s.name, err)
		}
		s.res.Merge(r)
	}
	if len(s.sel) == n {
		return b, nil
	}
	out := TakeBatch(c.Alloc, b, s.sel)
	b.Release()
	return out, nil
}

func (s *rowSet) close() {
	s.table.freeSlots()
	s.res.Release()
}

// WriteKey: a recursive CTE's rows depend on its working table, which a
// WorkScan reads by the run of its own RecursiveCTE: neither equals
// another node, so no subplan holding one is shared (a shared run would
// outlive the iteration that made it).
func (r *RecursiveCTE) WriteKey(k *KeyWriter) {
	k.Str("RecursiveCTE")
	k.Str(r.Work.Name)
	k.Bool(r.Distinct)
	k.Schema(r.Out)
	k.Unique()
}

func (w *WorkScan) WriteKey(k *KeyWriter) {
	k.Str("WorkScan")
	k.Str(w.Work.Name)
	k.Schema(w.Out)
	k.Unique()
}
