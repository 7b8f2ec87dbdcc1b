package exec

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Partitioned phase 1 ("spreading"). Each worker of a HashAggregate
// aggregates into its own table, which serves few groups and input
// clustered by the key (flushGroups). When the groups are many and the
// input is not clustered by the key (TPC-H q13's orders ⟕ customer by
// c_custkey), every worker's table ends up holding nearly every group:
// T copies of the groups, T times the memory and the merge work, in
// tables far larger than the caches. Once a worker sees that (its table
// has spreadGroups groups and its last batch still made new groups of
// half its rows while a fair share of its rows found groups made before
// the last new one: spreadsOut), every worker switches at its next
// batch: it folds its table into per-partition tables shared by all
// workers (absorb), and from then on hashes each batch's keys, splits
// the batch's rows by the partition that owns their hash, and adds each
// part to that partition's table under the partition's lock. Each group
// then lives once, in its partition's table; phase 2 merges what a
// worker still held when its input ended into the partition tables and
// emits them, with no second copy of the groups.
//
// Aggregations with a distinct aggregate keep the per-worker path (their
// value sets are keyed by the worker's group ids), as does a single
// thread (one table already holds each group once).

// spreadGroups is the size a worker's table must reach before its
// aggregation may spread. Below it the per-worker tables are small and
// the merge cheap, and few-group aggregations (q01's four) never pay for
// the split. A variable so that tests can spread small aggregations.
var spreadGroups = 32 << 10

// spreadForced makes a worker spread once its table has spreadGroups
// groups, whatever its rows (tests of the spread path on any input).
var spreadForced = false

// spreadParts is the number of partitions of a spread aggregation on
// threads workers: more than the workers, so that a worker rarely waits
// for a partition's lock, and smaller tables.
func spreadParts(threads int) int { return 2 * max(threads, 1) }

// spreadsOut reports whether a batch of n rows whose group ids are gids,
// added to a table that had before groups and now has after, shows the
// groups to be many and the input not clustered by the key: at least
// half its rows made new groups, and more than one row in flushReuse
// found a group older than the last one made (a group of an earlier
// batch or one made earlier in this batch). Input clustered by the key
// finds almost only the last group made (flushGroups), so that even a
// worker's first batch tells the one from the other.
func spreadsOut(gids []int32, before int32, n, after int) bool {
	if spreadForced {
		return true
	}
	if (after-int(before))*2 < n {
		return false
	}
	far, last := 0, before-1
	for _, g := range gids[:n] {
		if g < last {
			far++
		} else {
			last = g // a new group has the next id
		}
	}
	return far*flushReuse > n
}

// aggSpread is the shared state of a spreading aggregation.
type aggSpread struct {
	on    atomic.Bool // some worker saw many groups: all switch
	once  sync.Once
	err   error // from creating the partitions
	parts []aggPart
}

// aggPart is one partition of a spread aggregation: its groups' table
// and states, added to under mu.
type aggPart struct {
	mu sync.Mutex
	l  *aggLocal
	_  [40]byte // keeps neighbouring locks off one cache line
}

// start creates the partitions (once, by the first worker to switch).
func (s *aggSpread) start(ap *aggPlan, threads int) error {
	s.once.Do(func() {
		parts := make([]aggPart, spreadParts(threads))
		for p := range parts {
			l, err := ap.newLocal(0)
			if err != nil {
				s.err = err
				return
			}
			l.owned = true
			parts[p].l = l
		}
		s.parts = parts
	})
	return s.err
}

// locals returns the partitions' tables (nil when the aggregation did
// not spread).
func (s *aggSpread) locals() []*aggLocal {
	if s.parts == nil {
		return nil
	}
	ls := make([]*aggLocal, len(s.parts))
	for p := range s.parts {
		ls[p] = s.parts[p].l
	}
	return ls
}

// spreader is one worker's scratch for splitting its batches.
type spreader struct {
	bk    batchKeys
	part  []int32             // partition of row i
	sel   []int32             // row numbers grouped by partition
	offs  []int               // partition p's rows are sel[offs[p]:offs[p+1]]
	subs  []arrow.RecordBatch // partition p's rows of the batch
	queue []int
	dst   []int32
}

