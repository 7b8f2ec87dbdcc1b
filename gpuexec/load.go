package gpuexec

import (
	"context"
	"runtime/trace"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	cexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/errs"
	"gq/exec"
)

// Loading a table into the device cache is the first query's whole
// set-up on a GPU, so it is a pipeline over all cores: c.Threads workers
// read (decode) splits in order, and a worker that finds a chunk whose
// splits are all read uploads it — every column concatenated and copied
// through the worker's own queue, string columns dictionary-encoded
// against a dictionary of the chunk's own — and releases its host
// batches, while the other workers go on decoding. Chunks upload in
// parallel on separate streams; host memory holds only the chunks in
// flight. At the end the chunks' dictionaries merge into one, in chunk
// order (the codes are those a single pass over the rows would give), and
// the codes, renumbered, are uploaded.
//
// A Parquet table hands a string column over as its file's dictionary
// indices where a batch is dictionary-encoded throughout (dictReader): the
// chunk's codes then come from renumbering indices, not from hashing
// every row's string, and its strings are written on the device by a
// gather from the chunk's few distinct values, so the host neither
// decodes them nor copies them up row by row.
//
// Where the table knows its splits' row counts (Parquet row groups) the
// chunks are laid out before reading; otherwise every split is read
// first and the upload starts after.

// loadStats is where a load's time went, for EXPLAIN ANALYZE: time summed
// over the workers in each step, and the wall time of the whole load.
type loadStats struct {
	readNS, uploadNS, dictNS, waitNS atomic.Int64
	openNS                           atomic.Int64 // uploads waiting for the device to open
	wallNS                           int64
	bytes                            int64
}

// load reads columns need of every split of t, cuts them into the table's
// chunks and uploads them. It returns the bytes uploaded. Nothing is added
// to dt unless every column loads. A budget (nil: none), asked at the
// first upload, stops the load with errNoFit once it has uploaded more
// bytes than it says.
func (dt *devTable) load(c *exec.Context, g *GPU, t catalog.Table, need []int, budget func() int64) (*loadStats, error) {
	for _, o := range need {
		if ft := t.Schema().Field(o).Type; !arrowgpu.DeviceType(ft) {
			return nil, errs.New(errs.Unsupported, "GPU: column %s of %s has type %s", t.Schema().Field(o).Name, t.Name(), ft)
		}
	}
	defer trace.StartRegion(c, "gpu-load").End()
	start := time.Now()
	l := &tableLoad{c: c, g: g, t: t, need: need, nsplits: t.NumSplits(), st: &loadStats{}, mem: newLoadAllocator(c.Alloc), budget: budget}
	l.parts = make([][]arrow.RecordBatch, l.nsplits)
	defer l.mem.drain()
	defer l.releaseParts()
	rows, known := l.splitRows()
	if !known {
		// Read everything first: the chunks follow from the rows read.
		if err := l.readAll(); err != nil {
			return nil, err
		}
		for s, p := range l.parts {
			for _, b := range p {
				rows[s] += int(b.NumRows())
			}
		}
	}
	chunks := chunkSplits(rows)
	if dt.chunks != nil && !slices.Equal(dt.chunks, chunks) {
		return nil, errs.New(errs.Internal, "GPU cache: table %s changed its splits between loads", t.Name())
	}
	l.chunks, l.rows = chunks, rows
	if err := l.run(!known); err != nil {
		l.free()
		return nil, err
	}
	if err := l.finishDicts(); err != nil {
		l.free()
		return nil, err
	}
	dt.chunks = chunks
	for j, o := range need {
		dt.cols[o] = l.cols[j]
		if l.dicts[j] != nil {
			dt.dicts[o] = l.dicts[j]
		}
	}
	l.st.bytes = l.bytes.Load()
	dt.bytes.Add(l.st.bytes)
	l.st.wallNS = int64(time.Since(start))
	return l.st, nil
}

