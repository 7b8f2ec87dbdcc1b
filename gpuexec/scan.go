package gpuexec

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/arrowgpu"
	"gq/errs"
	"gq/exec"
	"gq/expr"
)

// GPUScan is a Scan run from the device table cache: the table's columns
// stay in device memory between queries; per chunk of rows one fused
// kernel evaluates DeviceFilter, the rows it keeps are gathered on the
// device, and only they are downloaded. HostFilter holds the conjuncts the
// kernel generator lacks (string functions, LIKE with '_'), applied to the
// downloaded rows on the CPU. Both filters read CPU.Columns positions, as
// CPU.Filter does; together they are CPU.Filter. The scan's join filters
// on one integer-like key are tested on the device too; others on the
// downloaded rows.
//
// When the table cannot be held on the device (a type the device lacks,
// device memory exhausted even after eviction) or a kernel does not
// compile, the scan runs as CPU, the Scan it replaces, and says so through
// Warn.
type GPUScan struct {
	CPU          *exec.Scan
	GPU          *GPU
	DeviceFilter expr.Expr
	HostFilter   expr.Expr
	// Warn, when set, is told when the scan falls back to the CPU; Raise
	// makes that fallback an error instead (fallback_mode=raise).
	Warn  func(string)
	Raise bool
	// Partition, when set, has the device split each chunk's rows by a
	// hash exchange's partitioning (the one right above, under ranks)
	// before they come back: every batch then holds one partition's rows
	// and the exchange sends it whole (partBatch).
	Partition *DevicePartition
	// Source, when set, is what the scan reads instead of CPU's table
	// (whose schema CPU's names): under ranks, the rows a hash exchange
	// brought, a join's probe side — a SharedSource, run once per query
	// (source.go).
	Source exec.Node
}

// scanRun is a GPUScan's state in one run (exec.RunState): its figures,
// and whether the run reads it as a device pipeline's build side.
type scanRun struct {
	// noJoinFilters: the scan is a device pipeline's build side, run
	// through Open (join.go uploadBuild): its join filters are the
	// joins the pipeline runs on the device, which publish none — waiting
	// for them cost 50 ms (joinFilterWait) a query.
	noJoinFilters                            atomic.Bool
	onCPU                                    atomic.Bool
	rowsIn, toHost, toDevice, devNS, setupNS atomic.Int64
	queueNS                                  atomic.Int64              // of setupNS: waiting for a queue
	load                                     atomic.Pointer[loadStats] // the table cache's load, when this scan made one
	chunks                                   chunkCounters             // the chunks run (stream.go)
}

// state is s's state in c's run.
func (s *GPUScan) state(c *exec.Context) *scanRun { return exec.RunState[scanRun](c, s) }

// DevicePartition is a hash exchange's partitioning of a GPU scan's rows:
// by output columns Keys, into Parts partitions (the exchange's ranks).
type DevicePartition struct {
	Keys  []int
	Parts int
}

func (s *GPUScan) Schema() *arrow.Schema { return s.CPU.Out }
func (s *GPUScan) Children() []exec.Node {
	if s.Source != nil {
		return []exec.Node{s.Source}
	}
	return nil
}
func (s *GPUScan) Explain() string { return "GPUScan " + s.CPU.Table.Name() }

// RunDevice is where the run of c ran the scan (EXPLAIN ANALYZE).
func (s *GPUScan) RunDevice(c *exec.Context) string {
	if s.state(c).onCPU.Load() {
		return "CPU (fallback)"
	}
	return "GPU"
}

// RunStats reports the rows the run of c scanned on the device, bytes
// moved each way and the time spent waiting for the device.
func (s *GPUScan) RunStats(c *exec.Context) []exec.Stat {
	st := s.state(c)
	return []exec.Stat{
		{Name: "device rows", Value: st.rowsIn.Load()},
		{Name: "to device", Value: st.toDevice.Load(), Unit: "bytes"},
		{Name: "to host", Value: st.toHost.Load(), Unit: "bytes"},
		{Name: "device time", Unit: "text", Text: time.Duration(st.devNS.Load()).Round(time.Microsecond).String()},
		{Name: "setup", Unit: "text", Text: st.setupText()},
		{Name: "chunks", Unit: "text", Text: st.chunks.text()},
		{Name: "load", Unit: "text", Text: st.loadText()},
	}
}

