package exec

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// EXPLAIN ANALYZE instrumentation. Instrument puts an Analyzed node above
// every node of a plan (a copy of the plan, made with WithChildren, so no
// operator needs to know about it); each
// Analyzed forwards its input's batches unchanged and counts rows, batches
// and the time it waited for them, and opens it under the operator's own
// memory accounting (opmem.go: peak memory, spilled bytes). The run costs
// one extra goroutine and channel hop per operator, which is noise next
// to the operators' work.

// Analyzed wraps one operator and records what it produced.
type Analyzed struct {
	Inner Node

	rows, batches atomic.Int64
	bytes         atomic.Int64  // Arrow buffer bytes of the batches emitted
	wait          atomic.Int64  // ns spent waiting for Inner's next batch
	opened, done  atomic.Int64  // unix ns; 0 until it happens
	progress      *atomic.Int64 // also counts rows, for a progress bar; may be nil
	mem           opMem         // the operator's memory and spills (opmem.go)
	// progressOnly marks a wrapper made by TrackLeaves alone, which
	// counts rows but leaves memory to the query's accounting.
	progressOnly bool
	// waits are the intervals of those waits, in time order, read after
	// the run (Stats). mu guards them should the node be opened twice.
	mu    sync.Mutex
	waits []interval
	// ran is the Context the operator ran under (RunStatsReporter).
	ran atomic.Pointer[Context]
}

// Stat is one operator-specific figure for EXPLAIN ANALYZE. Unit "bytes"
// is shown as a size (KiB, MiB), "" as a plain number, "text" as Text.
type Stat struct {
	Name  string // column heading: "peak mem", "spilled", "shuffled", …
	Unit  string
	Value int64
	Text  string
}

// Instrument wraps every node under root (children and links), and root
// itself, in a copy of the plan. A node reached twice is wrapped once.
// The wrappers count one run: instrument the plan for each run.
func Instrument(root Node) *Analyzed {
	return instrument(root, map[Node]Node{}, nil).(*Analyzed)
}

// Progress counts rows read by a query's leaves (scans) against the rows
// they are expected to read, for a progress bar. Done can stay below
// Total where a pushed-down filter or a LIMIT reads less.
type Progress struct {
	Done, Total atomic.Int64
}

// TrackLeaves wraps the leaves (nodes without children) under root so the
// rows they emit add to p.Done, and adds estimate(leaf) (when ≥ 0) to
// p.Total, in a copy of the plan. Inner nodes are not wrapped.
func TrackLeaves(root Node, p *Progress, estimate func(Node) int64) Node {
	return instrument(root, map[Node]Node{}, func(n Node) *atomic.Int64 {
		if len(n.Children()) > 0 {
			return nil
		}
		if e := estimate(n); e >= 0 {
			p.Total.Add(e)
		}
		return &p.Done
	})
}

// instrument wraps n and the nodes under it (its children and links,
// rewritten by WithChildren: the plan given is left as it was). With a
// non-nil pick, only nodes for which pick returns a counter are wrapped,
// and their rows also add to that counter. A wrapper already there
// (TrackLeaves' before EXPLAIN ANALYZE's) is copied, its progress counter kept.
func instrument(n Node, seen map[Node]Node, pick func(Node) *atomic.Int64) Node {
	if out, ok := seen[n]; ok {
		return out
	}
	inner := n
	a, wrapped := n.(*Analyzed)
	if wrapped {
		inner = a.Inner
	}
	var counter *atomic.Int64
	if pick != nil {
		counter = pick(inner)
	}
	inner2 := RewriteChildren(inner, func(c Node) Node { return instrument(c, seen, pick) })
	switch {
	case wrapped:
		// A new wrapper: the one given belongs to the plan given.
		a = &Analyzed{Inner: inner2, progress: a.progress, progressOnly: a.progressOnly && pick != nil}
	case pick == nil || counter != nil:
		a = &Analyzed{Inner: inner2, progressOnly: pick != nil}
	}
	var out Node = inner2
	if a != nil {
		if counter != nil {
			a.progress = counter
		}
		out = a
	}
	seen[n], seen[inner] = out, out
	return out
}

func (a *Analyzed) Schema() *arrow.Schema { return a.Inner.Schema() }
func (a *Analyzed) Children() []Node      { return a.Inner.Children() }
func (a *Analyzed) Explain() string       { return a.Inner.Explain() }

// Open opens the operator under its own accounting (opmem.go) and
// forwards its batches, counting them. A progress-only wrapper
// (TrackLeaves) adds no accounting: it runs for every query.
func (a *Analyzed) Open(c *Context) <-chan arrow.RecordBatch {
	a.opened.CompareAndSwap(0, time.Now().UnixNano())
	oc := c
	if !a.progressOnly {
		oc = a.mem.context(c)
	}
	a.ran.Store(oc)
	in := a.Inner.Open(oc)
	out := make(chan arrow.RecordBatch, c.ChanCap())
	c.Go(func() error {
		defer close(out)
		defer func() { a.done.Store(time.Now().UnixNano()) }()
		for {
			t := time.Now()
			b, ok := <-in
			end := time.Now()
			a.wait.Add(int64(end.Sub(t)))
			a.mu.Lock()
			a.waits = append(a.waits, interval{t.UnixNano(), end.UnixNano()})
			a.mu.Unlock()
			if !ok {
				return nil
			}
			a.rows.Add(b.NumRows())
			a.batches.Add(1)
			a.bytes.Add(batchBytes(b))
			if a.progress != nil {
				a.progress.Add(b.NumRows())
			}
			if !Send(c, out, b) {
				Drain(in)
				return c.Err()
			}
		}
	})
	return out
}