// tableLoad is one load's state.
type tableLoad struct {
	c          *exec.Context
	g          *GPU
	t          catalog.Table
	need       []int
	nsplits    int
	st         *loadStats
	bytes      atomic.Int64
	budget     func() int64 // the most bytes to upload (nil: no bound)
	limit      int64        // budget's answer (budgetOnce)
	budgetOnce sync.Once
	mem        *loadAllocator // the decoded batches' (and concatenated chunks')

	chunks []devChunk
	rows   []int // per split
	partMu sync.Mutex
	parts  [][]arrow.RecordBatch // per split, until its chunk is uploaded

	cols   [][]*arrowgpu.Column // per need column, per chunk
	locals [][]*chunkDict       // per need column (strings), per chunk
	dicts  []*devDict           // per need column: the merged dictionary
}

// splitRows returns every split's row count and whether the table knew
// them all without reading.
func (l *tableLoad) splitRows() ([]int, bool) {
	rows := make([]int, l.nsplits)
	r, ok := l.t.(exec.SplitRower)
	if !ok {
		return rows, false
	}
	for s := range rows {
		n := r.SplitRows(s)
		if n < 0 {
			clear(rows)
			return rows, false
		}
		rows[s] = int(n)
	}
	return rows, true
}

// readSplit reads split s into l.parts[s] and checks its row count
// against the layout (when the layout came before the reading).
func (l *tableLoad) readSplit(s int, check bool) error {
	t0 := time.Now()
	defer func() { l.st.readNS.Add(int64(time.Since(t0))) }()
	var mu sync.Mutex // emit may be called from the reader's goroutines
	var got []arrow.RecordBatch
	n := 0
	read := l.t.Read
	if dr, ok := l.t.(dictReader); ok {
		read = dr.ReadDictionaries
	}
	err := read(l.c, s, l.need, 1<<17, l.mem, func(b arrow.RecordBatch) error {
		mu.Lock()
		got = append(got, b)
		n += int(b.NumRows())
		mu.Unlock()
		return nil
	})
	l.partMu.Lock()
	l.parts[s] = got
	l.partMu.Unlock()
	if err != nil {
		return err
	}
	if check && n != l.rows[s] {
		return errs.New(errs.Internal, "GPU cache: split %d of %s read %d rows, its metadata says %d", s, l.t.Name(), n, l.rows[s])
	}
	return nil
}

// readAll reads every split, c.Threads at a time.
func (l *tableLoad) readAll() error {
	var next atomic.Int64
	return l.workers(func() error {
		for {
			s := int(next.Add(1) - 1)
			if s >= l.nsplits || l.c.Err() != nil {
				return l.c.Err()
			}
			if err := l.readSplit(s, false); err != nil {
				return err
			}
		}
	})
}

// workers runs fn on min(c.Threads, nsplits or chunks) goroutines and
// returns the first error.
func (l *tableLoad) workers(fn func() error) error {
	n := max(1, min(l.c.Threads, max(l.nsplits, len(l.chunks))))
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(); err != nil {
				once.Do(func() { first = err })
			}
		}()
	}
	wg.Wait()
	return first
}

