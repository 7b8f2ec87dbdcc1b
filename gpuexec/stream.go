package gpuexec

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/exec"
	gqmem "gq/memory"
)

// A table whose columns do not fit in device memory beside what the query
// needs streams through the device instead of running on the CPU: the
// splits are read (decoded) on all cores in chunks of rows sized from the
// device memory limit, each chunk is uploaded, run through its consumer
// (a GPU scan's filter, an aggregation's pipeline of joins against
// resident build sides and its partial aggregate) and freed, gpuStreams
// chunks at a time, each on its own queue. Host memory holds the chunks
// being read and at most gpuStreams decoded ones waiting: the readers
// block on the consumers (backpressure).
//
// What fits stays resident: the device table cache holds a table's
// columns when they take at most residentBudget (half the device limit,
// the other half left to the chunks in flight and the operators' tables);
// a load that passes it stops (errNoFit) and the scan streams. String
// columns an aggregation groups by are dictionary-encoded chunk by chunk
// against one dictionary per column that grows as chunks arrive (a
// string's code is fixed when first seen), so every chunk's codes index
// the same strings; the strings are read back once the pass ends.
//
// Build sides of joins stay resident; those that do not fit beside the
// chunks make their pipeline a grace join (join_grace.go), and what
// does not fit even so runs on the CPU (fallback_mode says so).

// errNoFit says a table's columns do not fit the device's budget for
// resident tables: the scan streams them (acquire with stream).
var errNoFit = errs.New(errs.ResourcesExhausted, "GPU cache: the columns do not fit in the device memory budget for resident tables")

// errStreamStop ends a split's read when the stream has stopped.
var errStreamStop = errors.New("gpu stream stopped")

// residentBudget is the most bytes one table's columns may take in the
// device table cache: half the device memory limit (or the pool).
func (g *GPU) residentBudget() int64 { return g.deviceLimit() / 2 }

// deviceLimit is the device memory a query may use: the DEVICE tier's
// limit, at most the pool. It waits for the device to open.
func (g *GPU) deviceLimit() int64 {
	if err := g.Wait(); err != nil || g.mem == nil {
		return g.poolBytes
	}
	l := g.mem.Limit(gqmem.Device)
	if g.pool != nil {
		l = min(l, g.pool.Stats().Size)
	}
	return l
}

// knownBudget is residentBudget when it is known without waiting for the
// device to open: open, or a limit asked for.
func (g *GPU) knownBudget() (int64, bool) {
	if g.isOpen() || g.poolBytes > 0 {
		return g.residentBudget(), true
	}
	return 0, false
}

// SetDeviceLimitForTesting makes the device memory limit n bytes (the
// pool stays as it is; allocations past n fail as past a limit asked for
// at start) and returns what restores it; the table cache is emptied
// before and after. For tests that run each query under a limit of its
// own; no query may be running.
func (g *GPU) SetDeviceLimitForTesting(n int64) (restore func()) {
	if err := g.Wait(); err != nil {
		return func() {}
	}
	old := g.mem.Limit(gqmem.Device)
	g.cache.evict(nil)
	g.mem.SetLimit(gqmem.Device, n)
	return func() {
		g.cache.evict(nil)
		g.mem.SetLimit(gqmem.Device, old)
	}
}

// EvictAll empties the device table cache (of tables no query is
// scanning).
func (g *GPU) EvictAll() { g.cache.evict(nil) }

// Evictions is how many tables the device table cache has evicted to make
// room, and their bytes, since the process started.
func (g *GPU) Evictions() (tables, bytes int64) {
	return g.cache.evictions.Load(), g.cache.evicted.Load()
}

// StreamedChunks is how many streamed chunks ran on the device, and how
// many the device had no room for (run on the CPU, by a scan), since the
// process started.
func (g *GPU) StreamedChunks() (device, host int64) {
	return g.streamed.Load(), g.streamedHost.Load()
}

// streamRowGuess is what a string is taken to hold, beside its offset,
// when sizing a streamed chunk before any is read.
const streamRowGuess = 16

