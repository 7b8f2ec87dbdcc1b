package shuffle

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	amem "github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	gqmem "gq/memory"
)

// Spill figures of received chunks, also in the shuffle's statistics
// (the memory manager's statistics count them too, under these names).
const (
	StatSpillBytesHostToDisk = gqmem.StatSpillBytesHostToDisk
	StatSpillBytesDiskToHost = gqmem.StatSpillBytesDiskToHost
)

// spillPriority is the spill priority of received shuffle chunks: below
// operator state (0 and up), since a chunk waiting for its consumer is
// the cheapest thing to move to disk and read back once.
const spillPriority = -1

// chunkSchema is the layout of a spill file of chunks: one opaque chunk
// per row, in arrival order. Large binary: a chunk may exceed 2 GiB.
var chunkSchema = arrow.NewSchema([]arrow.Field{{Name: "chunk", Type: arrow.BinaryTypes.LargeBinary}}, nil)

// readBackAllocator allocates chunks read back from disk: Go memory, so a
// chunk's bytes stay valid, owned by the garbage collector, after the
// batch they came in is released.
var readBackAllocator = amem.NewGoAllocator()

// chunkStore holds one partition's received chunks, oldest first. With a
// buffer resource, the bytes held in memory are reserved in its HOST
// tier and the store is registered with its spill manager: under
// pressure the chunks in memory go to a spill file (Arrow IPC, one per
// spill) and come back, in order, when popped or taken. Without one it is
// a plain queue.
type chunkStore struct {
	br    *gqmem.BufferResource // nil: no accounting, no spilling
	qs    *gqmem.Statistics     // the query's spill statistics (may be nil)
	stats *Statistics           // the shuffle's (may be nil)
	id    gqmem.SpillID

	mu     sync.Mutex
	res    *gqmem.Reservation // covers front and mem
	front  [][]byte           // read back from the oldest spill file
	files  []*gqmem.SpillFile // spilled, oldest first, all older than mem
	mem    [][]byte           // newest, in memory
	held   int64              // bytes of front and mem (reserved)
	memLen int64              // bytes of mem alone (what Spill frees)
	count  int                // chunks held in all
	spills int
	err    error // a spill that failed; reported by pop and take
	closed bool
}

func newChunkStore(br *gqmem.BufferResource, qs *gqmem.Statistics, stats *Statistics) *chunkStore {
	c := &chunkStore{br: br, qs: qs, stats: stats}
	if br != nil {
		c.id = br.SpillManager().Add(c, spillPriority)
	}
	return c
}

// push appends a chunk. Its bytes are reserved first, outside the lock:
// the reservation may spill other buffers, or this store (allowing
// overbooking, it never fails: the spill manager brings the tier back
// under its limit).
func (c *chunkStore) push(chunk []byte) {
	var r *gqmem.Reservation
	if c.br != nil {
		r, _ = c.br.Reserve(gqmem.Host, int64(len(chunk)), true)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		r.Release()
		return
	}
	c.keep(r)
	c.mem = append(c.mem, chunk)
	c.memLen += int64(len(chunk))
	c.held += int64(len(chunk))
	c.count++
}

// keep adds r's bytes to the store's reservation.
func (c *chunkStore) keep(r *gqmem.Reservation) {
	if r == nil {
		return
	}
	if c.res == nil {
		c.res = r
	} else {
		c.res.Merge(r)
	}
}

// used gives back the reservation of n bytes no longer held.
func (c *chunkStore) used(n int64) {
	c.held -= n
	if c.res != nil {
		c.res.Use(n)
	}
}

// len is the number of chunks held, in memory and on disk.
func (c *chunkStore) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count
}

// pop removes and returns the oldest chunk (ok false: none).
func (c *chunkStore) pop() (chunk []byte, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable(); err != nil {
		return nil, false, err
	}
	if len(c.front) == 0 && len(c.files) > 0 {
		f := c.files[0]
		c.files = c.files[1:]
		chunks, err := c.readBack(f)
		if err != nil {
			c.err = err
			return nil, false, err
		}
		c.front = chunks
	}
	// Clear the slot popped, so the queue's array does not keep the
	// chunk alive after the consumer is done with it.
	switch {
	case len(c.front) > 0:
		chunk, c.front[0], c.front = c.front[0], nil, c.front[1:]
	case len(c.mem) > 0:
		chunk, c.mem[0], c.mem = c.mem[0], nil, c.mem[1:]
		c.memLen -= int64(len(chunk))
	default:
		return nil, false, nil
	}
	c.count--
	c.used(int64(len(chunk)))
	return chunk, true, nil
}

