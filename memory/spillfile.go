package memory

import (
	"bufio"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	amem "github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// SpillFiles is the spill directory: spilled host batches become Arrow IPC
// stream files in it, one per spilled buffer or sorted run.
type SpillFiles struct {
	stats *Statistics

	mu      sync.Mutex
	dir     string // "" until first use when made here
	made    bool   // dir was created here (removed by close)
	closed  bool
	seq     atomic.Uint64
	live    atomic.Int64 // files written and not yet removed
	written atomic.Int64 // files written ever
}

func newSpillFiles(dir string, st *Statistics) *SpillFiles {
	return &SpillFiles{dir: dir, stats: st}
}

// Dir is the spill directory, creating it on first use.
func (f *SpillFiles) Dir() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dirLocked()
}

func (f *SpillFiles) dirLocked() (string, error) {
	if f.closed {
		return "", errs.New(errs.Internal, "spill directory used after close")
	}
	if f.dir == "" {
		d, err := os.MkdirTemp("", "gq-spill-")
		if err != nil {
			return "", errs.Wrap(errs.IO, err, "creating the spill directory")
		}
		f.dir, f.made = d, true
	} else if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return "", errs.Wrap(errs.IO, err, "creating the spill directory")
	}
	return f.dir, nil
}

// Live is the number of spill files written and not yet removed.
func (f *SpillFiles) Live() int64 { return f.live.Load() }

// Written is the number of spill files written since the start.
func (f *SpillFiles) Written() int64 { return f.written.Load() }

func (f *SpillFiles) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.made && f.dir != "" {
		return os.RemoveAll(f.dir)
	}
	return nil
}

// spillWriteBuffer is the I/O buffer of a spill file being written: small,
// since many stay open at once (one per spilled partition, 32 per
// partitioned operator); spillReadBuffer that of a file read back (one or
// a few at a time).
const (
	spillWriteBuffer = 16 << 10
	spillReadBuffer  = 64 << 10
)

// SpillWriter writes one spill file.
type SpillWriter struct {
	files *SpillFiles
	qs    *Statistics
	path  string
	file  *os.File
	buf   *bufio.Writer
	w     *ipc.Writer
	cw    countWriter
	rows  int64
	dur   time.Duration
	// flushed is the bytes already recorded as spilled by Flush.
	flushed int64
}

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Create starts a spill file of batches with schema. Its spill and
// read-back figures go to the resource's statistics and also to qs (the
// query's; may be nil).
func (f *SpillFiles) Create(schema *arrow.Schema, qs *Statistics) (*SpillWriter, error) {
	// The file counts as live from before the directory is known, so a
	// temporary directory is not removed under it (see fileRemoved).
	f.mu.Lock()
	dir, err := f.dirLocked()
	if err == nil {
		f.live.Add(1)
	}
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "spill-"+itoa(f.seq.Add(1))+".arrows")
	file, err := os.Create(path)
	if err != nil {
		f.fileRemoved()
		return nil, errs.Wrap(errs.IO, err, "creating spill file")
	}
	f.written.Add(1)
	sw := &SpillWriter{files: f, qs: qs, path: path, file: file, buf: bufio.NewWriterSize(file, spillWriteBuffer)}
	sw.cw.w = sw.buf
	sw.w = ipc.NewWriter(&sw.cw, ipc.WithSchema(schema))
	return sw, nil
}

// Write appends b (the caller keeps its reference).
func (w *SpillWriter) Write(b arrow.RecordBatch) error {
	start := time.Now()
	err := w.w.Write(b)
	w.dur += time.Since(start)
	w.rows += b.NumRows()
	if err != nil {
		return errs.Wrap(errs.IO, err, "writing spill file")
	}
	return nil
}

