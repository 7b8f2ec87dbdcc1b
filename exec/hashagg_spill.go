package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Partitioned hash aggregation that spills. Under a memory limit a
// grouped aggregation first hash partitions its input on the group keys
// into spillable partitions (spill_partition.go). If nothing spilled, one
// ordinary in-memory aggregation runs over all of it. If some partition
// spilled, each partition is aggregated on its own, one at a time: groups
// never span partitions (equal keys hash alike; NULL keys hash to one
// value), so only one partition's groups are in memory at once, whatever
// the kind of aggregate (DISTINCT included).
//
// Buffering the input costs I/O that an aggregation with few groups over
// a large input (TPC-H Q1) does not need: its table stays tiny. So the
// first aggSampleRows rows also count their distinct key hashes; with at
// most one group per aggFewGroupsRatio rows, the aggregation stops
// partitioning and runs in memory over what it buffered and the rest of
// its input. (Spilling partial aggregate states instead would cover every
// case; it needs the states to be serialisable.) Global aggregations (no
// GROUP BY) hold one row and never partition.

// aggSampleRows and aggFewGroupsRatio: see above.
const (
	aggSampleRows     = 1 << 16
	aggFewGroupsRatio = 64
)

// aggPartitionPriority is the spill priority of aggregation input
// partitions (as probe partitions: re-reading them is the whole cost).
const aggPartitionPriority = 0

// spillEligible reports whether the aggregation partitions its input.
func (h *HashAggregate) spillEligible(c *Context) bool {
	return c.spillsByPartition() && len(h.GroupBy) > 0
}

// openSpilling is Open for a partitioned aggregation.
func (h *HashAggregate) openSpilling(c *Context) <-chan arrow.RecordBatch {
	in := h.Input.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer hashDrainLater(c, in)
		parts, err := newSpillPartitions(c, h.Input.Schema(), h.GroupBy, aggPartitionPriority)
		if err != nil {
			return err
		}
		defer parts.close()
		few, err := fillSampling(c, parts, in)
		if err != nil {
			return err
		}
		pc := c.partitionContext()
		if few {
			a := *h
			a.Input = &concatSource{schema: h.Input.Schema(), first: parts.source(parts.all()...), rest: in}
			return forward(c, a.Open(pc), out)
		}
		if !parts.spilled() {
			a := *h
			a.Input = parts.source(parts.all()...)
			return forward(c, a.Open(pc), out)
		}
		for p := range parts.parts {
			a := *h
			a.Input = parts.source(p)
			if err := forward(c, a.Open(pc), out); err != nil {
				return err
			}
		}
		return nil
	})
	return out
}

// fillSampling partitions in into parts like fillPartitions, but over the
// first aggSampleRows rows it counts distinct key hashes and stops early,
// returning true, when the groups are few; the rest of in is then unread.
func fillSampling(c *Context, parts *spillPartitions, in <-chan arrow.RecordBatch) (bool, error) {
	seen := map[uint64]struct{}{}
	rows := 0
	for b := range in {
		n := int(b.NumRows())
		err := parts.add(c, b)
		b.Release()
		if err != nil {
			return false, err
		}
		if seen == nil {
			continue
		}
		for _, h := range parts.hashes[:n] {
			seen[h] = struct{}{}
		}
		rows += n
		if rows >= aggSampleRows {
			if len(seen)*aggFewGroupsRatio <= rows {
				return true, nil
			}
			seen = nil // many groups: partition everything
		}
	}
	return false, c.Err()
}

// concatSource emits first's batches, then those of the channel rest.
type concatSource struct {
	schema *arrow.Schema
	first  Node
	rest   <-chan arrow.RecordBatch
}

func (s *concatSource) Schema() *arrow.Schema { return s.schema }
func (s *concatSource) Children() []Node      { return []Node{s.first} }
func (s *concatSource) Explain() string       { return "Concat" }

func (s *concatSource) Open(c *Context) <-chan arrow.RecordBatch {
	first := s.first.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		if err := forward(c, first, out); err != nil {
			return err
		}
		return forward(c, s.rest, out)
	})
	return out
}