// loadText is EXPLAIN ANALYZE's "load": the wall time of the table cache
// load this scan made, and the time its workers spent reading (decoding)
// splits, uploading chunks, dictionary-encoding strings and waiting for a
// chunk to be read, and the time the uploads waited for the device to
// open (summed over the workers); "" when the columns were cached already.
func (s *scanRun) loadText() string {
	l := s.load.Load()
	if l == nil {
		return ""
	}
	r := func(ns int64) string { return time.Duration(ns).Round(time.Millisecond).String() }
	return fmt.Sprintf("%s (workers: read %s, upload %s, dict %s, idle %s; waiting for the device to open %s)", r(l.wallNS), r(l.readNS.Load()), r(l.uploadNS.Load()), r(l.dictNS.Load()), r(l.waitNS.Load()), r(l.openNS.Load()))
}

// fallBack lets a GPU operator (what) that failed with err, a gpuFallback
// error, before it sent anything run on the CPU: under fallback_mode=raise
// (raise) it returns err; otherwise it tells warn (when set) and sets
// onCPU.
func fallBack(raise bool, warn func(string), what string, err error, onCPU *atomic.Bool) error {
	if raise {
		return fmt.Errorf("%w (fallback_mode=raise)", err)
	}
	if warn != nil {
		warn(fmt.Sprintf("%s runs on the CPU: %v", what, err))
	}
	onCPU.Store(true)
	return nil
}

// runOnCPU runs cpu in place of a GPU operator (what) that failed with err
// before it sent anything (fallBack, with s's settings), sending cpu's
// batches on out. GPUAggregate uses it too, with its scan's settings.
func (s *GPUScan) runOnCPU(c *exec.Context, what string, err error, cpu exec.Node, onCPU *atomic.Bool, out chan<- arrow.RecordBatch) error {
	if err := fallBack(s.Raise, s.Warn, what, err, onCPU); err != nil {
		return err
	}
	return exec.Forward(c, cpu.Open(c), out)
}

// gpuScanPlan is what Open prepares once for the producer and the
// workers: the columns to download (those the output holds and those the
// host filter and join filters read, in Columns order) and the host-side
// steps over them.
type gpuScanPlan struct {
	fused    *arrowgpu.Fused
	dl       []int
	dlSchema *arrow.Schema
	hostPred *exec.CompiledExpr
	jfs      []*exec.RunningJoinFilter // joinfilter.go: applied to the downloaded rows
	// onDevice marks the join filters the device applies (set by the
	// producer before the first chunk it filters); the workers skip them.
	onDevice  []atomic.Bool
	outCols   []int // output column k is downloaded column outCols[k]
	outSchema *arrow.Schema
	// partKeys are the Columns positions of Partition's keys.
	partKeys []int
	// devPred is DeviceFilter for the CPU, over Columns positions (a
	// streamed chunk the device had no room for: hostChunk).
	devPred    *exec.CompiledExpr
	colsSchema *arrow.Schema // the Columns' fields
}

