package memory

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	amem "github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// BatchBytes is the host memory held by b's buffers (shared buffers
// counted once per batch).
func BatchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += int64(c.Data().SizeInBytes())
	}
	return n
}

// SpillableBatches is a list of host batches registered with a spill
// manager: under pressure its batches are written to one spill file and
// released, and Take reads them back. Appending after a spill starts a new
// in-memory list (the order of batches is kept). It is the building block
// for operator state that can wait on disk (buffered partitions, cached
// batches, shuffle chunks).
type SpillableBatches struct {
	br     *BufferResource
	qs     *Statistics
	schema *arrow.Schema
	id     SpillID

	mu      sync.Mutex
	res     *Reservation // covers mem
	mem     []arrow.RecordBatch
	w       *SpillWriter // the open spill file (nil: none yet)
	spills  int          // spills so far
	spilled []*SpillFile // finished spill file (at most one), older than mem
	err     error        // first spill failure, reported by Take
	closed  bool
}

// NewSpillableBatches registers an empty list with br's spill manager;
// its spills are also counted in qs (a query's statistics; may be nil).
func NewSpillableBatches(br *BufferResource, qs *Statistics, schema *arrow.Schema, priority int) *SpillableBatches {
	sb := &SpillableBatches{br: br, qs: qs, schema: schema, res: &Reservation{br: br, tier: Host}}
	sb.id = br.spill.Add(sb, priority)
	return sb
}

// Append takes ownership of b. Its bytes are reserved (allowing
// overbooking: the reservation may spill other buffers, or this one, but
// never fails), so the list itself is what gets spilled under pressure.
//
// Once the list has spilled, further batches go straight to its spill
// file (as a hybrid hash join treats a spilled partition): re-reserving
// and spilling them one by one would only churn.
func (sb *SpillableBatches) Append(b arrow.RecordBatch) {
	sb.mu.Lock()
	if sb.w != nil && sb.err == nil && !sb.closed {
		if err := sb.w.Write(b); err != nil {
			sb.err = err
		}
		sb.mu.Unlock()
		b.Release()
		return
	}
	sb.mu.Unlock()
	n := BatchBytes(b)
	more, _ := sb.br.Reserve(Host, n, true)
	sb.mu.Lock()
	defer sb.mu.Unlock()
	sb.mem = append(sb.mem, b)
	sb.res.size += more.size
}

// Spill implements Spillable: it appends the in-memory batches to the
// list's spill file (one file per list, kept open between spills) and
// releases them.
func (sb *SpillableBatches) Spill(t Tier, n int64) int64 {
	if t != Host || !sb.mu.TryLock() {
		return 0
	}
	defer sb.mu.Unlock()
	if len(sb.mem) == 0 || sb.err != nil || sb.closed {
		return 0
	}
	var err error
	if sb.w == nil {
		sb.w, err = sb.br.files.Create(sb.schema, sb.qs)
	}
	if err == nil {
		for _, b := range sb.mem {
			if err = sb.w.Write(b); err != nil {
				break
			}
		}
	}
	if err == nil {
		_, err = sb.w.Flush()
	}
	if err != nil {
		sb.err = err
		return 0
	}
	sb.spills++
	for _, b := range sb.mem {
		b.Release()
	}
	sb.mem = nil
	freed := sb.res.size
	sb.res.Release()
	return freed
}

// finishLocked closes the open spill file, so it can be read back.
func (sb *SpillableBatches) finishLocked() error {
	if sb.w == nil {
		return nil
	}
	w := sb.w
	sb.w = nil
	f, err := w.Finish()
	if err != nil {
		return err
	}
	sb.spilled = append(sb.spilled, f)
	return nil
}

// Spilled is the number of times the list has spilled.
func (sb *SpillableBatches) Spilled() int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.spills
}

// Take returns every batch in order, reading spilled ones back with mem,
// and closes the list (unregistered, files removed). The caller owns the
// batches.
func (sb *SpillableBatches) Take(mem amem.Allocator) ([]arrow.RecordBatch, error) {
	sb.br.spill.Remove(sb.id)
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.closed {
		return nil, errs.New(errs.Internal, "spillable batches taken twice")
	}
	defer sb.closeLocked()
	if sb.err == nil {
		sb.err = sb.finishLocked()
	}
	if sb.err != nil {
		return nil, sb.err
	}
	var out []arrow.RecordBatch
	for _, f := range sb.spilled {
		r, err := f.Open(mem)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		for {
			b, err := r.Next()
			if err != nil {
				r.Close()
				releaseAll(out)
				return nil, err
			}
			if b == nil {
				break
			}
			out = append(out, b)
		}
		r.Close()
	}
	out = append(out, sb.mem...)
	sb.mem = nil
	return out, nil
}

// Close releases everything the list holds (idempotent).
func (sb *SpillableBatches) Close() {
	sb.br.spill.Remove(sb.id)
	sb.mu.Lock()
	defer sb.mu.Unlock()
	sb.closeLocked()
}

func (sb *SpillableBatches) closeLocked() {
	if sb.closed {
		return
	}
	sb.closed = true
	if sb.w != nil {
		sb.w.Abort()
		sb.w = nil
	}
	releaseAll(sb.mem)
	sb.mem = nil
	for _, f := range sb.spilled {
		f.Remove()
	}
	sb.spilled = nil
	sb.res.Release()
}

func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// ForEach passes every batch in order to fn (which owns it), reading
// spilled ones back with mem one at a time, so a list larger than memory
// can be consumed; then it closes the list. The first error stops it.
func (sb *SpillableBatches) ForEach(mem amem.Allocator, fn func(arrow.RecordBatch) error) error {
	sb.br.spill.Remove(sb.id)
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.closed {
		return errs.New(errs.Internal, "spillable batches read twice")
	}
	defer sb.closeLocked()
	if sb.err == nil {
		sb.err = sb.finishLocked()
	}
	if sb.err != nil {
		return sb.err
	}
	for _, f := range sb.spilled {
		if err := forEachInFile(f, mem, fn); err != nil {
			return err
		}
	}
	bs := sb.mem
	sb.mem = nil
	for i, b := range bs {
		if err := fn(b); err != nil {
			releaseAll(bs[i+1:])
			return err
		}
	}
	return nil
}

func forEachInFile(f *SpillFile, mem amem.Allocator, fn func(arrow.RecordBatch) error) error {
	r, err := f.Open(mem)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		b, err := r.Next()
		if err != nil || b == nil {
			return err
		}
		if err := fn(b); err != nil {
			return err
		}
	}
}

// Len is the number of rows held, in memory and spilled.
func (sb *SpillableBatches) Len() int64 {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	var n int64
	for _, f := range sb.spilled {
		n += f.Rows
	}
	if sb.w != nil {
		n += sb.w.rows
	}
	for _, b := range sb.mem {
		n += b.NumRows()
	}
	return n
}