// take removes and returns every chunk, oldest first.
func (c *chunkStore) take() ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable(); err != nil {
		return nil, err
	}
	out := c.front
	for len(c.files) > 0 {
		f := c.files[0]
		c.files = c.files[1:]
		chunks, err := c.readBack(f)
		if err != nil {
			c.err = err
			return nil, err
		}
		out = append(out, chunks...)
	}
	out = append(out, c.mem...)
	c.front, c.mem, c.memLen, c.count = nil, nil, 0, 0
	c.used(c.held)
	return out, nil
}

// usable reports a failed spill, or use after the shuffle's Shutdown.
func (c *chunkStore) usable() error {
	if c.closed {
		return errs.New(errs.Internal, "shuffle chunks read after Shutdown")
	}
	return c.err
}

// readBack reads a spill file's chunks into memory (reserved, allowing
// overbooking: they are about to be consumed) and removes the file.
func (c *chunkStore) readBack(f *gqmem.SpillFile) ([][]byte, error) {
	defer f.Remove()
	r, err := f.Open(readBackAllocator)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out [][]byte
	var n int64
	for {
		b, err := r.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		col, ok := b.Column(0).(*array.LargeBinary)
		if !ok {
			b.Release()
			return nil, errs.New(errs.Internal, "shuffle spill file holds %s, not chunks", b.Schema())
		}
		for i := range col.Len() {
			// Capped at its length: chunks share the column's buffer, and
			// releasing one must not hand back its neighbours.
			chunk := col.Value(i)
			chunk = chunk[:len(chunk):len(chunk)]
			out = append(out, chunk)
			n += int64(len(chunk))
		}
		b.Release()
	}
	if c.br != nil {
		r, _ := c.br.Reserve(gqmem.Host, n, true)
		c.keep(r)
	}
	c.held += n
	c.stats.Add(StatSpillBytesDiskToHost, float64(n))
	return out, nil
}

// Spill implements memory.Spillable: the chunks in memory go to a new
// spill file. It gives up at once when the store is busy (see
// memory.Spillable).
func (c *chunkStore) Spill(t gqmem.Tier, n int64) int64 {
	if t != gqmem.Host || !c.mu.TryLock() {
		return 0
	}
	defer c.mu.Unlock()
	if len(c.mem) == 0 || c.err != nil || c.closed {
		return 0
	}
	if err := c.spillMem(); err != nil {
		c.err = err
		return 0
	}
	freed := c.memLen
	releaseAll(c.mem) // on disk now
	c.mem, c.memLen = nil, 0
	c.used(freed)
	c.spills++
	c.stats.Add(StatSpillBytesHostToDisk, float64(freed))
	return freed
}

// spillMem writes the chunks in memory to a new spill file, appended to
// files.
func (c *chunkStore) spillMem() error {
	bld := array.NewBinaryBuilder(readBackAllocator, arrow.BinaryTypes.LargeBinary)
	defer bld.Release()
	bld.ReserveData(int(c.memLen))
	for _, chunk := range c.mem {
		bld.Append(chunk)
	}
	col := bld.NewArray()
	defer col.Release()
	batch := array.NewRecordBatch(chunkSchema, []arrow.Array{col}, int64(col.Len()))
	defer batch.Release()
	w, err := c.br.SpillFiles().Create(chunkSchema, c.qs)
	if err != nil {
		return err
	}
	if err := w.Write(batch); err != nil {
		w.Abort()
		return err
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	c.files = append(c.files, f)
	return nil
}

// spilled is the number of times the store spilled.
func (c *chunkStore) spilled() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spills
}

// close drops everything held: the reservation, the spill files, the
// registration (idempotent).
func (c *chunkStore) close() {
	if c.br != nil {
		c.br.SpillManager().Remove(c.id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	for _, f := range c.files {
		f.Remove()
	}
	releaseAll(c.front)
	releaseAll(c.mem)
	c.files, c.front, c.mem, c.memLen, c.count = nil, nil, nil, 0, 0
	c.used(c.held)
}

// releaseAll hands back chunks the store held alone (see Release).
func releaseAll(chunks [][]byte) {
	for _, c := range chunks {
		Release(c)
	}
}