// colBytes is what one value of type t takes on the device at least: a
// fixed-width type's width, a Boolean's byte (bits, rounded up), a
// string's offset.
func colBytes(t arrow.DataType) int64 {
	switch t.ID() {
	case arrow.STRING:
		return 4
	case arrow.BOOL:
		return 1
	}
	if fw, ok := t.(arrow.FixedWidthDataType); ok {
		return int64(max(1, fw.BitWidth()/8))
	}
	return 8
}

// fixedBytes is a lower bound of the device bytes of columns cols of t:
// their values without strings' bytes, for the rows the table knows it
// has (0 when it does not know).
func fixedBytes(t catalog.Table, cols []int) int64 {
	r, ok := t.(exec.SplitRower)
	if !ok {
		return 0
	}
	var rows int64
	for s := range t.NumSplits() {
		n := r.SplitRows(s)
		if n < 0 {
			return 0
		}
		rows += n
	}
	var w int64
	for _, o := range cols {
		w += colBytes(t.Schema().Field(o).Type)
	}
	return rows * w
}

// chunkStream is a streamed view's table: the columns read, the rows of a
// chunk, and the dictionaries of its string columns.
type chunkStream struct {
	t     catalog.Table
	cols  []int // table ordinals, distinct
	rows  int   // rows a chunk holds (a split's last chunk fewer)
	dicts map[int]*streamDict
}

// chunkCounters count the chunks a scan ran: all, those streamed, and the
// bytes the streamed ones uploaded.
type chunkCounters struct {
	chunks, streamed, bytes atomic.Int64
	rows                    atomic.Int64 // rows of a streamed chunk
	onHost                  atomic.Int64 // streamed chunks the device had no room for
}

// text is EXPLAIN ANALYZE's "chunks": how many, and when streamed how
// many of how many rows and the bytes they brought.
func (k *chunkCounters) text() string {
	n, s := k.chunks.Load(), k.streamed.Load()
	if n == 0 {
		return ""
	}
	h := k.onHost.Load()
	if s == 0 && h == 0 {
		return fmt.Sprintf("%d resident", n)
	}
	txt := fmt.Sprintf("%d streamed (%d rows each, %s to the device; over the resident budget)", s, k.rows.Load(), gqmem.FormatBytes(k.bytes.Load()))
	if h > 0 {
		txt += fmt.Sprintf(", %d on the CPU (no device memory free)", h)
	}
	return txt
}

// streamView is the view of t's columns cols when they stream.
func (g *GPU) streamView(t catalog.Table, cols []int) *tableView {
	var need []int
	for _, o := range cols {
		if !slices.Contains(need, o) {
			need = append(need, o)
		}
	}
	var rowB int64
	for _, o := range need {
		ft := t.Schema().Field(o).Type
		rowB += colBytes(ft)
		if ft.ID() == arrow.STRING {
			rowB += streamRowGuess + 4 // and its code
		}
	}
	// gpuStreams chunks in flight, each with the operators' work beside
	// it, in the half of the limit the resident tables leave.
	target := g.deviceLimit() / int64(4*gpuStreams)
	rows := int(min(int64(chunkRows), max(1<<10, target/max(1, rowB))))
	s := &chunkStream{t: t, cols: need, rows: rows, dicts: map[int]*streamDict{}}
	v := &tableView{stream: s, cols: map[int][]*arrowgpu.Column{}, dicts: map[int]*devDict{}}
	for _, o := range need {
		if t.Schema().Field(o).Type.ID() == arrow.STRING {
			sd := &streamDict{ids: map[string]int32{}, d: &devDict{open: true}}
			s.dicts[o] = sd
			v.dicts[o] = sd.d
		}
	}
	return v
}

func (s *chunkStream) release() {
	for _, sd := range s.dicts {
		sd.d.releaseStrings()
		sd.d.values = nil
	}
}

// streamDict numbers a streamed string column's strings as its chunks are
// encoded.
type streamDict struct {
	mu     sync.Mutex
	ids    map[string]int32
	values []string
	dead   bool     // more than maxDictValues strings: no codes
	d      *devDict // the view's: values published after each pass
}