func (s *GPUScan) prepare(c *exec.Context) (*gpuScanPlan, error) {
	sc := s.CPU
	pl := &gpuScanPlan{}
	if s.DeviceFilter != nil {
		var err error
		if pl.fused, err = arrowgpu.GenerateFused(nil, s.DeviceFilter); err != nil {
			return nil, err
		}
		ce, err := exec.CompileExpr(s.DeviceFilter)
		if err != nil {
			return nil, err
		}
		pl.devPred = &ce
	}
	colFields := make([]arrow.Field, len(sc.Columns))
	for p, o := range sc.Columns {
		colFields[p] = sc.Table.Schema().Field(o)
	}
	pl.colsSchema = arrow.NewSchema(colFields, nil)
	emit := sc.Emit
	if emit == nil {
		emit = make([]int, len(sc.Columns))
		for i := range emit {
			emit[i] = i
		}
	}
	jfs := sc.JoinFilters
	if s.state(c).noJoinFilters.Load() {
		jfs = nil
	}
	dl := append([]int(nil), emit...)
	if s.HostFilter != nil {
		dl = exec.ExprColumns(s.HostFilter, dl)
	}
	for _, f := range jfs {
		for _, k := range f.Keys {
			dl = exec.ExprColumns(k, dl)
		}
	}
	slices.Sort(dl)
	pl.dl = slices.Compact(dl)
	at := map[int]int{} // Columns position → downloaded column
	fields := make([]arrow.Field, len(pl.dl))
	for i, p := range pl.dl {
		at[p] = i
		fields[i] = sc.Table.Schema().Field(sc.Columns[p])
	}
	pl.dlSchema = arrow.NewSchema(fields, nil)
	if s.HostFilter != nil {
		ce, err := exec.CompileExpr(RenumberColumns(s.HostFilter, at))
		if err != nil {
			return nil, err
		}
		pl.hostPred = &ce
	}
	for _, f := range jfs {
		keys := make([]expr.Expr, len(f.Keys))
		for i, k := range f.Keys {
			keys[i] = RenumberColumns(k, at)
		}
		jf, err := exec.NewRunningJoinFilter(c, exec.ScanJoinFilter{Filter: f.Filter, Keys: keys})
		if err != nil {
			return nil, err
		}
		pl.jfs = append(pl.jfs, jf)
	}
	outFields := make([]arrow.Field, len(emit))
	for k, p := range emit {
		pl.outCols = append(pl.outCols, at[p])
		outFields[k] = fields[at[p]]
	}
	pl.outSchema = arrow.NewSchema(outFields, nil)
	if s.Partition != nil {
		for _, k := range s.Partition.Keys {
			pl.partKeys = append(pl.partKeys, emit[k])
		}
	}
	return pl, nil
}

// Open runs one producer, which drives the device and downloads the kept
// rows in batches, and c.Threads workers that apply the host filter and
// join filters and shape the output, so the host-side work is spread as
// in the CPU scan.
func (s *GPUScan) Open(c *exec.Context) <-chan arrow.RecordBatch {
	pl, err := s.prepare(c)
	if err != nil {
		return exec.Failed(c, make(chan arrow.RecordBatch), err)
	}
	st := s.state(c)
	raw := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(raw)
		sent, err := s.produce(c, st, pl, raw)
		s.GPU.noteErr(err)
		// Past the first batch sent, a fallback would duplicate rows.
		if err != nil && !sent && gpuFallback(err) && c.Err() == nil {
			// The workers pass the CPU scan's batches on (onCPU).
			return s.runOnCPU(c, "GPU scan of "+s.CPU.Table.Name(), err, s.cpu(), &st.onCPU, raw)
		}
		return err
	})
	return exec.MapBatches(c, raw, c.Threads, func() func(arrow.RecordBatch) (arrow.RecordBatch, error) {
		var sel []int32
		return func(b arrow.RecordBatch) (arrow.RecordBatch, error) {
			if st.onCPU.Load() {
				return b, nil
			}
			pb, parted := b.(*exec.PartBatch)
			if parted {
				b = pb.RecordBatch
			}
			var err error
			b, sel, err = s.finish(c, pl, b, sel)
			if err != nil || b == nil || !parted {
				return b, err
			}
			// The filters only drop rows: still one partition's.
			return &exec.PartBatch{RecordBatch: b, Part: pb.Part, Parts: pb.Parts}, nil
		}
	})
}