// run uploads every chunk; with allRead the splits are all read already,
// otherwise the workers read them too, uploading each chunk as soon as
// its last split is read.
func (l *tableLoad) run(allRead bool) error {
	l.cols = make([][]*arrowgpu.Column, len(l.need))
	l.locals = make([][]*chunkDict, len(l.need))
	l.dicts = make([]*devDict, len(l.need))
	for j, o := range l.need {
		l.cols[j] = make([]*arrowgpu.Column, len(l.chunks))
		if l.t.Schema().Field(o).Type.ID() == arrow.STRING {
			l.locals[j] = make([]*chunkDict, len(l.chunks))
		}
	}
	chunkOf := make([]int, l.nsplits)
	pending := make([]atomic.Int32, len(l.chunks))
	for k, ch := range l.chunks {
		for s := ch.first; s < ch.end; s++ {
			chunkOf[s] = k
		}
		pending[k].Store(int32(ch.end - ch.first))
	}
	ready := make(chan int, len(l.chunks))
	var nextSplit, readsDone atomic.Int64
	if allRead {
		for k := range l.chunks {
			ready <- k
		}
		close(ready)
		nextSplit.Store(int64(l.nsplits))
	} else if l.nsplits == 0 {
		close(ready)
	}
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	return l.workers(func() (err error) {
		defer func() {
			if err != nil {
				halt()
			}
		}()
		var q *arrowgpu.Queue
		defer func() {
			if q != nil {
				l.g.putQueue(q)
			}
		}()
		upload := func(k int) error {
			if q == nil {
				t0 := time.Now()
				err := l.g.Wait() // the device may still be opening (GPU.Start)
				l.st.openNS.Add(int64(time.Since(t0)))
				if err != nil {
					return err
				}
				if q, err = l.g.queue(); err != nil {
					return err
				}
			}
			return l.uploadChunk(q, k)
		}
		for {
			if l.c.Err() != nil {
				return l.c.Err()
			}
			// Uploads first: they free host memory and feed the device —
			// once it is open. Until then a worker that took a chunk would
			// only wait, so the splits are read meanwhile.
			uploads := ready
			if !l.g.isOpen() && nextSplit.Load() < int64(l.nsplits) {
				uploads = nil
			}
			select {
			case k, ok := <-uploads:
				if !ok {
					return nil
				}
				if err := upload(k); err != nil {
					return err
				}
				continue
			case <-stop:
				return nil
			default:
			}
			if s := int(nextSplit.Add(1) - 1); s < l.nsplits {
				if err := l.readSplit(s, true); err != nil {
					return err
				}
				if pending[chunkOf[s]].Add(-1) == 0 {
					ready <- chunkOf[s]
				}
				// Counted after the send: whoever counts the last split
				// knows every chunk has been sent.
				if readsDone.Add(1) == int64(l.nsplits) {
					close(ready)
				}
				continue
			}
			t0 := time.Now()
			select {
			case k, ok := <-ready:
				l.st.waitNS.Add(int64(time.Since(t0)))
				if !ok {
					return nil
				}
				if err := upload(k); err != nil {
					return err
				}
			case <-stop:
				return nil
			case <-l.c.Done():
				return l.c.Err()
			}
		}
	})
}