// encode dictionary-encodes a chunk's strings against the column's
// dictionary and uploads the codes; nil when the column has too many
// distinct strings for codes.
func (sd *streamDict) encode(q *arrowgpu.Queue, arrs []arrow.Array, rows int, mem memory.Allocator) (*arrowgpu.Column, error) {
	sd.mu.Lock()
	dead := sd.dead
	sd.mu.Unlock()
	if dead {
		return nil, nil
	}
	ld, err := encodeChunk(arrs, rows, mem)
	if err != nil {
		return nil, err
	}
	if ld == nil {
		sd.kill()
		return nil, nil
	}
	defer ld.release()
	rm := make([]int32, len(ld.values))
	same := true
	sd.mu.Lock()
	for i, v := range ld.values {
		id, ok := sd.ids[v]
		if !ok {
			id = int32(len(sd.values))
			sd.ids[v] = id
			sd.values = append(sd.values, v)
		}
		rm[i] = id
		same = same && id == int32(i)
	}
	over := len(sd.values) > maxDictValues
	sd.mu.Unlock()
	if over {
		sd.kill()
		return nil, nil
	}
	if !same {
		remapCodes(ld.codes, rm)
	}
	return q.UploadArray(ld.codes)
}

func (sd *streamDict) kill() {
	sd.mu.Lock()
	defer sd.mu.Unlock()
	sd.dead, sd.ids, sd.values = true, nil, nil
}

// publish makes the strings numbered so far the view's dictionary.
func (sd *streamDict) publish() {
	sd.mu.Lock()
	defer sd.mu.Unlock()
	sd.d.releaseStrings()
	sd.d.values = nil
	if sd.dead {
		return
	}
	// Like a cached table's dictionary, Go's allocator: the strings
	// outlive the pass's allocator.
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	defer vb.Release()
	vb.AppendValues(sd.values, nil)
	sd.d.values = vb.NewStringArray()
}

// viewChunk is one chunk of a view as a consumer sees it: its rows and
// its columns and string codes, by table ordinal.
type viewChunk struct {
	rows int
	v    *tableView
	i    int // the chunk's index in a resident view
	// cols and codes: a streamed chunk's (nil in a resident view).
	cols, codes map[int]*arrowgpu.Column
	// host holds a streamed chunk's rows, columns in the order of
	// hostCols (table ordinals). hostErr, when set, says the chunk could
	// not be uploaded for want of device memory (others' tables and
	// operators hold it). A consumer that has sent nothing fails with
	// hostErr (its operator then runs on the CPU); a scan filters these
	// rows on the CPU and goes on with the next chunk (onHost), as it does
	// when its kernels find no memory.
	hostErr  error
	host     []arrow.RecordBatch
	hostCols []int
	g        *GPU
}

// onHost counts the streamed chunk, which had been counted as run on the
// device, as run on the CPU instead.
func (ch *viewChunk) onHost() {
	ch.g.streamed.Add(-1)
	ch.g.streamedHost.Add(1)
	if k := ch.v.ctr; k != nil {
		k.streamed.Add(-1)
		k.onHost.Add(1)
	}
}

// col is the chunk's column of table ordinal o.
func (ch *viewChunk) col(o int) *arrowgpu.Column {
	if ch.v.stream != nil {
		return ch.cols[o]
	}
	return ch.v.cols[o][ch.i]
}

// code is the chunk's dictionary codes of string column o; nil when it
// has none (too many distinct strings, or not asked for: each's codes).
func (ch *viewChunk) code(o int) *arrowgpu.Column {
	if ch.v.stream != nil {
		return ch.codes[o]
	}
	d := ch.v.dicts[o]
	if d == nil || d.codes == nil {
		return nil
	}
	return d.codes[ch.i]
}