// Flush pushes buffered bytes to the file, records them as spilled and
// returns how many there were since the last Flush (the writer stays
// open: a spillable buffer appends to its file at each spill).
func (w *SpillWriter) Flush() (int64, error) {
	start := time.Now()
	err := w.buf.Flush()
	w.dur += time.Since(start)
	if err != nil {
		return 0, errs.Wrap(errs.IO, err, "writing spill file")
	}
	n := w.cw.n - w.flushed
	w.flushed = w.cw.n
	for _, st := range []*Statistics{w.files.stats, w.qs} {
		st.AddStat(StatSpillBytesHostToDisk, float64(n))
		st.AddStat(StatSpillTimeHostToDisk, w.dur.Seconds())
	}
	w.dur = 0
	return n, nil
}

// Finish closes the file and returns it for reading back. On error the
// file is removed.
func (w *SpillWriter) Finish() (*SpillFile, error) {
	start := time.Now()
	err := w.w.Close()
	if err == nil {
		err = w.buf.Flush()
	}
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	w.dur += time.Since(start)
	sf := &SpillFile{files: w.files, qs: w.qs, path: w.path, Bytes: w.cw.n, Rows: w.rows}
	if err != nil {
		sf.Remove()
		return nil, errs.Wrap(errs.IO, err, "writing spill file")
	}
	if n := w.cw.n - w.flushed; n > 0 || w.flushed == 0 {
		for _, st := range []*Statistics{w.files.stats, w.qs} {
			st.AddStat(StatSpillBytesHostToDisk, float64(n))
			st.AddStat(StatSpillTimeHostToDisk, w.dur.Seconds())
		}
	}
	return sf, nil
}

// Abort removes a file being written.
func (w *SpillWriter) Abort() {
	w.w.Close()
	w.file.Close()
	(&SpillFile{files: w.files, path: w.path}).Remove()
}

// SpillFile is a finished spill file.
type SpillFile struct {
	files   *SpillFiles
	qs      *Statistics
	path    string
	removed atomic.Bool
	Bytes   int64 // size on disk
	Rows    int64
}

// Remove deletes the file (idempotent).
func (f *SpillFile) Remove() {
	if f == nil || f.removed.Swap(true) {
		return
	}
	os.Remove(f.path)
	f.files.fileRemoved()
}

// fileRemoved counts a spill file gone. When none is left, a temporary
// directory made here is removed too (made again on the next spill), so
// engines that are never closed leave no empty directories behind.
func (f *SpillFiles) fileRemoved() {
	if f.live.Add(-1) != 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.live.Load() == 0 && f.made && f.dir != "" {
		os.Remove(f.dir)
		f.dir, f.made = "", false
	}
}

// SpillReader reads a spill file's batches back, one at a time.
type SpillReader struct {
	sf    *SpillFile
	file  *os.File
	r     *ipc.Reader
	start time.Time
	dur   time.Duration
}

// Open starts reading the file, allocating batches from mem.
func (f *SpillFile) Open(mem amem.Allocator) (*SpillReader, error) {
	start := time.Now()
	file, err := os.Open(f.path)
	if err != nil {
		return nil, errs.Wrap(errs.IO, err, "opening spill file")
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(file, spillReadBuffer), ipc.WithAllocator(mem))
	if err != nil {
		file.Close()
		return nil, errs.Wrap(errs.IO, err, "reading spill file")
	}
	return &SpillReader{sf: f, file: file, r: r, dur: time.Since(start)}, nil
}

// Next returns the next batch (owned by the caller), or nil at the end.
func (r *SpillReader) Next() (arrow.RecordBatch, error) {
	start := time.Now()
	defer func() { r.dur += time.Since(start) }()
	if !r.r.Next() {
		if err := r.r.Err(); err != nil {
			return nil, errs.Wrap(errs.IO, err, "reading spill file")
		}
		return nil, nil
	}
	b := r.r.RecordBatch()
	b.Retain()
	return b, nil
}

// Close ends reading (the file stays until Remove) and records the
// read-back in the statistics.
func (r *SpillReader) Close() {
	r.r.Release()
	r.file.Close()
	for _, st := range []*Statistics{r.sf.files.stats, r.sf.qs} {
		st.AddStat(StatSpillBytesDiskToHost, float64(r.sf.Bytes))
		st.AddStat(StatSpillTimeDiskToHost, r.dur.Seconds())
	}
}

func itoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
