package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestAppendDate: AppendDate writes what Date32.FormattedString does, for
// every day around 1970 and every 97th from year -220 to 10183 (outside
// 0..9999 it falls back to FormattedString).
func TestAppendDate(t *testing.T) {
	for d := int64(-800_000); d < 3_000_000; d++ {
		if (d > -1000 && d < 1000) || d%97 == 0 {
			got, want := string(AppendDate(nil, arrow.Date32(d))), arrow.Date32(d).FormattedString()
			if got != want {
				t.Fatalf("day %d: %q, want %q", d, got, want)
			}
		}
	}
}