// each runs fn over every chunk of v, up to gpuStreams at once, the first
// on q and the others on queues of their own (GPU.eachChunk), until fn
// fails or asks to stop. codes are the string columns whose dictionary
// codes fn reads (a streamed view encodes only those). A streamed view
// reads its chunks now and frees each after fn; a later each reads them
// again.
func (v *tableView) each(c *exec.Context, g *GPU, q *arrowgpu.Queue, codes []int, fn func(wq *arrowgpu.Queue, ch *viewChunk) (stop bool, err error)) error {
	if v.stream == nil {
		return g.eachChunk(c, q, len(v.chunks), func(wq *arrowgpu.Queue, i int) (bool, error) {
			if v.ctr != nil {
				v.ctr.chunks.Add(1)
			}
			return fn(wq, &viewChunk{rows: v.chunks[i].rows, v: v, i: i})
		})
	}
	return v.streamEach(c, g, q, codes, fn)
}

// hostChunk is a streamed chunk read and not yet uploaded.
type hostChunk struct {
	bs   []arrow.RecordBatch
	rows int
}

func (h hostChunk) release() {
	for _, b := range h.bs {
		b.Release()
	}
}

func (v *tableView) streamEach(c *exec.Context, g *GPU, q *arrowgpu.Queue, codes []int, fn func(*arrowgpu.Queue, *viewChunk) (bool, error)) error {
	s := v.stream
	var enc []int
	for _, o := range codes {
		if s.dicts[o] != nil && !slices.Contains(enc, o) {
			enc = append(enc, o)
		}
	}
	mem := newLoadAllocator(c.Alloc)
	defer mem.drain()
	work := make(chan hostChunk, gpuStreams)
	stop := make(chan struct{})
	var stopOnce, errOnce sync.Once
	var first error
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	fail := func(err error) {
		errOnce.Do(func() { first = err })
		halt()
	}
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return c.Err() != nil
		}
	}

	// Readers: the splits in order, c.Threads at a time.
	nsplits := s.t.NumSplits()
	var next atomic.Int64
	var readers sync.WaitGroup
	for range max(1, min(c.Threads, nsplits)) {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for !stopped() {
				sp := int(next.Add(1) - 1)
				if sp >= nsplits {
					return
				}
				if err := s.readSplit(c, sp, mem, work, stop); err != nil {
					if !errors.Is(err, errStreamStop) {
						fail(err)
					}
					return
				}
			}
		}()
	}
	go func() {
		readers.Wait()
		close(work)
	}()

	// Consumers: upload, run, free; after a stop they only drain. Each
	// holds gate shared while it has a chunk, a chunk it could not upload
	// waits for it alone (runChunk).
	var consumers sync.WaitGroup
	var gate sync.RWMutex
	for w := range gpuStreams {
		wq := q
		if w > 0 {
			var err error
			if wq, err = g.queue(); err != nil {
				fail(err)
				wq = nil
			}
		}
		consumers.Add(1)
		go func() {
			defer consumers.Done()
			if w > 0 && wq != nil {
				defer g.putQueue(wq)
			}
			for h := range work {
				if wq == nil || stopped() {
					h.release()
					continue
				}
				end, err := v.runChunk(c, g, wq, h, enc, mem, &gate, fn)
				if err != nil {
					fail(err)
				} else if end {
					halt()
				}
			}
		}()
	}
	consumers.Wait()
	if first == nil && c.Err() != nil {
		first = c.Err()
	}
	if first == nil {
		for _, o := range enc {
			s.dicts[o].publish()
		}
	}
	return first
}

// readSplit reads split sp of the stream's table and sends its rows to
// work in chunks of s.rows (its last fewer).
func (s *chunkStream) readSplit(c *exec.Context, sp int, mem memory.Allocator, work chan<- hostChunk, stop <-chan struct{}) error {
	var mu sync.Mutex // emit may be called from the reader's goroutines
	var cur hostChunk
	send := func(h hostChunk) error {
		select {
		case work <- h:
			return nil
		case <-stop:
			h.release()
			return errStreamStop
		case <-c.Done():
			h.release()
			return c.Err()
		}
	}
	err := s.t.Read(c, sp, s.cols, min(1<<17, s.rows), mem, func(b arrow.RecordBatch) error {
		mu.Lock()
		defer mu.Unlock()
		if b.NumRows() == 0 {
			b.Release()
			return nil
		}
		cur.bs = append(cur.bs, b)
		cur.rows += int(b.NumRows())
		if cur.rows < s.rows {
			return nil
		}
		h := cur
		cur = hostChunk{}
		return send(h)
	})
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		cur.release()
		return err
	}
	if cur.rows == 0 {
		return nil
	}
	return send(cur)
}

