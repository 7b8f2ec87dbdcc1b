package exec

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	gqmem "gq/memory"
)

// Out-of-core sort. The sort buffers its input under a HOST reservation
// and registers the buffer with the spill manager. When a reservation
// (its own or another operator's) does not fit, the spill manager asks the
// buffer to spill: its rows are sorted and written as a sorted run, an
// Arrow IPC spill file, and the memory is given back. At the end, with no
// run written the sort finishes in memory as before; otherwise the rest is
// written as a last run and the runs are merged (spill_merge.go), in
// several passes when there are more runs than fit in memory at once.

// sortPriority is the spill priority of sort buffers (lower spills first;
// every operator buffer uses the same for now, so the oldest goes first).
const sortPriority = 0

// sortReserveFactor is the reservation per buffered byte: the buffer plus
// its concatenated copy while it is sorted.
const sortReserveFactor = 2

// runChunkBytes is the largest target size of one batch of a sorted run:
// the merge holds one per run in memory (under a limit L, the target is
// L/64, at least 64 KiB, so a pass merges about 16 runs).
const runChunkBytes = 1 << 20

// sortSpiller is a sort's input buffer and its spilled runs.
type sortSpiller struct {
	c      *Context
	ck     compiledKeys
	schema *arrow.Schema
	id     gqmem.SpillID

	mu       sync.Mutex
	buf      []arrow.RecordBatch
	res      *gqmem.Reservation // covers buf
	runs     []*gqmem.SpillFile // sorted runs, in input order
	runBatch int64              // largest run batch written, bytes
	err      error              // a failed spill, reported by add/finish
}

func newSortSpiller(c *Context, ck compiledKeys, schema *arrow.Schema) *sortSpiller {
	res, _ := c.Mem.Reserve(gqmem.Host, 0, true)
	s := &sortSpiller{c: c, ck: ck, schema: schema, res: res}
	s.id = c.Mem.SpillManager().Add(s, sortPriority)
	return s
}

// add buffers b (taking ownership). Its reservation may spill this
// buffer or others; if the batch cannot fit even with everything spilled,
// add fails with ResourcesExhausted.
func (s *sortSpiller) add(b arrow.RecordBatch) error {
	r, err := s.c.Mem.Reserve(gqmem.Host, sortReserveFactor*gqmem.BatchBytes(b), false)
	if err != nil {
		b.Release()
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.Merge(r)
	s.buf = append(s.buf, b)
	return s.err
}

// Spill implements gqmem.Spillable: the buffered rows become a sorted run.
func (s *sortSpiller) Spill(t gqmem.Tier, n int64) int64 {
	if t != gqmem.Host || !s.mu.TryLock() {
		return 0
	}
	defer s.mu.Unlock()
	if len(s.buf) == 0 || s.err != nil {
		return 0
	}
	freed := s.res.Size()
	if err := s.flushLocked(); err != nil {
		s.err = err
	}
	return freed
}

// flushLocked sorts the buffer, writes it as a run and frees it (also on
// failure).
func (s *sortSpiller) flushLocked() error {
	bs := s.buf
	s.buf = nil
	defer s.res.Release()
	all, err := ConcatBatches(s.c.Alloc, s.schema, bs)
	releaseBatches(bs)
	if err != nil {
		return err
	}
	defer all.Release()
	keys, arrs, err := s.ck.build(s.c, all)
	if err != nil {
		return err
	}
	rows := int(all.NumRows())
	idx := sortIndices(keys, rows, s.c.Threads)
	releaseArrays(arrs)
	w, err := s.c.Mem.SpillFiles().Create(s.schema, s.c.Stats)
	if err != nil {
		return err
	}
	bytes := gqmem.BatchBytes(all)
	chunk := s.c.BatchSize
	if bytes > 0 && rows > 0 {
		perRow := max(1, bytes/int64(rows))
		target := int64(runChunkBytes)
		if s.c.Mem.Limited(gqmem.Host) {
			// Small enough that a merge pass reads many runs at once.
			target = min(target, max(64<<10, s.c.Mem.Limit(gqmem.Host)/64))
		}
		chunk = int(min(int64(s.c.BatchSize), max(256, target/perRow)))
		s.runBatch = max(s.runBatch, int64(chunk)*perRow)
	}
	for start := 0; start < rows; start += chunk {
		tb := TakeBatch(s.c.Alloc, all, idx[start:min(start+chunk, rows)])
		err = w.Write(tb)
		tb.Release()
		if err != nil {
			w.Abort()
			return err
		}
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f)
	return nil
}

// close removes the spiller's files and memory (idempotent).
func (s *sortSpiller) close() {
	s.c.Mem.SpillManager().Remove(s.id)
	s.mu.Lock()
	defer s.mu.Unlock()
	releaseBatches(s.buf)
	s.buf = nil
	s.res.Release()
	for _, f := range s.runs {
		f.Remove()
	}
	s.runs = nil
}

// spillSort sorts in to out through a sortSpiller, emitting rows
// [offset, offset+limit) of the sorted order (limit < 0: all rows).
func spillSort(c *Context, in <-chan arrow.RecordBatch, out chan<- arrow.RecordBatch, ck compiledKeys, schema *arrow.Schema, limit, offset int64) error {
	s := newSortSpiller(c, ck, schema)
	defer s.close()
	for b := range in {
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		if err := s.add(b); err != nil {
			return err
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	// From here the sort uses its state itself: no more spills from
	// outside.
	c.Mem.SpillManager().Remove(s.id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if len(s.runs) == 0 {
		return s.sortInMemoryLocked(out, limit, offset)
	}
	if len(s.buf) > 0 {
		if err := s.flushLocked(); err != nil {
			return err
		}
	}
	fan := s.fanIn()
	runs := s.runs
	s.runs = nil
	m := &merger{c: c, ck: ck, schema: schema}
	// The merge holds one batch per run, read and gathered.
	return m.mergeAll(runs, fan, 2*s.runBatch, limitSink(c, out, limit, offset))
}

// sortInMemoryLocked sorts the buffer in memory and emits it.
func (s *sortSpiller) sortInMemoryLocked(out chan<- arrow.RecordBatch, limit, offset int64) error {
	bs := s.buf
	s.buf = nil
	if len(bs) == 0 {
		return nil
	}
	all, err := ConcatBatches(s.c.Alloc, s.schema, bs)
	releaseBatches(bs)
	if err != nil {
		return err
	}
	defer all.Release()
	keys, arrs, err := s.ck.build(s.c, all)
	if err != nil {
		return err
	}
	idx := sortIndices(keys, int(all.NumRows()), s.c.Threads)
	releaseArrays(arrs)
	if limit >= 0 {
		lo := min(offset, int64(len(idx)))
		idx = idx[lo:min(lo+limit, int64(len(idx)))]
	}
	return emitRows(s.c, out, all, idx)
}

// fanIn is how many runs one merge pass reads at once: all of them without
// a limit, else as many run batches (twice: read and gathered) as fit in
// half the HOST limit, at least 2.
func (s *sortSpiller) fanIn() int {
	mem := s.c.Mem
	if !mem.Limited(gqmem.Host) || s.runBatch == 0 {
		return max(2, len(s.runs))
	}
	return int(max(2, mem.Limit(gqmem.Host)/2/(2*s.runBatch)))
}