func (a *Analyzed) intervals() []interval {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.waits
}

// interval is a span of time in unix nanoseconds, [from, to).
type interval struct{ from, to int64 }

// union merges sorted interval lists into one sorted list of disjoint
// intervals.
func union(lists [][]interval) []interval {
	var all []interval
	for _, l := range lists {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].from < all[j].from })
	var out []interval
	for _, iv := range all {
		if n := len(out); n > 0 && iv.from <= out[n-1].to {
			out[n-1].to = max(out[n-1].to, iv.to)
			continue
		}
		out = append(out, iv)
	}
	return out
}

// uncovered is the total length of the sorted, disjoint intervals ws
// outside the sorted, disjoint intervals cover.
func uncovered(ws, cover []interval) int64 {
	var total int64
	j := 0
	for _, w := range ws {
		from := w.from
		for j < len(cover) && cover[j].to <= from {
			j++
		}
		for k := j; k < len(cover) && cover[k].from < w.to && from < w.to; k++ {
			if cover[k].from > from {
				total += cover[k].from - from
			}
			from = max(from, cover[k].to)
		}
		if from < w.to {
			total += w.to - from
		}
	}
	return total
}

// OpStats are an operator's figures after the run.
type OpStats struct {
	Rows, Batches int64
	Bytes         int64 // Arrow buffer bytes emitted
	// Wait is how long the consumer above waited in total for this
	// operator's batches: its own work plus the waits on its inputs. Self
	// is the part of that wait during which no input was being waited
	// for: the operator's own share of the critical path. Inputs that run
	// at the same time (a join's build and probe sides) are not counted
	// twice, as subtracting their waits would.
	Wait, Self time.Duration
	// Active is the wall time from Open to the end of its output.
	Active time.Duration
	Device string
	// PeakMem is the most bytes of Arrow buffers the operator held
	// allocated at once (opMem.peak); Spilled the bytes its state wrote
	// from host memory to disk. Both are also in Extra, as columns.
	PeakMem, Spilled int64
	Extra            []Stat
}

// batchBytes is the size of b's buffers (a slice counts whole buffers).
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, buf := range d.Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
		for _, c := range d.Children() {
			add(c)
		}
	}
	for _, c := range b.Columns() {
		add(c.Data())
	}
	return n
}

// Stats returns the operator's figures; call it after the query ran.
func (a *Analyzed) Stats() OpStats {
	s := OpStats{Rows: a.rows.Load(), Batches: a.batches.Load(), Bytes: a.bytes.Load(), Wait: time.Duration(a.wait.Load()), Device: "CPU"}
	if o, d := a.opened.Load(), a.done.Load(); o > 0 && d >= o {
		s.Active = time.Duration(d - o)
	}
	var inputs [][]interval
	for _, c := range a.Inner.Children() {
		if ca, ok := c.(*Analyzed); ok {
			inputs = append(inputs, ca.intervals())
		}
	}
	s.Self = time.Duration(uncovered(union([][]interval{a.intervals()}), union(inputs)))
	ran := a.ran.Load()
	if d, ok := a.Inner.(RunDeviceReporter); ok && ran != nil {
		s.Device = d.RunDevice(ran)
	}
	s.PeakMem, s.Spilled = a.mem.peak(), a.mem.spilled()
	// Every operator has the memory columns, first, so they line up in
	// the same place in every plan; then the operator's own (an
	// exchange's shuffle bytes sent and received).
	s.Extra = []Stat{{Name: "peak mem", Unit: "bytes", Value: s.PeakMem}, {Name: "spilled", Unit: "bytes", Value: s.Spilled}}
	if r, ok := a.Inner.(RunStatsReporter); ok && ran != nil {
		s.Extra = append(s.Extra, r.RunStats(ran)...)
	}
	return s
}

// OperatorRow is one operator's figures in a flat, plan-ordered list
// (gq --stats-json): the operator's depth in the tree, its description
// and what Stats measured, times in seconds, sizes in bytes.
type OperatorRow struct {
	Depth    int              `json:"depth"`
	Operator string           `json:"operator"`
	Rows     int64            `json:"rows"`
	Batches  int64            `json:"batches"`
	Time     float64          `json:"time_s"`
	Self     float64          `json:"self_s"`
	Device   string           `json:"device"`
	PeakMem  int64            `json:"peak_mem_bytes"`
	Spilled  int64            `json:"spilled_bytes"`
	Extra    map[string]int64 `json:"extra,omitempty"` // an exchange's "sent" and "received" bytes
}

// Operators lists the operators under root (as Instrument wrapped them)
// in EXPLAIN's order, parents before children, each described by
// describe (physical.Describe; nil: Node.Explain). Call it after the run.
func Operators(root Node, describe func(Node) string) []OperatorRow {
	if describe == nil {
		describe = Node.Explain
	}
	var out []OperatorRow
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		inner := n
		row := OperatorRow{Depth: depth}
		if a, ok := n.(*Analyzed); ok {
			inner = a.Inner
			s := a.Stats()
			row.Rows, row.Batches, row.Time, row.Self = s.Rows, s.Batches, s.Active.Seconds(), s.Self.Seconds()
			row.Device, row.PeakMem, row.Spilled = s.Device, s.PeakMem, s.Spilled
			for _, x := range s.Extra {
				if x.Name == "peak mem" || x.Name == "spilled" || x.Unit == "text" {
					continue
				}
				if row.Extra == nil {
					row.Extra = map[string]int64{}
				}
				row.Extra[x.Name] = x.Value
			}
		}
		row.Operator = describe(inner)
		out = append(out, row)
		for _, c := range inner.Children() {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return out
}