// setupText is EXPLAIN ANALYZE's "setup": the time from the scan's start
// to its first chunk, and of it the wait for a queue (a new one allocates
// pinned memory) — the rest is the table cache (a load, or another
// query's load of the table holding it).
func (s *scanRun) setupText() string {
	r := func(ns int64) string { return time.Duration(ns).Round(time.Microsecond).String() }
	setup, queue := s.setupNS.Load(), s.queueNS.Load()
	if setup == 0 {
		return r(0)
	}
	return fmt.Sprintf("%s (queue %s)", r(setup), r(queue))
}

// finish applies the host filter and the join filters to downloaded rows
// and returns the output columns (nil when no row is kept).
func (s *GPUScan) finish(c *exec.Context, pl *gpuScanPlan, b arrow.RecordBatch, sel []int32) (arrow.RecordBatch, []int32, error) {
	var err error
	if pl.hostPred != nil {
		if b, sel, err = exec.ApplyFilter(c, *pl.hostPred, b, sel); err != nil || b == nil {
			return nil, sel, err
		}
	}
	var jfs []*exec.RunningJoinFilter
	for j, jf := range pl.jfs {
		if !pl.onDevice[j].Load() {
			jfs = append(jfs, jf)
		}
	}
	if len(jfs) > 0 {
		if b, sel, err = applyJoinFilters(c, jfs, b, sel); err != nil || b == nil {
			return nil, sel, err
		}
	}
	picked := make([]arrow.Array, len(pl.outCols))
	for k, j := range pl.outCols {
		picked[k] = b.Column(j)
	}
	ob := array.NewRecordBatch(pl.outSchema, picked, b.NumRows())
	b.Release()
	if ob, err = exec.Conform(ob, s.CPU.Out); err != nil {
		return nil, sel, err
	}
	return ob, sel, nil
}

// produce runs the device filter chunk by chunk and sends the kept rows of
// the downloaded columns in batches of c.BatchSize; sent reports whether
// it sent any.
func (s *GPUScan) produce(c *exec.Context, st *scanRun, pl *gpuScanPlan, raw chan<- arrow.RecordBatch) (sent bool, err error) {
	start := time.Now()
	dt, loaded, err := s.acquire(c, true)
	if err != nil {
		return false, err
	}
	defer s.GPU.cache.releaseView(dt)
	st.toDevice.Add(loaded)
	t0 := time.Now()
	q, err := s.GPU.queue()
	if err != nil {
		return false, err
	}
	defer s.GPU.putQueue(q)
	st.queueNS.Add(int64(time.Since(t0)))
	st.setupNS.Add(int64(time.Since(start)))

	exec.AwaitJoinFilters(c, pl.jfs)
	dkf := newDeviceFilters(s, pl)
	defer dkf.free()
	// Chunks are worked on by up to gpuStreams goroutines, each with its
	// own queue, so one chunk's download overlaps another's kernels.
	var anySent atomic.Bool
	err = dt.each(c, s.GPU, q, nil, func(wq *arrowgpu.Queue, ch *viewChunk) (bool, error) {
		before := wq.BytesToHost // the queue is reused: count this chunk's part
		defer func() { st.toHost.Add(wq.BytesToHost - before) }()
		if ch.hostErr == nil {
			err := s.chunk(c, st, pl, ch, wq, dkf, raw, &anySent)
			if err == nil || ch.host == nil || !errors.Is(err, errs.ResourcesExhausted) {
				return false, err
			}
			// A streamed chunk's kernels found no device memory before
			// any of its rows was sent: its rows are on the host still.
			ch.onHost()
		}
		return false, s.hostChunk(c, st, pl, ch, raw, &anySent)
	})
	return anySent.Load(), err
}

