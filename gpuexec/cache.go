package gpuexec

import (
	"errors"
	"slices"
	"sort"
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

// The device table cache keeps the columns that GPU scans read in device
// memory, so a table is decoded and uploaded once and later queries run
// from HBM (what cudf-polars users get by keeping a DataFrame on the
// device). A table's rows are held in chunks of whole splits, the same
// chunks for every column, each column of a chunk one arrowgpu.Column at
// offset 0; columns are loaded when a query first asks for them.
//
// Memory: the cache allocates from the GPU's pool, whose every byte the
// GPU's memory resource accounts in its DEVICE tier. The cache is that
// tier's spillable: when a reservation does not fit, the least recently
// used tables that no query is scanning are evicted (Spill) — dropping a
// table costs a reload from its files, the device's form of spilling. When
// the pool still cannot hold a load (fragmentation), every unpinned table
// is evicted and the load tried once more; if it still does not fit, a
// scan or aggregation streams the table through the device (stream.go)
// and a join's build side runs on the CPU. A table whose columns pass
// the budget for resident tables (GPU.residentBudget) streams without
// being loaded whole.

// chunkRows is the fewest rows a chunk holds (except a table's last):
// enough that a kernel launch covers millions of rows, few enough that a
// chunk's host copy on download stays a small part of memory.
var chunkRows = 1 << 21 // a var: tests make chunks small

type deviceCache struct {
	g      *GPU
	mu     sync.Mutex        // guards tables, tick and every devTable's pins and used
	tables map[any]*devTable // by cacheKey
	tick   int64
	// evictions and evicted count the tables the cache dropped to make
	// room, and their bytes (EXPLAIN ANALYZE: GPU.Evictions).
	evictions, evicted atomic.Int64
}

// devTable is one table's cached columns.
type devTable struct {
	table catalog.Table // its key in deviceCache.tables
	mu    sync.Mutex    // serialises loads; guards chunks, cols and dicts
	// chunks are set by the table's first load: split ranges and rows.
	chunks []devChunk
	cols   map[int][]*arrowgpu.Column // by table column ordinal, one per chunk
	// dicts are string columns as dictionary codes (group keys on the
	// device), by ordinal; nil for a column with too many distinct values.
	dicts map[int]*devDict
	bytes atomic.Int64 // device bytes held (read without mu by eviction and stats)

	pins int   // scans using the table (cache.mu)
	used int64 // cache.tick at the last acquire (cache.mu)
}

// devDict is a string column dictionary-encoded: per chunk an Int32 column
// of codes (NULL where the string is), and the strings by code — values,
// or for a build side's row numbers used as codes (join.go
// lateStrings) the build's column itself in pieces, rows, piece k
// starting at row starts[k].
type devDict struct {
	codes  []*arrowgpu.Column
	values *array.String
	rows   []*array.String
	starts []int
	// dev, instead, holds the strings on the device by row (late strings
	// of a build side from the cache): hostStrings reads those of the
	// groups that come back. devOwned: freeing it is the dictionary's.
	dev      *arrowgpu.Column
	devOwned bool
	// open: the codes are numbered as a streamed table's chunks are
	// encoded (stream.go); values holds the strings of the codes given by
	// the end of the last pass over the table, and may grow on the next.
	open bool
}

// str is the string of code v.
func (d *devDict) str(v int) string {
	if d.rows == nil {
		return d.values.Value(v)
	}
	k := sort.SearchInts(d.starts, v+1) - 1
	return d.rows[k].Value(v - d.starts[k])
}

// releaseStrings releases the strings (not the device codes).
func (d *devDict) releaseStrings() {
	if d.dev != nil && d.devOwned {
		d.dev.Free()
	}
	if d.values != nil {
		d.values.Release()
	}
	for _, r := range d.rows {
		r.Release()
	}
}

// maxDictValues is the most distinct strings a column may have to be
// dictionary-encoded (flags, modes, names of nations and segments, and a
// dimension table's names: TPC-H's 100,000 suppliers at SF10, whose
// s_name q21 groups by — without codes its build side went through the
// host, 26 ms on the H200 machine). A column of more values costs its
// first maxDictValues distinct strings in a map when it is loaded.
var maxDictValues = 1 << 18 // a var: tests lower it

type devChunk struct {
	first, end int // splits [first, end)
	rows       int
}

func newDeviceCache(g *GPU) *deviceCache {
	return &deviceCache{g: g, tables: map[any]*devTable{}}
}

// tableView is what a scan reads of a cached table: its chunks and, for
// the columns asked for, their device columns and dictionaries. It is
// taken under the table's lock; the slices it holds are never changed
// while the table is pinned (loads of other columns add map entries, and
// only an unpinned table is evicted), so readers need no lock.
type tableView struct {
	entry  *devTable // to release
	chunks []devChunk
	cols   map[int][]*arrowgpu.Column
	dicts  map[int]*devDict
	load   *loadStats // this acquire's load; nil when the columns were cached
	// stream, when set, says the columns did not fit in the device's
	// budget for resident tables: the view holds no chunk, and each
	// reads, uploads and frees them one by one (stream.go). entry is nil.
	stream *chunkStream
	// ctr counts the chunks run through the view (the scan's, for
	// EXPLAIN ANALYZE; nil: not counted).
	ctr *chunkCounters
}

// acquire returns a view of t with cols loaded; the table stays pinned
// until releaseView. With stream, columns that do not fit the device's
// budget for resident tables (GPU.residentBudget) are not loaded: the view
// streams them instead.
func (dc *deviceCache) acquire(c *exec.Context, t catalog.Table, cols []int, stream bool) (*tableView, int64, error) {
	dt, ls, err := dc.pinLoaded(c, t, cols, stream)
	if stream && errors.Is(err, errNoFit) {
		dc.forgetEmpty(t)
		return dc.g.streamView(t, cols), 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer dt.mu.Unlock()
	v := &tableView{entry: dt, chunks: dt.chunks, cols: map[int][]*arrowgpu.Column{}, dicts: map[int]*devDict{}, load: ls}
	for _, o := range cols {
		v.cols[o] = dt.cols[o]
		if d, ok := dt.dicts[o]; ok {
			v.dicts[o] = d
		}
	}
	var loaded int64
	if ls != nil {
		loaded = ls.bytes
	}
	return v, loaded, nil
}

// pinLoaded pins t's entry and loads cols; it returns with dt.mu held.
// With stream, a load that would pass the resident budget stops with
// errNoFit (and so does one the pool cannot hold even after eviction).
func (dc *deviceCache) pinLoaded(c *exec.Context, t catalog.Table, cols []int, stream bool) (dt *devTable, loaded *loadStats, err error) {
	dc.mu.Lock()
	dt = dc.tables[cacheKey(t)]
	if dt == nil {
		dt = &devTable{table: t, cols: map[int][]*arrowgpu.Column{}, dicts: map[int]*devDict{}}
		dc.tables[cacheKey(t)] = dt
	}
	dt.pins++
	dc.tick++
	dt.used = dc.tick
	dc.mu.Unlock()

	dt.mu.Lock()
	var need []int
	for _, o := range cols {
		if _, ok := dt.cols[o]; !ok && !slices.Contains(need, o) {
			need = append(need, o)
		}
	}
	if len(need) == 0 {
		return dt, nil, nil
	}
	var budget func() int64 // nil: none
	if stream {
		held := dt.bytes.Load()
		budget = func() int64 { return max(1, dc.g.residentBudget()-held) }
		// Known before reading a row, unless the device is still opening
		// (without a limit asked for): then the load learns it at its
		// first upload, which waits for the device.
		if b, ok := dc.g.knownBudget(); ok && fixedBytes(t, need) > b-held {
			err = errNoFit
		}
	}
	if err == nil {
		loaded, err = dt.load(c, dc.g, t, need, budget)
		if err != nil && !errors.Is(err, errNoFit) && gpuFallback(err) && dc.evict(dt) > 0 {
			loaded, err = dt.load(c, dc.g, t, need, budget)
		}
		if stream && err != nil && errors.Is(err, errs.ResourcesExhausted) {
			err = errNoFit
		}
	}
	if err != nil {
		dt.mu.Unlock()
		dc.release(dt)
		return nil, nil, err
	}
	return dt, loaded, nil
}

// cacheKey is what the cache knows table t by: itself, or for a view of a
// table that a plan makes anew each query (a rank's share of it, which
// has a CacheKey) what stays the same, so that the next query finds it.
func cacheKey(t catalog.Table) any {
	if k, ok := t.(interface{ CacheKey() any }); ok {
		return k.CacheKey()
	}
	return t
}

// forgetEmpty drops t's entry when it holds nothing and no query uses
// it (a table that streams leaves none behind).
func (dc *deviceCache) forgetEmpty(t catalog.Table) {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	if dt := dc.tables[cacheKey(t)]; dt != nil && dt.pins == 0 && dt.bytes.Load() == 0 {
		delete(dc.tables, cacheKey(t))
	}
}

// releaseView gives back what v holds: its table's pin, or a streamed
// view's dictionaries.
func (dc *deviceCache) releaseView(v *tableView) {
	if v.stream != nil {
		v.stream.release()
		return
	}
	dc.release(v.entry)
}

// release unpins dt.
func (dc *deviceCache) release(dt *devTable) {
	dc.mu.Lock()
	dt.pins--
	dc.mu.Unlock()
}

// evict frees the columns of every unpinned table except keep and returns
// the bytes freed. (It frees them all: a load that failed for want of a
// free span needs an unknown amount, and fragmentation makes partial
// eviction a guess.)
func (dc *deviceCache) evict(keep *devTable) int64 { return dc.evictLRU(keep, -1) }

// evictLRU frees unpinned tables other than keep, least recently used
// first, until at least n bytes are freed (n < 0: all of them), and
// returns the bytes freed.
func (dc *deviceCache) evictLRU(keep *devTable, n int64) int64 {
	dc.mu.Lock()
	var cands []*devTable
	for _, dt := range dc.tables {
		if dt != keep && dt.pins == 0 {
			cands = append(cands, dt)
		}
	}
	slices.SortFunc(cands, func(a, b *devTable) int { return int(a.used - b.used) })
	var victims []*devTable
	var planned int64
	for _, dt := range cands {
		if n >= 0 && planned >= n {
			break
		}
		victims = append(victims, dt)
		planned += dt.bytes.Load()
		delete(dc.tables, cacheKey(dt.table))
	}
	dc.mu.Unlock()
	var freed int64
	for _, dt := range victims {
		dt.mu.Lock()
		freed += dt.bytes.Load()
		dt.freeLocked()
		dt.mu.Unlock()
	}
	if freed > 0 {
		dc.evictions.Add(int64(len(victims)))
		dc.evicted.Add(freed)
	}
	return freed
}

// drop frees t's entry, a table of one query's (GPUScan.Source), now the
// query has ended.
func (dc *deviceCache) drop(t catalog.Table) {
	dc.mu.Lock()
	dt := dc.tables[cacheKey(t)]
	if dt == nil || dt.pins > 0 {
		dc.mu.Unlock()
		return
	}
	delete(dc.tables, cacheKey(t))
	dc.mu.Unlock()
	dt.mu.Lock()
	dt.freeLocked()
	dt.mu.Unlock()
}

// Spill is the cache as the DEVICE tier's spillable (memory.Spillable):
// it evicts unpinned tables, least recently used first, until n bytes are
// freed.
func (dc *deviceCache) Spill(t gqmem.Tier, n int64) int64 {
	if t != gqmem.Device {
		return 0
	}
	return dc.evictLRU(nil, n)
}

func (dt *devTable) freeLocked() {
	for _, cs := range dt.cols {
		freeColumns(cs)
	}
	for _, d := range dt.dicts {
		d.free()
	}
	dt.cols = map[int][]*arrowgpu.Column{}
	dt.dicts = map[int]*devDict{}
	dt.bytes.Store(0)
}

func (d *devDict) free() {
	if d == nil {
		return
	}
	// A load that failed part-way leaves the chunks it did not reach nil.
	freeColumns(d.codes)
	d.releaseStrings()
}

// uploadConcat uploads the concatenation of arrs (one chunk of a column) as
// one device column of type t and returns it with its size in bytes.
func uploadConcat(q *arrowgpu.Queue, t arrow.DataType, arrs []arrow.Array, mem memory.Allocator) (*arrowgpu.Column, int64, error) {
	if len(arrs) > 1 && t.ID() != arrow.BOOL {
		// Straight from the arrays' buffers: no concatenation on the host.
		before := q.BytesToDevice
		col, err := q.UploadArrays(t, arrs)
		if err != nil {
			return nil, 0, err
		}
		return col, q.BytesToDevice - before, nil
	}
	var arr arrow.Array
	switch len(arrs) {
	case 0:
		arr = array.MakeArrayOfNull(mem, t, 0)
	case 1:
		arr = arrs[0]
		arr.Retain()
	default:
		var err error
		if arr, err = array.Concatenate(arrs, mem); err != nil {
			return nil, 0, errs.Wrap(errs.ResourcesExhausted, err, "GPU cache: concatenating a chunk")
		}
	}
	defer arr.Release()
	before := q.BytesToDevice
	col, err := q.UploadArray(arr)
	if err != nil {
		return nil, 0, err
	}
	return col, q.BytesToDevice - before, nil
}