// uploadChunk uploads chunk k's columns with q, dictionary-encodes its
// string columns, and releases its host batches.
func (l *tableLoad) uploadChunk(q *arrowgpu.Queue, k int) error {
	ch := l.chunks[k]
	l.partMu.Lock()
	var bs []arrow.RecordBatch
	for s := ch.first; s < ch.end; s++ {
		bs = append(bs, l.parts[s]...)
		l.parts[s] = nil
	}
	l.partMu.Unlock()
	defer func() {
		for _, b := range bs {
			b.Release()
		}
	}()
	for j, o := range l.need {
		arrs := make([]arrow.Array, len(bs))
		dicts := false
		for i, b := range bs {
			arrs[i] = b.Column(j)
			_, isDict := arrs[i].(*array.Dictionary)
			dicts = dicts || isDict
		}
		if dicts {
			// Some of the chunk came as its file's dictionary indices
			// (dictReader): the strings go up as the chunk's dictionary
			// gathered by its codes on the device.
			done, err := l.uploadDictChunk(q, j, k, arrs)
			if err != nil {
				return err
			}
			if done {
				continue
			}
			// Too many distinct strings for codes: the strings, decoded.
			if arrs, err = decodeDicts(arrs, l.mem); err != nil {
				return err
			}
			defer releaseArrays(arrs)
		}
		t0 := time.Now()
		col, n, err := uploadConcat(q, l.t.Schema().Field(o).Type, arrs, l.mem)
		l.st.uploadNS.Add(int64(time.Since(t0)))
		if err != nil {
			return err
		}
		l.cols[j][k] = col
		if l.overBudget(l.bytes.Add(n)) {
			return errNoFit
		}
		if l.locals[j] != nil && !dicts {
			t0 := time.Now()
			l.locals[j][k], err = encodeChunk(arrs, ch.rows, l.c.Alloc)
			l.st.dictNS.Add(int64(time.Since(t0)))
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// dictReader is a table that can hand a string column over as its file's
// dictionary indices, a Dictionary array per batch, where the file has
// them (catalog.ParquetTable.ReadDictionaries): a load then renumbers
// indices instead of decoding every row's string and hashing it again.
type dictReader interface {
	ReadDictionaries(ctx context.Context, split int, columns []int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) error
}

// uploadDictChunk encodes chunk k of string column j, some of whose
// arrays are Dictionary arrays, and uploads its strings as the chunk's
// dictionary gathered by the codes on the device. It reports false,
// having done nothing, when the chunk holds more than maxDictValues
// distinct strings.
func (l *tableLoad) uploadDictChunk(q *arrowgpu.Queue, j, k int, arrs []arrow.Array) (bool, error) {
	t0 := time.Now()
	ld, err := encodeChunk(arrs, l.chunks[k].rows, l.c.Alloc)
	l.st.dictNS.Add(int64(time.Since(t0)))
	if err != nil || ld == nil {
		return false, err
	}
	t0 = time.Now()
	col, err := uploadDictStrings(q, ld, l.mem)
	l.st.uploadNS.Add(int64(time.Since(t0)))
	if err != nil {
		ld.release()
		return false, err
	}
	l.cols[j][k], l.locals[j][k] = col, ld
	if l.overBudget(l.bytes.Add(columnBytes(col))) {
		return true, errNoFit
	}
	return true, nil
}

// uploadDictStrings builds a chunk's string column on the device from its
// encoding: the distinct strings and four bytes a row go up, and a gather
// writes every row's string (a NULL's code is -1 there: GatherOrNull).
func uploadDictStrings(q *arrowgpu.Queue, ld *chunkDict, mem memory.Allocator) (*arrowgpu.Column, error) {
	vb := array.NewStringBuilder(mem)
	vb.AppendValues(ld.values, nil)
	vals := vb.NewStringArray()
	vb.Release()
	defer vals.Release()
	dict, err := q.UploadArray(vals)
	if err != nil {
		return nil, err
	}
	defer dict.Free()
	idx := ld.codes.Int32Values()
	nulls := ld.codes.NullN()
	if nulls > 0 {
		idx = slices.Clone(idx)
		for i := range idx {
			if ld.codes.IsNull(i) {
				idx[i] = -1
			}
		}
	}
	buf, err := q.UploadBytes(arrow.Int32Traits.CastToBytes(idx))
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	if nulls == 0 {
		return q.Gather(dict, buf, len(idx))
	}
	col, err := q.GatherOrNull(dict, buf, len(idx))
	if err != nil {
		return nil, err
	}
	col.NullCount = nulls
	return col, nil
}

// columnBytes is the device memory col holds.
func columnBytes(col *arrowgpu.Column) int64 {
	return col.Valid.Size + col.Data.Size + col.Offsets.Size
}

// decodeDicts returns arrs with each Dictionary array decoded into
// strings (the others retained, so that the caller releases them all).
func decodeDicts(arrs []arrow.Array, mem memory.Allocator) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(arrs))
	for i, a := range arrs {
		d, ok := a.(*array.Dictionary)
		if !ok {
			a.Retain()
			out[i] = a
			continue
		}
		s, err := compute.TakeArray(cexec.WithAllocator(context.Background(), mem), d.Dictionary(), d.Indices())
		if err != nil {
			releaseArrays(out[:i])
			return nil, errs.Wrap(errs.ResourcesExhausted, err, "GPU cache: decoding a dictionary-encoded chunk")
		}
		out[i] = s
	}
	return out, nil
}

func releaseArrays(arrs []arrow.Array) {
	for _, a := range arrs {
		a.Release()
	}
}

// overBudget reports whether n bytes uploaded pass the load's budget.
func (l *tableLoad) overBudget(n int64) bool {
	if l.budget == nil {
		return false
	}
	l.budgetOnce.Do(func() { l.limit = l.budget() })
	return n > l.limit
}

// free releases whatever the load holds: device columns and codes.
func (l *tableLoad) free() {
	for _, cs := range l.cols {
		freeColumns(cs)
	}
	for _, ls := range l.locals {
		for _, d := range ls {
			d.release()
		}
	}
	for _, d := range l.dicts {
		d.free()
	}
}

func (l *tableLoad) releaseParts() {
	for _, p := range l.parts {
		for _, b := range p {
			b.Release()
		}
	}
}

// finishDicts merges each string column's chunk dictionaries and uploads
// the renumbered codes. A column with more than maxDictValues distinct
// strings gets none.
func (l *tableLoad) finishDicts() error {
	t0 := time.Now()
	defer func() { l.st.dictNS.Add(int64(time.Since(t0))) }()
	for j, locals := range l.locals {
		if locals == nil {
			continue
		}
		d, remaps := mergeDicts(locals)
		if d == nil {
			for _, ld := range locals {
				ld.release()
			}
			l.locals[j] = nil
			continue
		}
		l.dicts[j] = d
		var next atomic.Int64
		var codeMu sync.Mutex
		d.codes = make([]*arrowgpu.Column, len(locals))
		err := l.workers(func() error {
			var q *arrowgpu.Queue
			defer func() {
				if q != nil {
					l.g.putQueue(q)
				}
			}()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(locals) {
					return nil
				}
				ld := locals[k]
				if rm := remaps[k]; rm != nil {
					remapCodes(ld.codes, rm)
				}
				if q == nil {
					var err error
					if q, err = l.g.queue(); err != nil {
						return err
					}
				}
				before := q.BytesToDevice
				col, err := q.UploadArray(ld.codes)
				if err != nil {
					return err
				}
				codeMu.Lock()
				d.codes[k] = col
				codeMu.Unlock()
				l.bytes.Add(q.BytesToDevice - before)
			}
		})
		for _, ld := range locals {
			ld.release()
		}
		l.locals[j] = nil
		if err != nil {
			return err
		}
	}
	return nil
}

