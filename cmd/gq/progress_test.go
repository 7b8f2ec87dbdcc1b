package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressLine checks the bar's text: bytes as binary sizes, rows as
// counts, capped at 99% until the result is there, nothing without a
// total.
func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		done, total int64
		bytes       bool
		want        []string
	}{
		{512 << 20, 2 << 30, true, []string{" 25% ▕███████", "512.0 MiB / 2.0 GiB", "1.5s"}},
		{3 << 30, 2 << 30, true, []string{" 99% ▕", "2.0 GiB / 2.0 GiB"}},
		{10, 40, false, []string{" 25%", "10 / 40 rows"}},
	} {
		got := progressLine(tc.done, tc.total, tc.bytes, 1500*time.Millisecond)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("progressLine(%d, %d, %v) = %q, want it to contain %q", tc.done, tc.total, tc.bytes, got, w)
			}
		}
	}
	if got := progressLine(5, 0, true, time.Minute); got != "" {
		t.Errorf("no total: %q, want no bar", got)
	}
}
