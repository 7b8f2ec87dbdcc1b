package exec

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// AggFunc is one aggregate: Fn is count_star, count, sum, avg, min, max
// or one of agg_more.go's;
// Arg is nil for count_star; Distinct aggregates distinct non-NULL values;
// Type is the result type (see planner.AggCall for the rules). sum/avg of
// an empty group (or all NULL) is NULL; count is 0.
type AggFunc struct {
	Fn       string
	Distinct bool
	Arg      expr.Expr
	Type     arrow.DataType
	// Param: a quantile's fraction (float64), string_agg's separator
	// (string); nil for the others (agg_more.go).
	Param any
}

// HashAggregate groups by GroupBy and computes Aggs; Out has the group
// columns then the aggregates. NULL keys form one group. With no GroupBy it
// emits exactly one row, even for empty input. Decimal sums that overflow
// int64 are an Execution error.
type HashAggregate struct {
	Input   Node
	GroupBy []expr.Expr
	Aggs    []AggFunc
	Out     *arrow.Schema
}

func (h *HashAggregate) Schema() *arrow.Schema { return h.Out }
func (h *HashAggregate) Children() []Node      { return []Node{h.Input} }
func (h *HashAggregate) Explain() string       { return "HashAggregate" }

// Open runs two phases. Phase 1: c.Threads workers pull input batches and
// aggregate them into thread-local tables (partial aggregation), setting
// a full table aside for phase 2 when its input is clustered by the key
// (flushGroups); a distinct aggregate keeps the (group, value) pairs new
// to the worker instead. When the groups prove many and the input is not
// clustered by the key, the workers switch to one table per partition of
// the key hashes, shared under locks (hashagg_spread.go). Phase 2: the groups are split into radix
// partitions by key hash (mergeParts: at least one per thread, more for
// many groups), and c.Threads goroutines take the partitions in turn:
// each merges the groups of its partition from every worker's tables, the
// set-aside ones included (into the partition's table, if spread), emits
// its rows and lets it go. Output order is
// unspecified.
func (h *HashAggregate) Open(c *Context) <-chan arrow.RecordBatch {
	if h.spillEligible(c) { // under a memory limit: hashagg_spill.go
		return h.openSpilling(c)
	}
	in := h.Input.Open(c)
	ap, err := h.prepare()
	if err != nil {
		return hashFailedDrain(c, in, err)
	}
	out := make(chan arrow.RecordBatch, c.ChanCap())
	workers := max(c.Threads, 1)
	ap.spreads = workers > 1 && ap.grouped() && !ap.anyDistinct
	spread := &aggSpread{} // hashagg_spread.go
	perWorker := make([][]*aggLocal, workers)
	done := make([]bool, workers) // the worker finished without error
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := range workers {
		c.Go(func() error {
			defer wg.Done()
			defer hashDrainLater(c, in)
			l, err := ap.newLocal(0)
			if err != nil {
				return err
			}
			var flushed []*aggLocal
			var sp *spreader // non-nil once this worker spreads
			for b := range in {
				if err == nil && sp == nil && spread.on.Load() {
					// Fold the worker's tables into the partitions and spread.
					if err = spread.start(ap, workers); err == nil {
						sp = &spreader{}
						err = spread.absorb(c, ap, w, append(flushed, l), sp)
						flushed, l = nil, nil
					}
				}
				if err == nil && sp != nil {
					err = spread.add(c, ap, w, b, sp)
					b.Release()
					if err != nil {
						break
					}
					continue
				}
				if err == nil && l.flush {
					var nl *aggLocal
					if nl, err = ap.newLocal(l.table.len()); err == nil {
						l.table.dropSlots() // nl's table takes them
						flushed = append(flushed, l)
						l = nl
					}
				}
				if err == nil {
					err = l.add(c, ap, b)
				}
				if err == nil && l.spread {
					spread.on.Store(true)
				}
				b.Release()
				if err != nil {
					break
				}
			}
			if err == nil {
				err = c.Err()
			}
			if l != nil {
				flushed = append(flushed, l)
			}
			if err != nil {
				for _, f := range flushed {
					f.release()
				}
				return err
			}
			perWorker[w], done[w] = flushed, true
			return nil
		})
	}
	c.Go(func() error {
		wg.Wait()
		var locals []*aggLocal
		failed := false
		for w, ls := range perWorker {
			failed = failed || !done[w] // a worker failed: the query is already failing
			locals = append(locals, ls...)
		}
		if failed {
			for _, l := range append(locals, spread.locals()...) {
				l.release()
			}
			close(out)
			return nil
		}
		return ap.merge(c, locals, spread.locals(), out)
	})
	return out
}