// remapCodes renumbers codes in place: code v becomes rm[v].
func remapCodes(codes *array.Int32, rm []int32) {
	vals := codes.Int32Values()
	for i, v := range vals {
		if uint32(v) < uint32(len(rm)) { // a NULL's slot holds any value
			vals[i] = rm[v]
		}
	}
}

// chunkDict is one chunk of a string column dictionary-encoded on its
// own: codes index values, in the order the values first appear.
type chunkDict struct {
	values []string
	codes  *array.Int32
}

func (d *chunkDict) release() {
	if d != nil && d.codes != nil {
		d.codes.Release()
		d.codes = nil
	}
}

// encodeChunk dictionary-encodes a chunk's string arrays; nil when they
// hold more than maxDictValues distinct strings. It reads the arrays'
// offsets and bytes directly and writes the codes into one buffer: a
// load encodes every row of every string column it uploads. One-byte
// strings (flags, status codes) are looked up in a table, not hashed; a
// NULL's code is 0 (a valid index: the codes' validity marks it).
//
// A Dictionary array (dictReader) is encoded through its indices: each
// dictionary value is looked up once, when a row first uses it, and every
// other row costs one load from a table by index. The codes are those the
// decoded strings would get — numbered as values first appear — so that a
// load gives the same codes whichever way its table hands strings over.
func encodeChunk(arrs []arrow.Array, rows int, mem memory.Allocator) (*chunkDict, error) {
	var byByte [256]int32 // code+1 of each one-byte string
	ids := map[string]int32{}
	d := &chunkDict{}
	data := memory.NewResizableBuffer(mem)
	defer data.Release()
	data.Resize(rows * 4)
	codes := arrow.Int32Traits.CastFromBytes(data.Bytes())
	var valid *memory.Buffer
	nulls := 0
	for _, a := range arrs {
		nulls += a.NullN()
	}
	if nulls > 0 {
		valid = memory.NewResizableBuffer(mem)
		defer valid.Release()
		valid.Resize((rows + 7) / 8)
		clear(valid.Bytes())
	}
	add := func(v []byte) int32 {
		id := int32(len(d.values))
		d.values = append(d.values, string(v))
		return id
	}
	lastID := int32(-1)
	var last []byte
	code := func(v []byte) int32 {
		var id int32
		switch {
		case len(v) == 1:
			if id = byByte[v[0]] - 1; id < 0 {
				id = add(v)
				byByte[v[0]] = id + 1
			}
		case lastID >= 0 && string(v) == string(last):
			id = lastID
		default:
			var ok bool
			if id, ok = ids[string(v)]; !ok {
				id = add(v)
				ids[d.values[id]] = id
			}
			last, lastID = v, id
		}
		return id
	}
	// The chunk code of each index of the current Dictionary array's
	// dictionary, +1 (0: not met yet); kept while batches share it.
	var byIndex []int32
	var lastDict arrow.Array
	at := 0
	for _, a := range arrs {
		if at+a.Len() > rows {
			return nil, errs.New(errs.Internal, "GPU cache: a chunk of %d rows got more", rows)
		}
		hasNulls := a.NullN() > 0
		if da, ok := a.(*array.Dictionary); ok {
			dict, ok := da.Dictionary().(*array.String)
			if !ok {
				return nil, errs.New(errs.Internal, "GPU cache: a dictionary of %s, not strings", da.Dictionary().DataType())
			}
			if dict != lastDict {
				byIndex = slices.Grow(byIndex[:0], dict.Len())[:dict.Len()]
				clear(byIndex)
				lastDict = dict
			}
			ix, ok := da.Indices().(*array.Int32)
			if !ok {
				return nil, errs.New(errs.Internal, "GPU cache: dictionary indices of type %s", da.Indices().DataType())
			}
			for i, x := range ix.Int32Values() {
				if hasNulls && da.IsNull(i) {
					codes[at] = 0
					at++
					continue
				}
				if valid != nil {
					bitutil.SetBit(valid.Bytes(), at)
				}
				if uint32(x) >= uint32(len(byIndex)) {
					return nil, errs.New(errs.IO, "GPU cache: dictionary index %d of a dictionary of %d values", x, len(byIndex))
				}
				id := byIndex[x] - 1
				if id < 0 {
					id = code([]byte(dict.Value(int(x))))
					byIndex[x] = id + 1
					if len(d.values) > maxDictValues {
						return nil, nil
					}
				}
				codes[at] = id
				at++
			}
			continue
		}
		col, ok := a.(*array.String)
		if !ok {
			return nil, errs.New(errs.Internal, "GPU cache: a string column's chunk holds %s", a.DataType())
		}
		offs := col.ValueOffsets()
		bytes := col.ValueBytes()
		base := offs[0]
		for i := range col.Len() {
			if hasNulls && col.IsNull(i) {
				codes[at] = 0
				at++
				continue
			}
			if valid != nil {
				bitutil.SetBit(valid.Bytes(), at)
			}
			codes[at] = code(bytes[offs[i]-base : offs[i+1]-base])
			if len(d.values) > maxDictValues {
				return nil, nil
			}
			at++
		}
	}
	if at != rows {
		return nil, errs.New(errs.Internal, "GPU cache: a chunk of %d rows got %d", rows, at)
	}
	ad := array.NewData(arrow.PrimitiveTypes.Int32, rows, []*memory.Buffer{valid, data}, nil, nulls, 0)
	d.codes = array.NewInt32Data(ad)
	ad.Release()
	return d, nil
}

