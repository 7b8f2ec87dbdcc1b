package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
	gqmem "gq/memory"
)

// Hash partitions that spill, the common part of the grace hash join
// (hashjoin_grace.go) and the partitioned hash aggregation
// (hashagg_spill.go): input batches are split by a hash of key
// expressions into spillPartitionCount lists, each a spillable buffer the
// spill manager may write to disk; then each partition is processed on
// its own, so only one partition's state needs to fit in memory.

// spillPartitionCount is the number of partitions: with input ten times
// the memory limit, one partition is well under the limit.
const spillPartitionCount = 32

// spillPartitionSalt changes the hash so that the partitions are
// independent of a hash exchange's (which uses the same hash modulo the
// rank count) and data of one rank spreads over every partition.
const spillPartitionSalt = 0x5bd1e9955bd1e995

// spillPartitions are the partitions of one input.
type spillPartitions struct {
	schema *arrow.Schema
	keys   []compiledExpr
	parts  []*gqmem.SpillableBatches
	hashes []uint64
	idx    [][]int32
}

// newSpillPartitions registers n empty partitions with c's spill manager
// at priority (lower spills first).
func newSpillPartitions(c *Context, schema *arrow.Schema, keys []expr.Expr, priority int) (*spillPartitions, error) {
	ks, err := compileExprs(keys)
	if err != nil {
		return nil, err
	}
	sp := &spillPartitions{schema: schema, keys: ks, idx: make([][]int32, spillPartitionCount)}
	for range spillPartitionCount {
		sp.parts = append(sp.parts, gqmem.NewSpillableBatches(c.Mem, c.Stats, schema, priority))
	}
	return sp, nil
}

// add splits b (not consumed) into the partitions.
func (sp *spillPartitions) add(c *Context, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	arrs, err := evalAll(c.Alloc, sp.keys, b)
	if err != nil {
		return err
	}
	defer releaseArrays(arrs)
	sp.hashes = grown(sp.hashes, n)
	clear(sp.hashes)
	for _, a := range arrs {
		if err := hashColumn(a, sp.hashes); err != nil {
			return err
		}
	}
	for i := range sp.idx {
		sp.idx[i] = sp.idx[i][:0]
	}
	for i, h := range sp.hashes {
		pid := int(expr.Mix64(h^spillPartitionSalt) % spillPartitionCount)
		sp.idx[pid] = append(sp.idx[pid], int32(i))
	}
	for pid, idx := range sp.idx {
		switch len(idx) {
		case 0:
		case n:
			b.Retain()
			sp.parts[pid].Append(b)
		default:
			sp.parts[pid].Append(TakeBatch(c.Alloc, b, idx))
		}
	}
	return nil
}

// spilled reports whether any partition went to disk.
func (sp *spillPartitions) spilled() bool {
	for _, p := range sp.parts {
		if p.Spilled() > 0 {
			return true
		}
	}
	return false
}

// close releases every partition not yet consumed (idempotent).
func (sp *spillPartitions) close() {
	for _, p := range sp.parts {
		p.Close()
	}
}

// source is a Node emitting partitions pids (consuming them) in order.
func (sp *spillPartitions) source(pids ...int) Node {
	s := &partitionSource{schema: sp.schema}
	for _, p := range pids {
		s.parts = append(s.parts, sp.parts[p])
	}
	return s
}

// all lists every partition id.
func (sp *spillPartitions) all() []int {
	ids := make([]int, len(sp.parts))
	for i := range ids {
		ids[i] = i
	}
	return ids
}

// partitionSource emits the batches of spillable lists, reading spilled
// ones back one batch at a time.
type partitionSource struct {
	schema *arrow.Schema
	parts  []*gqmem.SpillableBatches
}

func (s *partitionSource) Schema() *arrow.Schema { return s.schema }
func (s *partitionSource) Children() []Node      { return nil }
func (s *partitionSource) Explain() string       { return "SpilledPartition" }

func (s *partitionSource) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		for i, p := range s.parts {
			err := p.ForEach(c.Alloc, func(b arrow.RecordBatch) error {
				if !Send(c, out, b) {
					return c.Err()
				}
				return nil
			})
			if err != nil {
				for _, rest := range s.parts[i+1:] {
					rest.Close()
				}
				return err
			}
		}
		return nil
	})
	return out
}

// chanSource is a Node over a channel already opened.
type chanSource struct {
	schema *arrow.Schema
	ch     <-chan arrow.RecordBatch
}

func (s *chanSource) Schema() *arrow.Schema                    { return s.schema }
func (s *chanSource) Children() []Node                         { return nil }
func (s *chanSource) Explain() string                          { return "Input" }
func (s *chanSource) Open(c *Context) <-chan arrow.RecordBatch { return s.ch }