// add splits b's rows by partition and adds each part to its partition's
// table.
func (s *aggSpread) add(c *Context, ap *aggPlan, w int, b arrow.RecordBatch, sp *spreader) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	np := len(s.parts)
	keys, err := evalAll(c.Alloc, ap.keys, b)
	if err != nil {
		return err
	}
	ap.codec.prepare(keys, n, &sp.bk)
	sp.part = grown(sp.part, n)
	sp.offs = grown(sp.offs, np+1)
	clear(sp.offs)
	nulls := sp.bk.null
	for i, h := range sp.bk.hashes[:n] {
		if ap.codec.single && nulls != nil && nulls[i] {
			h = 0 // the NULL group's hash (keyTable.hashOf)
		}
		p := partitionOf(h, np)
		sp.part[i] = int32(p)
		sp.offs[p+1]++
	}
	releaseArrays(keys) // sp.bk may alias them: not read after this
	sp.split(n, np)
	sp.subs = grown(sp.subs, np)
	clear(sp.subs)
	defer func() {
		for _, sub := range sp.subs {
			if sub != nil {
				sub.Release()
			}
		}
	}()
	for p := range np {
		lo, hi := sp.offs[p], sp.offs[p+1]
		switch {
		case lo == hi:
		case hi-lo == n:
			b.Retain()
			sp.subs[p] = b
		default:
			sp.subs[p] = TakeBatch(c.Alloc, b, sp.sel[lo:hi])
		}
	}
	return s.each(c, w, sp, func(p int, l *aggLocal) error {
		return l.add(c, ap, sp.subs[p])
	})
}

// each calls fn on every partition p that has rows in sp (sp.offs),
// holding p's lock. Worker w starts at its own share of the partitions
// and takes the free ones first; when none is free it waits for the
// first still due.
func (s *aggSpread) each(c *Context, w int, sp *spreader, fn func(p int, l *aggLocal) error) error {
	np := len(s.parts)
	queue := sp.queue[:0]
	first := w * np / max(c.Threads, 1)
	for k := range np {
		if p := (first + k) % np; sp.offs[p] < sp.offs[p+1] {
			queue = append(queue, p)
		}
	}
	sp.queue = queue
	for len(queue) > 0 {
		rest := queue[:0]
		for _, p := range queue {
			pt := &s.parts[p]
			if !pt.mu.TryLock() {
				rest = append(rest, p)
				continue
			}
			err := fn(p, pt.l)
			pt.mu.Unlock()
			if err != nil {
				return err
			}
		}
		if len(rest) == len(queue) {
			pt := &s.parts[rest[0]]
			pt.mu.Lock()
			err := fn(rest[0], pt.l)
			pt.mu.Unlock()
			if err != nil {
				return err
			}
			rest = rest[1:]
		}
		queue = rest
	}
	return nil
}

// absorb merges the tables a worker set aside at the switch into the
// partitions and lets them go, so that their groups are not held twice
// until phase 2.
func (s *aggSpread) absorb(c *Context, ap *aggPlan, w int, ls []*aggLocal, sp *spreader) error {
	defer func() {
		for _, l := range ls {
			if l != nil {
				l.release()
			}
		}
	}()
	np := len(s.parts)
	for k, l := range ls {
		ls[k] = nil
		l.table.dropSlots() // read by id from now on
		n := l.table.len()
		sp.part = grown(sp.part, n)
		sp.offs = grown(sp.offs, np+1)
		clear(sp.offs)
		for id := range n {
			p := partitionOf(l.table.hashOf(int32(id)), np)
			sp.part[id] = int32(p)
			sp.offs[p+1]++
		}
		sp.split(n, np)
		err := s.each(c, w, sp, func(p int, o *aggLocal) error {
			var err error
			sp.dst, o.ngroups, err = ap.fold(o.table, o.states, l, sp.sel[sp.offs[p]:sp.offs[p+1]], sp.dst)
			return err
		})
		l.release()
		if err != nil {
			return err
		}
		if err := c.Err(); err != nil {
			return err
		}
	}
	return nil
}

// split fills sp.sel with 0..n-1 grouped by partition (sp.part), given
// the rows per partition in sp.offs[1:], which it turns into offsets.
func (sp *spreader) split(n, np int) {
	for p := range np {
		sp.offs[p+1] += sp.offs[p]
	}
	sp.sel = grown(sp.sel, n)
	next := append(sp.queue[:0], sp.offs[:np]...)
	for i, p := range sp.part[:n] {
		sp.sel[next[p]] = int32(i)
		next[p]++
	}
	sp.queue = next[:0]
}
