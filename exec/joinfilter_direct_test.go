package exec

import (
	"context"
	"testing"
)

// A join's filter is direct only where the scan that applies it feeds the
// join's probe through Filter and Project alone; anything else between
// them (here a HashAggregate) may read the scan before the join publishes.
func TestMarkDirectProbe(t *testing.T) {
	f := &JoinFilter{ID: 1}
	other := &JoinFilter{ID: 2}
	scan := &Scan{JoinFilters: []ScanJoinFilter{{Filter: f}, {Filter: other}}}
	cases := []struct {
		name  string
		probe Node
		want  bool
	}{
		{"scan", scan, true},
		{"under filter and project", &Project{Input: &Filter{Input: scan}}, true},
		{"under run figures", &Analyzed{Inner: &Project{Input: &Analyzed{Inner: scan}}}, true},
		{"under an aggregation", &HashAggregate{Input: scan}, false},
		{"scan without the filter", &Scan{JoinFilters: []ScanJoinFilter{{Filter: other}}}, false},
	}
	for _, tc := range cases {
		c := NewContext(context.Background(), Options{Threads: 1})
		c.markDirectProbe(f, tc.probe)
		if got := c.joinFilterRun(f).direct; got != tc.want {
			t.Errorf("%s: direct = %v, want %v", tc.name, got, tc.want)
		}
		if c.joinFilterRun(other).direct {
			t.Errorf("%s: the other join's filter was marked direct", tc.name)
		}
	}
}