// chunk filters chunk ch on the device and sends its kept rows.
func (s *GPUScan) chunk(c *exec.Context, st *scanRun, pl *gpuScanPlan, ch *viewChunk, q *arrowgpu.Queue, filters *deviceFilters, raw chan<- arrow.RecordBatch, sent *atomic.Bool) error {
	sc := s.CPU
	t0 := time.Now()
	dkf, err := filters.current(q)
	if err != nil {
		return err
	}
	view := &arrowgpu.Batch{Len: ch.rows, Cols: make([]*arrowgpu.Column, len(sc.Columns))}
	for p, o := range sc.Columns {
		view.Cols[p] = ch.col(o)
	}
	var parts []*arrowgpu.Column
	for _, p := range pl.partKeys {
		// A string column the cache holds as dictionary codes: the
		// exchange hashes the strings on the host.
		if col := view.Cols[p]; arrow.TypeEqual(col.Type, sc.Table.Schema().Field(sc.Columns[p]).Type) {
			parts = append(parts, col)
		}
	}
	if len(parts) < len(pl.partKeys) {
		parts = nil
	}
	cols, offs, err := s.fetch(q, pl.fused, dkf, view, pl.dl, parts, c)
	st.devNS.Add(int64(time.Since(t0)))
	if err != nil {
		return fmt.Errorf("GPU scan of %s: %w", sc.Table.Name(), err)
	}
	st.rowsIn.Add(int64(ch.rows))
	if cols == nil {
		return nil
	}
	b := array.NewRecordBatch(pl.dlSchema, cols, int64(cols[0].Len()))
	exec.ReleaseArrays(cols)
	sent.Store(true)
	if !sendParts(c, raw, b, offs) {
		return c.Err()
	}
	return nil
}

// hostChunk filters a streamed chunk that the device had no room for on
// the CPU (DeviceFilter; the workers apply the rest, as to downloaded
// rows) and sends the downloaded columns of its kept rows.
func (s *GPUScan) hostChunk(c *exec.Context, st *scanRun, pl *gpuScanPlan, ch *viewChunk, raw chan<- arrow.RecordBatch, sent *atomic.Bool) error {
	sc := s.CPU
	at := make([]int, len(sc.Columns)) // Columns position → host batch column
	for p, o := range sc.Columns {
		at[p] = slices.Index(ch.hostCols, o)
	}
	var sel []int32
	for _, hb := range ch.host {
		cols := make([]arrow.Array, len(sc.Columns))
		for p := range cols {
			cols[p] = hb.Column(at[p])
		}
		b := array.NewRecordBatch(pl.colsSchema, cols, hb.NumRows())
		st.rowsIn.Add(b.NumRows())
		if pl.devPred != nil {
			var err error
			if b, sel, err = exec.ApplyFilter(c, *pl.devPred, b, sel); err != nil {
				return err
			}
			if b == nil {
				continue
			}
		}
		dl := make([]arrow.Array, len(pl.dl))
		for i, p := range pl.dl {
			dl[i] = b.Column(p)
		}
		out := array.NewRecordBatch(pl.dlSchema, dl, b.NumRows())
		b.Release()
		sent.Store(true)
		if !exec.Send(c, raw, out) {
			return c.Err()
		}
	}
	return nil
}

// deviceKeyFilter is a join filter the device applies: one integer-like
// key column (Columns position pos) tested against the keys' range and
// their bitmap or Bloom filter (exec/keyfilter.go).
type deviceKeyFilter struct {
	pos  int
	f    arrowgpu.KeyFilter
	bits arrowgpu.Buffer // the bitmap or Bloom filter's words
	none bool            // the join has no keys: no row passes
}

// deviceFilters are the join filters a scan's chunks test on the device.
// A join publishes its filter when its build side is done, which can be
// long after the scan starts (q18's outer join waits for an aggregation of
// lineitem): the scan waits joinFilterWait at most, so each chunk asks
// again (current) and takes up the filters published since. Chunks that
// ran before a filter arrived are not filtered by it; that only costs
// rows the join drops (a join filter is an optimisation).
type deviceFilters struct {
	s       *GPUScan
	pl      *gpuScanPlan
	mu      sync.Mutex
	decided []bool // per join filter: on the device, or never will be
	list    []deviceKeyFilter
}

func newDeviceFilters(s *GPUScan, pl *gpuScanPlan) *deviceFilters {
	pl.onDevice = make([]atomic.Bool, len(pl.jfs))
	return &deviceFilters{s: s, pl: pl, decided: make([]bool, len(pl.jfs))}
}