// flushGroups is the size at which a worker's table of groups may be
// flushed: set aside as it is, without its hash slots, for phase 2 to
// merge, while the worker goes on with an empty table. A worker flushes
// only when the batch it just added found almost none of its rows'
// groups among those already in the table (at most one row in
// flushReuse): input clustered by the key, as lineitem is by l_orderkey
// in TPC-H q18, whose 1.5M groups each worker would otherwise keep in one
// table whose slots alone (two per group) outweigh the groups. A table
// that still gathers rows into old groups keeps growing as before, since
// flushing it would store those groups again in each part. Aggregations
// with a distinct aggregate never flush (their value sets are keyed by
// the worker's group ids). A variable so that tests can flush small
// aggregations.
var flushGroups = 96 << 10

const flushReuse = 64

// aggPlan is the compiled form of a HashAggregate.
type aggPlan struct {
	node        *HashAggregate
	keys        []compiledExpr
	keyTypes    []arrow.DataType // as evaluated
	outTypes    []arrow.DataType // key columns as in Out
	codec       keyCodec
	packed      bool            // short string keys may take hash_packed.go's path
	args        []*compiledExpr // nil for count_star
	distinct    []bool
	sumOf       []int  // for avg(x) answered from sum(x)'s state: sum's index; else -1 (sharedAvgs)
	narrow      []bool // the argument is evaluated narrow (its state takes either width)
	memo        bool   // the arguments share calls, kept per batch in aggLocal.memo
	anyDistinct bool
	spreads     bool // a worker's table may find the groups many and spread (hashagg_spread.go)
}

func (h *HashAggregate) prepare() (*aggPlan, error) {
	ap := &aggPlan{node: h}
	if h.Out.NumFields() != len(h.GroupBy)+len(h.Aggs) {
		return nil, errs.New(errs.Internal, "HashAggregate: %d output columns for %d keys and %d aggregates",
			h.Out.NumFields(), len(h.GroupBy), len(h.Aggs))
	}
	var err error
	if ap.keys, err = compileExprs(h.GroupBy); err != nil {
		return nil, err
	}
	for i, e := range h.GroupBy {
		ap.keyTypes = append(ap.keyTypes, e.DataType())
		ap.outTypes = append(ap.outTypes, h.Out.Field(i).Type)
		if ot := h.Out.Field(i).Type; ot.ID() != e.DataType().ID() || expr.ScaleOf(ot) != expr.ScaleOf(e.DataType()) {
			return nil, errs.New(errs.Internal, "HashAggregate: key %s is %s, output column is %s", e, e.DataType(), ot)
		}
	}
	if ap.codec, err = newKeyCodec(ap.keyTypes); err != nil {
		return nil, err
	}
	ap.packed = packable(ap.codec)
	for i, f := range h.Aggs {
		if _, err := newAggState(f); err != nil {
			return nil, err
		}
		if ot := h.Out.Field(len(h.GroupBy) + i).Type; !arrow.TypeEqual(ot, f.Type) {
			return nil, errs.New(errs.Internal, "HashAggregate: %s result is %s, output column is %s", f.Fn, f.Type, ot)
		}
		var arg *compiledExpr
		if f.Arg != nil {
			ce, err := compileExpr(f.Arg)
			if err != nil {
				return nil, err
			}
			arg = &ce
		} else if f.Fn != "count_star" {
			return nil, errs.New(errs.Internal, "aggregate %s without argument", f.Fn)
		}
		ap.args = append(ap.args, arg)
		ap.distinct = append(ap.distinct, f.Distinct && arg != nil)
		ap.narrow = append(ap.narrow, !f.Distinct && takesNarrow(f))
	}
	ap.anyDistinct = slices.Contains(ap.distinct, true)
	ap.sumOf = sharedAvgs(h.Aggs)
	// The arguments evaluated over each batch share their common calls
	// (q01's l_extendedprice*(1-l_discount)); avgOfSum's are not evaluated.
	evaluated := slices.Clone(ap.args)
	argExprs := make([]expr.Expr, len(h.Aggs))
	for i, f := range h.Aggs {
		if ap.sumOf[i] >= 0 {
			evaluated[i] = nil
		}
		argExprs[i] = f.Arg
	}
	if ap.memo, err = compileShared(evaluated, argExprs); err != nil {
		return nil, err
	}
	return ap, nil
}

