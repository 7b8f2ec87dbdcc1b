package shuffle

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Statistics names from seed 001: shuffle-payload-send/recv count bytes of
// chunk payloads; event-loop-* time the receive loop. A nil *Statistics
// records nothing.
const (
	StatPayloadSend   = "shuffle-payload-send"
	StatPayloadRecv   = "shuffle-payload-recv"
	StatEventLoop     = "event-loop-total"
	StatMetadataSend  = "event-loop-metadata-send"
	StatMetadataRecv  = "event-loop-metadata-recv"
	StatCheckFinished = "event-loop-check-future-finish"
)

// Stat is one statistic: how many events and their total value (bytes, or
// seconds for event-loop figures).
type Stat struct {
	Count int64
	Value float64
}

// Statistics accumulates named figures; safe for concurrent use.
type Statistics struct {
	mu sync.Mutex
	m  map[string]Stat
}

// NewStatistics returns an empty collector.
func NewStatistics() *Statistics { return &Statistics{m: map[string]Stat{}} }

// Add records one event of value v under name.
func (s *Statistics) Add(name string, v float64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	st := s.m[name]
	st.Count++
	st.Value += v
	s.m[name] = st
	s.mu.Unlock()
}

// addDuration records one event lasting since start.
func (s *Statistics) addDuration(name string, start time.Time) {
	if s != nil {
		s.Add(name, time.Since(start).Seconds())
	}
}

// Get returns the statistic called name (zero if never recorded).
func (s *Statistics) Get(name string) Stat {
	if s == nil {
		return Stat{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[name]
}

// Report renders every statistic, one per line, sorted by name.
func (s *Statistics) Report() string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.m))
	for n := range s.m {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		st := s.m[n]
		if strings.HasPrefix(n, "event-loop") {
			fmt.Fprintf(&b, "%-34s count %8d  total %.3fs\n", n, st.Count, st.Value)
		} else {
			fmt.Fprintf(&b, "%-34s count %8d  total %d bytes\n", n, st.Count, int64(st.Value))
		}
	}
	return b.String()
}