// runChunk uploads h's columns (and the codes of its string columns enc)
// with q, runs fn on them and frees them once q has done with them. It
// holds gate shared meanwhile. A chunk the device has no room for waits
// until the stream's other chunks in flight are done, none starting
// meanwhile, and is uploaded again, alone: their columns and the
// pipeline's work on them are what the device lacked, most often, and a
// consumer that has sent rows cannot fall back to the CPU (GPUJoinRows).
// Only what others hold (other operators' tables, the device cache's
// tables in use) leaves it with hostErr.
func (v *tableView) runChunk(c *exec.Context, g *GPU, q *arrowgpu.Queue, h hostChunk, enc []int, mem memory.Allocator, gate *sync.RWMutex, fn func(*arrowgpu.Queue, *viewChunk) (bool, error)) (stop bool, err error) {
	s := v.stream
	ch := &viewChunk{rows: h.rows, v: v, cols: map[int]*arrowgpu.Column{}, codes: map[int]*arrowgpu.Column{}, host: h.bs, hostCols: s.cols, g: g}
	gate.RLock()
	unlock := gate.RUnlock
	defer func() { unlock() }()
	defer h.release()
	defer func() {
		// Kernels fn queued may still read the chunk: the pool frees at
		// once.
		if serr := q.Stream().Sync(); err == nil && serr != nil {
			err = serr
		}
		freeChunk(ch)
	}()
	// unupload frees what an upload that ran out of device memory put
	// on the device.
	unupload := func() error {
		if serr := q.Stream().Sync(); serr != nil {
			return serr
		}
		freeChunk(ch)
		return nil
	}
	before := q.BytesToDevice
	err = v.upload(c, q, h, ch, enc, mem)
	if errors.Is(err, errs.ResourcesExhausted) {
		if err := unupload(); err != nil {
			return false, err
		}
		unlock()
		gate.Lock()
		unlock = gate.Unlock
		before = q.BytesToDevice
		err = v.upload(c, q, h, ch, enc, mem)
	}
	if err != nil {
		if !errors.Is(err, errs.ResourcesExhausted) {
			return false, err
		}
		if err := unupload(); err != nil {
			return false, err
		}
		ch.hostErr = err
		g.streamedHost.Add(1)
		if k := v.ctr; k != nil {
			k.chunks.Add(1)
			k.onHost.Add(1)
		}
		return fn(q, ch)
	}
	g.streamed.Add(1)
	if k := v.ctr; k != nil {
		k.chunks.Add(1)
		k.streamed.Add(1)
		k.bytes.Add(q.BytesToDevice - before)
		k.rows.Store(int64(s.rows))
	}
	return fn(q, ch)
}

// upload puts h's columns, and the codes of its string columns enc, in ch.
func (v *tableView) upload(c *exec.Context, q *arrowgpu.Queue, h hostChunk, ch *viewChunk, enc []int, mem memory.Allocator) error {
	s := v.stream
	for j, o := range s.cols {
		arrs := make([]arrow.Array, len(h.bs))
		for i, b := range h.bs {
			arrs[i] = b.Column(j)
		}
		col, _, err := uploadConcat(q, s.t.Schema().Field(o).Type, arrs, mem)
		if err != nil {
			return err
		}
		ch.cols[o] = col
		if slices.Contains(enc, o) {
			code, err := s.dicts[o].encode(q, arrs, h.rows, c.Alloc)
			if err != nil {
				return err
			}
			if code != nil {
				ch.codes[o] = code
			}
		}
	}
	return nil
}

// freeChunk frees a streamed chunk's device columns and codes.
func freeChunk(ch *viewChunk) {
	for o, col := range ch.cols {
		col.Free()
		delete(ch.cols, o)
	}
	for o, col := range ch.codes {
		col.Free()
		delete(ch.codes, o)
	}
}