// sharedAvgs finds the aggregates avg(x) that can be answered from the
// state of a sum(x) of the same aggregation (TPC-H q01 has both for
// l_quantity and l_extendedprice): an integer or decimal sum that keeps
// its input's scale holds the running sum and the count of non-NULL
// values, all that avg needs, so avg(x) neither evaluates x nor passes
// over the rows (avgOfSum). For each aggregate it returns the index of
// that sum, or -1.
func sharedAvgs(aggs []AggFunc) []int {
	sumOf := make([]int, len(aggs))
	for i, f := range aggs {
		sumOf[i] = -1
		if f.Fn != "avg" || f.Distinct || f.Arg == nil {
			continue
		}
		for j, g := range aggs {
			if g.Fn == "sum" && !g.Distinct && g.Arg != nil && sameExpr(g.Arg, f.Arg) && keepsScale(g) {
				sumOf[i] = j
				break
			}
		}
	}
	return sumOf
}

// sameExpr reports whether a and b are the same expression (gq's
// expressions are deterministic: same inputs, same value).
func sameExpr(a, b expr.Expr) bool {
	return arrow.TypeEqual(a.DataType(), b.DataType()) && a.String() == b.String()
}

// keepsScale reports whether sum g's state sums its integer or decimal
// input as it is (not rescaled to a wider result scale).
func keepsScale(g AggFunc) bool {
	s, err := newAggState(g)
	if err != nil {
		return false
	}
	is, ok := s.(*intSumState)
	return ok && !is.avg && is.inMul <= 1
}

// takesNarrow reports whether f's state adds a Decimal128 argument's
// batches in either width, so that the argument may skip widening a batch
// whose values fit an int64 (TPC-H's sums of DECIMAL(15,2) products).
func takesNarrow(f AggFunc) bool {
	if f.Arg == nil || f.Arg.DataType().ID() != arrow.DECIMAL128 {
		return false
	}
	s, err := newAggState(f)
	_, ok := s.(*intSumState)
	return err == nil && ok
}

func (ap *aggPlan) grouped() bool { return len(ap.keys) > 0 }

func (ap *aggPlan) newStates() ([]aggState, error) {
	states := make([]aggState, len(ap.node.Aggs))
	for i, f := range ap.node.Aggs {
		s, err := newAggState(f)
		if err != nil {
			return nil, err
		}
		states[i] = s
	}
	shared := make([]bool, len(states)) // the sums that avgs read
	for i, j := range ap.sumOf {
		if j >= 0 {
			states[i] = &avgOfSum{sum: states[j].(*intSumState), avg: states[i].(*intSumState)}
			shared[j] = true
		}
	}
	// A plain sum needs no counts: each batch's and each merge's new
	// groups are all among its group ids, except for a distinct sum,
	// merged from the values new to each group.
	for i, s := range states {
		if is, ok := s.(*intSumState); ok && !is.avg && !shared[i] && !ap.distinct[i] {
			is.countless = true
		}
	}
	return states, nil
}

// aggLocal is one worker's partial aggregation.
type aggLocal struct {
	table   *keyTable // nil without GroupBy (one group, id 0)
	states  []aggState
	dist    []*distinctSet // per aggregate; nil unless Distinct
	chunks  [][]distinctChunk
	bk      batchKeys
	pk      packedKeys
	gids    []int32
	ngroups int
	rows    []int64   // rows of the batch per group (few groups)
	parts   [][]int32 // after phase 1: the worker's group ids per partition
	memo    expr.Memo // the arguments' shared calls over the current batch
	flush   bool      // the worker is to set this table aside (flushGroups)
	spread  bool      // the groups are many and the input not clustered: spread (spreadsOut)
	owned   bool      // a spread aggregation's partition table: never flushes or spreads
}

