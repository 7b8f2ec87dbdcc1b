package memory

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Statistic names, rapidsmpf's where one exists (seed 001, "Shuffle
// Statistics"); times are in seconds, sizes in bytes.
const (
	StatSpillBytesDeviceToHost = "spill-bytes-device-to-host"
	StatSpillTimeDeviceToHost  = "spill-time-device-to-host"
	StatSpillBytesHostToDevice = "spill-bytes-host-to-device"
	StatSpillTimeHostToDevice  = "spill-time-host-to-device"
	StatSpillBytesHostToDisk   = "spill-bytes-host-to-disk"
	StatSpillTimeHostToDisk    = "spill-time-host-to-disk"
	StatSpillBytesDiskToHost   = "spill-bytes-disk-to-host"
	StatSpillTimeDiskToHost    = "spill-time-disk-to-host"
	// gq's own: per-query memory figures (set by the engine).
	StatPeakHostBytes     = "peak-host-bytes"          // accounting allocator's peak
	StatPeakReservedBytes = "peak-reserved-host-bytes" // the process's HOST reservations' peak so far
	StatAllocatedBytes    = "allocated-bytes"          // total bytes allocated
	// The device pool's peak in use so far (queries on the GPU): in a
	// one-shot process, the query's; with queries at once, theirs count.
	StatPeakDeviceBytes = "peak-device-bytes"
)

// Stat is one statistic: how many times it was recorded and the sum.
type Stat struct {
	Count int64   `json:"count"`
	Value float64 `json:"value"`
}

// Statistics counts named events, like rapidsmpf's Statistics. A disabled
// (or nil) Statistics ignores AddStat. It is safe for concurrent use.
type Statistics struct {
	enabled bool
	mu      sync.Mutex
	stats   map[string]Stat
	// parent, when not nil, also records every AddStat and SetMax: a
	// part's statistics (one operator's) that add up to the whole's.
	parent *Statistics
}

// NewStatistics returns an empty Statistics.
func NewStatistics(enabled bool) *Statistics {
	return &Statistics{enabled: enabled, stats: map[string]Stat{}}
}

// NewChildStatistics returns an enabled, empty Statistics that also
// records everything in parent (which may be nil or disabled). EXPLAIN
// ANALYZE gives each operator one over the query's, so that spills are
// attributed to the operator whose state spilled, and the operators'
// figures sum to the query's.
func NewChildStatistics(parent *Statistics) *Statistics {
	return &Statistics{enabled: true, stats: map[string]Stat{}, parent: parent}
}

// Enabled reports whether AddStat records anything.
func (s *Statistics) Enabled() bool { return s != nil && s.enabled }

// AddStat adds value to the statistic name.
func (s *Statistics) AddStat(name string, value float64) {
	if !s.Enabled() {
		return
	}
	s.parent.AddStat(name, value)
	s.mu.Lock()
	st := s.stats[name]
	st.Count++
	st.Value += value
	s.stats[name] = st
	s.mu.Unlock()
}

// SetMax records value under name if it is larger than the recorded one
// (for peaks).
func (s *Statistics) SetMax(name string, value float64) {
	if !s.Enabled() {
		return
	}
	s.parent.SetMax(name, value)
	s.mu.Lock()
	st := s.stats[name]
	st.Count++
	st.Value = max(st.Value, value)
	s.stats[name] = st
	s.mu.Unlock()
}

// GetStat returns the statistic name and whether it was recorded.
func (s *Statistics) GetStat(name string) (Stat, bool) {
	if s == nil {
		return Stat{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stats[name]
	return st, ok
}

// Names lists the recorded statistics, sorted.
func (s *Statistics) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for n := range s.stats {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Snapshot returns a copy of every statistic.
func (s *Statistics) Snapshot() map[string]Stat {
	out := map[string]Stat{}
	if s == nil {
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.stats {
		out[k] = v
	}
	return out
}

// Merge adds every statistic of o into s (peaks take the larger value).
func (s *Statistics) Merge(o *Statistics) {
	if !s.Enabled() || o == nil || s == o {
		return
	}
	for k, v := range o.Snapshot() {
		s.mu.Lock()
		st := s.stats[k]
		st.Count += v.Count
		if strings.HasPrefix(k, "peak-") {
			st.Value = max(st.Value, v.Value)
		} else {
			st.Value += v.Value
		}
		s.stats[k] = st
		s.mu.Unlock()
	}
}

// Report formats the statistics as text, one per line: bytes with binary
// units, times in seconds.
func (s *Statistics) Report() string {
	var b strings.Builder
	b.WriteString("Statistics:\n")
	snap := s.Snapshot()
	for _, n := range s.Names() {
		st := snap[n]
		var v string
		switch {
		case strings.Contains(n, "-bytes"):
			v = FormatBytes(int64(st.Value))
		case strings.Contains(n, "-time") || strings.HasPrefix(n, "event-loop"):
			v = fmt.Sprintf("%.3f s", st.Value)
		default:
			v = fmt.Sprintf("%g", st.Value)
		}
		fmt.Fprintf(&b, "  - %s: %s (count %d)\n", n, v, st.Count)
	}
	return b.String()
}