// mergeDicts merges chunk dictionaries in chunk order into one devDict
// (its codes left to the caller) and returns, per chunk, how its codes
// renumber (nil: unchanged). A nil devDict: some chunk had too many
// values, or all of them together have.
func mergeDicts(locals []*chunkDict) (*devDict, [][]int32) {
	for _, ld := range locals {
		if ld == nil {
			return nil, nil
		}
	}
	ids := map[string]int32{}
	var values []string
	remaps := make([][]int32, len(locals))
	for k, ld := range locals {
		rm := make([]int32, len(ld.values))
		same := true
		for i, v := range ld.values {
			id, ok := ids[v]
			if !ok {
				id = int32(len(values))
				ids[v] = id
				values = append(values, v)
			}
			rm[i] = id
			same = same && id == int32(i)
		}
		if len(values) > maxDictValues {
			return nil, nil
		}
		if !same {
			remaps[k] = rm
		}
	}
	// The dictionary lives as long as the cache entry, past the query
	// whose allocator the load used: Go's allocator, not the query's.
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	defer vb.Release()
	vb.AppendValues(values, nil)
	return &devDict{values: vb.NewStringArray()}, remaps
}

// chunkSplits groups consecutive splits into chunks of at least chunkRows
// rows (the last may hold fewer).
func chunkSplits(rows []int) []devChunk {
	var out []devChunk
	cur := devChunk{}
	for s, n := range rows {
		cur.end = s + 1
		cur.rows += n
		if cur.rows >= chunkRows {
			out = append(out, cur)
			cur = devChunk{first: s + 1, end: s + 1}
		}
	}
	if cur.end > cur.first {
		out = append(out, cur)
	}
	return out
}
