package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// Grace hash join. Under a memory limit the build (right) side is hash
// partitioned on its keys into spillable partitions as it arrives. If
// nothing spilled, one ordinary in-memory join runs over all of it and
// the probe side streams through as usual. If some partition spilled, the
// probe side is partitioned the same way (its partitions spill first:
// lower priority), and partition p of the probe is joined with partition p
// of the build, one partition at a time, so only one build partition's
// hash table is in memory. Equal keys hash alike on both sides, so every
// match is found within its partition; rows with NULL keys match nothing
// and are handled (padded, or kept by an anti join) in whichever partition
// they land.
//
// Not partitioned: joins built on the left (BuildLeft) and null-aware
// anti joins (NOT IN), whose answer for a row depends on every build row.

// Spill priorities: probe partitions go to disk before build partitions,
// whose loss costs a second read of more data.
const (
	probePartitionPriority = 0
	buildPartitionPriority = 1
)

// graceEligible reports whether the join runs as a grace hash join.
func (h *HashJoin) graceEligible(c *Context) bool {
	return c.spillsByPartition() && !h.BuildLeft && !(h.NullAware && h.Type == expr.JoinAnti)
}

// openGrace is Open for a grace hash join.
func (h *HashJoin) openGrace(c *Context) <-chan arrow.RecordBatch {
	left, right := h.Left.Open(c), h.Right.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer hashDrainLater(c, left)
		defer hashDrainLater(c, right)
		build, err := newSpillPartitions(c, h.Right.Schema(), h.RightKeys, buildPartitionPriority)
		if err != nil {
			return err
		}
		defer build.close()
		if err := fillPartitions(c, build, right); err != nil {
			return err
		}
		pc := c.partitionContext()
		if !build.spilled() {
			j := *h
			j.Right, j.Left = build.source(build.all()...), &chanSource{schema: h.Left.Schema(), ch: left}
			return forward(c, j.Open(pc), out)
		}
		probe, err := newSpillPartitions(c, h.Left.Schema(), h.LeftKeys, probePartitionPriority)
		if err != nil {
			return err
		}
		defer probe.close()
		if err := fillPartitions(c, probe, left); err != nil {
			return err
		}
		for p := range build.parts {
			j := *h
			j.Right, j.Left = build.source(p), probe.source(p)
			if err := forward(c, j.Open(pc), out); err != nil {
				return err
			}
		}
		return nil
	})
	return out
}

// fillPartitions partitions every batch of in into sp.
func fillPartitions(c *Context, sp *spillPartitions, in <-chan arrow.RecordBatch) error {
	for b := range in {
		err := sp.add(c, b)
		b.Release()
		if err != nil {
			return err
		}
	}
	return c.Err()
}
