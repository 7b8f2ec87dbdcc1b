package gpuexec

import (
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/exec"
	gqmem "gq/memory"
)

// GPUSort is a Sort without a limit (CPU, its twin) run on the device over
// rows from the host: an aggregation's groups, rows that CPU operators
// made, the rows ranks gathered. The rows are taken whole, and when they
// are many (GPUSortMinRows) uploaded, ordered by a radix sort there
// (arrowgpu SortPerm) and brought back in order a batch at a time; fewer,
// or when the device cannot, the CPU sorts them; under a host memory
// limit the CPU's Sort runs as it is, spilling what does not fit. (A sort
// over a device pipeline's rows is the pipeline's: GPUJoinRows.WithSort.)
type GPUSort struct {
	CPU  *exec.Sort
	GPU  *GPU
	Keys []arrowgpu.OrderKey // output columns, in CPU.Keys' order
	// Warn, when set, is told when the sort falls back to the CPU; Raise
	// makes that fallback an error instead (fallback_mode=raise).
	Warn  func(string)
	Raise bool
}

// sortRun is a GPUSort's figures in one run (exec.RunState).
type sortRun struct {
	onCPU                         atomic.Bool
	rows, toDevice, toHost, devNS atomic.Int64
}

// GPUSortMinRows is the fewest rows the device sorts: below it a round
// trip costs more than the CPU's sort (a var: tests lower it). Measured on
// the H200 machine: TPC-H q16's final sort of 27,840 rows (an integer, two
// strings, an integer) took 21 ms on its CPU, which the device's radix
// sort does in a few passes of a few kernels each.
var GPUSortMinRows = 1 << 13

func (s *GPUSort) Schema() *arrow.Schema { return s.CPU.Schema() }
func (s *GPUSort) Children() []exec.Node { return []exec.Node{s.CPU.Input} }
func (s *GPUSort) Explain() string       { return "GPUSort" }

// RunDevice is where the run of c ordered the rows (EXPLAIN ANALYZE): the
// CPU when they were few.
func (s *GPUSort) RunDevice(c *exec.Context) string {
	st := exec.RunState[sortRun](c, s)
	switch {
	case st.onCPU.Load():
		return "CPU (fallback)"
	case st.rows.Load() == 0:
		return "CPU"
	}
	return "GPU"
}

// RunStats reports the rows the run of c sorted on the device, the bytes
// moved and the time on the device.
func (s *GPUSort) RunStats(c *exec.Context) []exec.Stat {
	st := exec.RunState[sortRun](c, s)
	return []exec.Stat{
		{Name: "device rows", Value: st.rows.Load()},
		{Name: "to device", Value: st.toDevice.Load(), Unit: "bytes"},
		{Name: "to host", Value: st.toHost.Load(), Unit: "bytes"},
		{Name: "device time", Unit: "text", Text: time.Duration(st.devNS.Load()).Round(time.Microsecond).String()},
	}
}

func (s *GPUSort) Open(c *exec.Context) <-chan arrow.RecordBatch {
	if c.Mem.Limited(gqmem.Host) || c.Mem.SpillAlways() {
		// Under a host memory limit the CPU's sort, which spills what
		// does not fit, takes the rows as they come.
		return s.CPU.Open(c)
	}
	st := exec.RunState[sortRun](c, s)
	in := s.CPU.Input.Open(c)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer exec.DrainLater(c, in)
		var batches []arrow.RecordBatch
		n := 0
		for b := range in {
			if b.NumRows() == 0 {
				b.Release()
				continue
			}
			batches = append(batches, b)
			n += int(b.NumRows())
		}
		if err := c.Err(); err != nil {
			exec.ReleaseBatches(batches)
			return err
		}
		if n >= GPUSortMinRows {
			sent, err := s.sortOnDevice(c, st, batches, out)
			s.GPU.noteErr(err)
			if err == nil || sent || !gpuFallback(err) || c.Err() != nil {
				exec.ReleaseBatches(batches)
				return err
			}
			if err := fallBack(s.Raise, s.Warn, "GPU sort", err, &st.onCPU); err != nil {
				exec.ReleaseBatches(batches)
				return err
			}
		}
		return sortOnHost(c, s.CPU.Input.Schema(), batches, s.CPU.Keys, out)
	})
	return out
}

// sortOnHost sends batches (it owns them) ordered by keys on the CPU: the
// device's operators leave few rows to it.
func sortOnHost(c *exec.Context, schema *arrow.Schema, batches []arrow.RecordBatch, keys []exec.SortKey, out chan<- arrow.RecordBatch) error {
	cpu := &exec.Sort{Input: &batchList{schema: schema, batches: batches}, Keys: keys, Limit: -1}
	return exec.Forward(c, cpu.Open(c), out)
}

// sortOnDevice uploads batches (not consumed), orders their rows there
// and sends them; sent reports whether any went.
func (s *GPUSort) sortOnDevice(c *exec.Context, st *sortRun, batches []arrow.RecordBatch, out chan<- arrow.RecordBatch) (sent bool, err error) {
	start := time.Now()
	defer func() { st.devNS.Add(int64(time.Since(start))) }()
	q, err := s.GPU.queue()
	if err != nil {
		return false, err
	}
	defer s.GPU.putQueue(q)
	schema := s.Schema()
	parts := make([][]*arrowgpu.Column, schema.NumFields())
	defer func() {
		for _, p := range parts {
			freeColumns(p)
		}
	}()
	before := q.BytesToDevice
	for _, b := range batches {
		db, err := q.Upload(b)
		if err != nil {
			return false, err
		}
		for k, col := range db.Cols {
			parts[k] = append(parts[k], col)
		}
		st.rows.Add(b.NumRows())
	}
	st.toDevice.Add(q.BytesToDevice - before)
	all := make([]*arrowgpu.Column, len(parts))
	defer freeColumns(all)
	for k, p := range parts {
		if len(p) == 1 { // one batch: its columns as they are
			all[k], parts[k] = p[0], nil
			continue
		}
		if all[k], err = q.Concat(p); err != nil {
			return false, err
		}
	}
	return sendSorted(c, q, all, s.Keys, schema, out, &st.toHost)
}

// batchList is a node that sends batches it was given (once: it hands
// them over).
type batchList struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (l *batchList) Schema() *arrow.Schema { return l.schema }
func (l *batchList) Children() []exec.Node { return nil }
func (l *batchList) Explain() string       { return "Batches" }

func (l *batchList) Open(c *exec.Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, c.ChanCap())
	batches := l.batches
	l.batches = nil
	c.Go(func() error {
		defer close(out)
		for i, b := range batches {
			if !exec.Send(c, out, b) {
				exec.ReleaseBatches(batches[i+1:])
				return c.Err()
			}
		}
		return nil
	})
	return out
}