// current returns the filters to apply to the next chunk, uploading (with
// q) those whose joins have published since the last call.
func (d *deviceFilters) current(q *arrowgpu.Queue) ([]deviceKeyFilter, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for j, jf := range d.pl.jfs {
		if d.decided[j] {
			continue
		}
		select {
		case <-jf.Settled():
		default:
			continue // not yet: the host applies it if it arrives in time
		}
		d.decided[j] = true
		f, ok, err := d.s.deviceJoinFilter(q, d.pl, j)
		if err != nil {
			return nil, err
		}
		if ok {
			d.list = append(d.list, f)
			d.pl.onDevice[j].Store(true)
		}
	}
	return slices.Clone(d.list), nil
}

func (d *deviceFilters) free() {
	for _, f := range d.list {
		f.bits.Free()
	}
}

// deviceJoinFilter uploads join filter j if the device can apply it: one
// integer-like key column, published as a range with a bitmap or Bloom
// filter.
func (s *GPUScan) deviceJoinFilter(q *arrowgpu.Queue, pl *gpuScanPlan, j int) (deviceKeyFilter, bool, error) {
	f := s.CPU.JoinFilters[j]
	if len(f.Keys) != 1 || pl.jfs[j].Off() {
		return deviceKeyFilter{}, false, nil
	}
	col, ok := f.Keys[0].(*expr.Column)
	if !ok {
		return deviceKeyFilter{}, false, nil
	}
	switch col.Type.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DATE32:
	default:
		return deviceKeyFilter{}, false, nil
	}
	var d deviceKeyFilter
	ok, err := pl.jfs[j].IntKeys(func(kf exec.IntKeyFilter) error {
		d = deviceKeyFilter{pos: col.Index, f: arrowgpu.KeyFilter{Lo: kf.Lo}, none: kf.Lo > kf.Hi}
		if d.none {
			return nil
		}
		d.f.Span = uint64(kf.Hi - kf.Lo)
		words := kf.Bitmap
		if words == nil {
			words = kf.Bloom
		}
		if len(words) > 0 {
			var err error
			if d.bits, err = q.UploadBytes(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 8*len(words))); err != nil {
				return err
			}
		}
		if kf.Bitmap != nil {
			d.f.Bitmap = d.bits.Ptr
		} else if kf.Bloom != nil {
			d.f.Bloom, d.f.BloomMask = d.bits.Ptr, kf.Mask
		}
		return nil
	})
	if !ok || err != nil {
		return deviceKeyFilter{}, false, err
	}
	return d, true, nil
}

// fetch runs the device filter and the device's join filters over one
// chunk (view) and downloads the kept rows of columns dl; nil when no row
// is kept. With parts (the chunk's partition key columns) the rows come
// grouped by their partition: offs[p]:offs[p+1] are partition p's.
func (s *GPUScan) fetch(q *arrowgpu.Queue, fused *arrowgpu.Fused, dkf []deviceKeyFilter, view *arrowgpu.Batch, dl []int, parts []*arrowgpu.Column, c *exec.Context) (cols []arrow.Array, offs []uint32, err error) {
	if view.Len == 0 {
		return nil, nil, nil
	}
	for _, d := range dkf {
		if d.none {
			return nil, nil, nil
		}
	}
	fail := func(err error) ([]arrow.Array, []uint32, error) {
		exec.ReleaseArrays(cols)
		return nil, nil, err
	}
	var idx arrowgpu.Buffer // the rows to download, in order; all without
	defer func() { idx.Free() }()
	n := view.Len
	if fused != nil || len(dkf) > 0 {
		var mask *arrowgpu.Column
		if fused != nil {
			_, mask, err = q.RunFused(fused, view)
		} else {
			mask, err = q.AllRows(view.Len)
		}
		if err != nil {
			return nil, nil, err
		}
		for _, d := range dkf {
			if err := q.KeepKeys(view.Cols[d.pos], d.f, mask); err != nil {
				mask.Free()
				return nil, nil, err
			}
		}
		idx, n, err = q.Select(mask)
		mask.Free()
		if err != nil || n == 0 {
			return nil, nil, err
		}
	}
	if parts != nil {
		perm, o, err := q.HashPartition(parts, idx, n, s.Partition.Parts)
		if err != nil {
			return nil, nil, err
		}
		idx.Free()
		idx, offs = perm, o
	}
	if idx.Ptr == 0 {
		for _, p := range dl {
			a, err := q.Download(view.Cols[p], c.Alloc)
			if err != nil {
				return fail(err)
			}
			cols = append(cols, a)
		}
		return cols, nil, nil
	}
	take := make([]*arrowgpu.Column, len(dl))
	for x, p := range dl {
		take[x] = view.Cols[p]
	}
	kept, err := q.GatherMany(take, idx, n, false) // in one trip to the device
	if err != nil {
		return fail(err)
	}
	defer freeColumns(kept)
	for _, g := range kept {
		a, err := q.Download(g, c.Alloc)
		if err != nil {
			return fail(err)
		}
		cols = append(cols, a)
	}
	return cols, offs, nil
}