// distinctChunk holds values (with their local group ids) that were new
// to the worker's distinct set.
type distinctChunk struct {
	gids []int32
	vals arrow.Array
}

// newLocal returns an empty partial aggregation whose table has room for
// about keys groups.
func (ap *aggPlan) newLocal(keys int) (*aggLocal, error) {
	states, err := ap.newStates()
	if err != nil {
		return nil, err
	}
	l := &aggLocal{states: states, dist: make([]*distinctSet, len(states)), chunks: make([][]distinctChunk, len(states))}
	if ap.grouped() {
		l.table = newKeyTableFor(ap.codec, keys)
	} else {
		l.ngroups = 1
		for _, s := range states {
			s.resize(1)
		}
	}
	for i, d := range ap.distinct {
		if d {
			l.dist[i] = newDistinctSet(ap.node.Aggs[i].Arg.DataType(), 0)
		}
	}
	return l, nil
}

func (l *aggLocal) add(c *Context, ap *aggPlan, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	l.gids = grown(l.gids, n)
	if ap.grouped() {
		keys, err := evalAll(c.Alloc, ap.keys, b)
		if err != nil {
			return err
		}
		before := int32(l.table.len())
		if !ap.packed || !l.pk.insert(c.Alloc, ap.codec, keys, n, l.table, l.gids) {
			ap.codec.prepare(keys, n, &l.bk)
			l.table.insert(&l.bk, l.gids, true)
		}
		releaseArrays(keys)
		l.ngroups = l.table.len()
		if l.ngroups >= flushGroups && !ap.anyDistinct && !l.owned {
			old := 0
			for _, g := range l.gids[:n] {
				if g < before {
					old++
				}
			}
			l.flush = old*flushReuse <= n
		}
		if ap.spreads && !l.owned && !l.flush && l.ngroups >= spreadGroups {
			l.spread = spreadsOut(l.gids, before, n, l.ngroups)
		}
		for _, s := range l.states {
			s.resize(l.ngroups)
		}
	} else {
		clear(l.gids)
	}
	// With a few groups, count each group's rows once for every state
	// that can use the counts (fewGroupsUpdater).
	var rows []int64
	if ap.grouped() && l.ngroups > 1 && l.ngroups <= laneGroups {
		l.rows = growZero(l.rows[:0], l.ngroups)
		clear(l.rows)
		for _, g := range l.gids[:n] {
			l.rows[g]++
		}
		rows = l.rows
	}
	if ap.memo {
		defer l.memo.Reset()
	}
	for i, s := range l.states {
		if ap.sumOf[i] >= 0 {
			continue // avgOfSum: sum(x) does the work
		}
		var arg arrow.Array
		if ap.args[i] != nil {
			eval := ap.args[i].eval
			switch {
			case ap.memo && ap.narrow[i]:
				eval = func(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error) {
					return ap.args[i].evalNarrowMemo(mem, b, &l.memo)
				}
			case ap.memo:
				eval = func(mem memory.Allocator, b arrow.RecordBatch) (arrow.Array, error) {
					return ap.args[i].evalMemo(mem, b, &l.memo)
				}
			case ap.narrow[i]:
				eval = ap.args[i].evalNarrow
			}
			a, err := eval(c.Alloc, b)
			if err != nil {
				return err
			}
			arg = a
		}
		var err error
		done := false
		if fu, ok := s.(fewGroupsUpdater); ok && rows != nil && l.dist[i] == nil {
			done, err = fu.updateFew(l.gids[:n], arg, rows)
		}
		switch {
		case done || err != nil:
		case l.dist[i] != nil:
			err = l.addDistinct(c, i, arg)
		default:
			err = s.update(l.gids, arg)
		}
		if arg != nil {
			arg.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (l *aggLocal) release() {
	for _, cs := range l.chunks {
		for _, ch := range cs {
			ch.vals.Release()
		}
	}
}

// partitionOf maps a key hash to one of p partitions (by its high bits;
// tables index slots by the low bits).
func partitionOf(h uint64, p int) int { return int((h >> 32) * uint64(p) >> 32) }

// mergeGroups bounds the groups of one merge partition (the workers'
// groups summed, before duplicates merge). Phase 2 merges and emits a
// partition, then lets it go, on c.Threads goroutines; more groups than
// c.Threads partitions of this size hold are split into more partitions,
// so that only c.Threads merged partitions are live at once instead of a
// second copy of every group (TPC-H q18's 1.5M groups by l_orderkey), and
// each partition's table stays small enough for the caches. A variable
// so that tests can split small aggregations into many partitions.
var mergeGroups = 128 << 10

// mergeParts is the number of merge partitions for total groups (the
// workers' groups summed) on threads goroutines.
func mergeParts(total, threads int) int {
	threads = max(threads, 1)
	if total < mergeGroups/32 {
		return 1 // not worth the goroutines
	}
	return max(threads, (total+mergeGroups-1)/mergeGroups)
}

// merge is phase 2: partition, merge, emit. It closes out. owners are
// the partition tables of a spread aggregation (nil if it did not
// spread): partition p's groups of locals merge into owners[p].
func (ap *aggPlan) merge(c *Context, locals, owners []*aggLocal, out chan<- arrow.RecordBatch) error {
	defer func() {
		for _, l := range locals {
			l.release()
		}
		for _, l := range owners {
			if l != nil {
				l.release()
			}
		}
	}()
	defer close(out)
	nparts := 1
	if owners != nil {
		nparts = len(owners)
	} else if ap.grouped() {
		total := 0
		for _, l := range locals {
			total += l.ngroups
		}
		nparts = mergeParts(total, c.Threads)
	}
	// The merge tables are smaller than the workers' when there are more
	// partitions than workers: the workers' slots then go to the collector
	// rather than to the slab pools, where no table of theirs would take
	// them again.
	poolSlots := nparts <= len(locals)
	// Split each worker's groups by partition (in parallel over workers).
	var wg sync.WaitGroup
	for _, l := range locals {
		l.parts = make([][]int32, nparts)
		if !ap.grouped() {
			l.parts[0] = []int32{0}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Merging reads keys by id only: free the slots now (a third
			// of q18's peak memory was the workers' tables).
			if poolSlots {
				l.table.dropSlots()
			} else {
				l.table.freeSlots()
			}
			for p := range l.parts {
				l.parts[p] = make([]int32, 0, l.table.len()/nparts+l.table.len()/16+8)
			}
			for id := range int32(l.table.len()) {
				p := partitionOf(l.table.hashOf(id), nparts)
				l.parts[p] = append(l.parts[p], id)
			}
		}()
	}
	wg.Wait()
	var toFinal [][]int32 // the merged id of each worker's group, for distinct aggregates
	if ap.anyDistinct {
		toFinal = make([][]int32, len(locals))
		for w, l := range locals {
			toFinal[w] = make([]int32, l.ngroups)
		}
	}
	// Each goroutine merges a partition, emits its rows and lets go of it
	// before it takes the next.
	var next, merged atomic.Int64
	workers := min(max(c.Threads, 1), nparts)
	perr := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p := int(next.Add(1) - 1)
				if p >= nparts {
					return
				}
				var base *aggLocal
				if owners != nil {
					base = owners[p]
				}
				m, err := ap.mergePartition(c, locals, toFinal, p, nparts, base)
				if owners != nil {
					owners[p] = nil // m holds its table and states; let go with m
				}
				if merged.Add(1) == int64(nparts) {
					// Every partition has read the workers' groups.
					for _, l := range locals {
						l.table, l.states, l.parts = nil, nil, nil
					}
				}
				if err == nil {
					err = ap.emit(c, m.table, m.states, m.n, out)
				}
				if m.table != nil {
					m.table.dropSlots() // emit read the keys by id; the slots can be reused
				}
				if err != nil {
					perr[w] = err
					next.Store(int64(nparts)) // the others stop after their partition
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(perr...)
}

// mergedPart is one partition's groups after the merge.
type mergedPart struct {
	table  *keyTable // nil without GroupBy
	states []aggState
	n      int // number of groups
}

// mergePartition merges partition p of nparts from the locals' groups,
// into base's table and states when base is not nil (a spread
// aggregation's partition table, holding groups of partition p only).
func (ap *aggPlan) mergePartition(c *Context, locals []*aggLocal, toFinal [][]int32, p, nparts int, base *aggLocal) (mergedPart, error) {
	var table *keyTable
	var states []aggState
	n := 1
	if base != nil {
		table, states, n = base.table, base.states, base.ngroups
	} else if st, err := ap.newStates(); err != nil {
		return mergedPart{}, err
	} else if states = st; ap.grouped() {
		// Sized for the worst case (no group shared between workers),
		// so the merge never grows it.
		total := 0
		for _, l := range locals {
			total += len(l.parts[p])
		}
		table = newKeyTableFor(ap.codec, total)
		n = 0
	} else {
		for _, s := range states {
			s.resize(1)
		}
	}
	var dst []int32
	for w, l := range locals {
		src := l.parts[p]
		var err error
		if dst, n, err = ap.fold(table, states, l, src, dst); err != nil {
			return mergedPart{}, err
		}
		if toFinal != nil {
			for i, id := range src {
				toFinal[w][id] = dst[i]
			}
		}
		if c.Err() != nil {
			return mergedPart{}, c.Err()
		}
	}
	for i, s := range states {
		if ap.distinct[i] {
			if err := ap.mergeDistinct(c, i, s, locals, toFinal, p, nparts); err != nil {
				return mergedPart{}, err
			}
		}
	}
	return mergedPart{table: table, states: states, n: n}, nil
}

// fold merges the groups src of from into table and states (table nil:
// one group without GROUP BY), distinct aggregates aside. It returns
// each group's id in table (in dst, reused) and the number of groups.
func (ap *aggPlan) fold(table *keyTable, states []aggState, from *aggLocal, src, dst []int32) ([]int32, int, error) {
	dst = grown(dst, len(src))
	n := 1
	if table != nil {
		for i, id := range src {
			dst[i] = table.insertFrom(from.table, id)
		}
		n = table.len()
		for _, s := range states {
			s.resize(n)
		}
	} else {
		clear(dst)
	}
	for i, s := range states {
		if ap.distinct[i] {
			continue
		}
		if err := s.merge(from.states[i], src, dst); err != nil {
			return dst, n, err
		}
	}
	return dst, n, nil
}

// emit sends groups 0..n-1 as batches of at most c.BatchSize rows.
func (ap *aggPlan) emit(c *Context, table *keyTable, states []aggState, n int, out chan<- arrow.RecordBatch) error {
	if n == 0 {
		return nil
	}
	var cols []arrow.Array
	if table != nil {
		cols = table.keyArrays(c.Alloc, ap.outTypes)
	}
	for _, s := range states {
		a, err := s.result(c.Alloc, n)
		if err != nil {
			releaseArrays(cols)
			return err
		}
		cols = append(cols, a)
	}
	defer releaseArrays(cols)
	for start := 0; start < n; start += c.BatchSize {
		end := min(start+c.BatchSize, n)
		part := make([]arrow.Array, len(cols))
		for i, a := range cols {
			part[i] = array.NewSlice(a, int64(start), int64(end))
		}
		b := array.NewRecordBatch(ap.node.Out, part, int64(end-start))
		releaseArrays(part)
		if !Send(c, out, b) {
			return c.Err()
		}
	}
	return nil
}

// hashDrainLater releases whatever still arrives on in, inside the query's
// group, so producers blocked on in can finish after a worker stops early.
func hashDrainLater(c *Context, in <-chan arrow.RecordBatch) {
	c.Go(func() error {
		Drain(in)
		return nil
	})
}

// hashFailedDrain is the Open of a node that cannot start: it drains in
// and fails the query with err.
func hashFailedDrain(c *Context, in <-chan arrow.RecordBatch, err error) <-chan arrow.RecordBatch {
	hashDrainLater(c, in)
	out := make(chan arrow.RecordBatch)
	c.Go(func() error {
		close(out)
		return err
	})
	return out
}