// applyJoinFilters keeps the rows of b that jfs may match (consuming b;
// nil when none is kept), as the CPU scan's filtering read does.
func applyJoinFilters(c *exec.Context, jfs []*exec.RunningJoinFilter, b arrow.RecordBatch, sel []int32) (arrow.RecordBatch, []int32, error) {
	sel = sel[:0]
	for i := range int32(b.NumRows()) {
		sel = append(sel, i)
	}
	var err error
	for _, jf := range jfs {
		if sel, err = jf.Apply(c, b, sel); err != nil {
			b.Release()
			return nil, sel, err
		}
	}
	return exec.KeepRows(c, b, sel), sel, nil
}

// sendSlices sends b in pieces of at most c.BatchSize rows (the operators
// above expect batches of about that size to spread over their workers).
// sendParts is sendSlices for b's rows grouped by partition, offs[p] to
// offs[p+1] partition p's (nil: not grouped): each slice goes as a
// partBatch. It consumes b.
func sendParts(c *exec.Context, out chan<- arrow.RecordBatch, b arrow.RecordBatch, offs []uint32) bool {
	if offs == nil {
		return sendSlices(c, out, b)
	}
	defer b.Release()
	bs := uint32(c.BatchSize)
	for p := range len(offs) - 1 {
		for lo := offs[p]; lo < offs[p+1]; lo += bs {
			hi := min(lo+bs, offs[p+1])
			if !exec.Send(c, out, &exec.PartBatch{RecordBatch: b.NewSlice(int64(lo), int64(hi)), Part: p, Parts: len(offs) - 1}) {
				return false
			}
		}
	}
	return true
}

func sendSlices(c *exec.Context, out chan<- arrow.RecordBatch, b arrow.RecordBatch) bool {
	n := b.NumRows()
	bs := int64(c.BatchSize)
	if n <= bs {
		return exec.Send(c, out, b)
	}
	defer b.Release()
	for off := int64(0); off < n; off += bs {
		if !exec.Send(c, out, b.NewSlice(off, min(off+bs, n))) {
			return false
		}
	}
	return true
}

// RenumberColumns returns e with each column reference's index replaced
// by at[index] (e itself is not changed).
func RenumberColumns(e expr.Expr, at map[int]int) expr.Expr {
	return MapColumns(e, func(c *expr.Column) expr.Expr {
		cp := *c
		cp.Index = at[c.Index]
		return &cp
	})
}

// MapColumns returns e with each column reference c replaced by f(c) (e
// itself is not changed).
func MapColumns(e expr.Expr, f func(*expr.Column) expr.Expr) expr.Expr {
	switch x := e.(type) {
	case *expr.Column:
		return f(x)
	case *expr.Call:
		cp := *x
		cp.Args = make([]expr.Expr, len(x.Args))
		for i, a := range x.Args {
			cp.Args[i] = MapColumns(a, f)
		}
		return &cp
	}
	return e
}
