package engine

import (
	"strings"
	"testing"
)

// TestCopyTimeRoundTrip: TIMESTAMP, TIMESTAMPTZ and TIME columns written
// by COPY TO Parquet and CSV read back as the same types and values (the
// CSV ones by sniffing, as DuckDB reads them too).
func TestCopyTimeRoundTrip(t *testing.T) {
	e := newTestEngine(t, Options{Threads: 2, BatchSize: 3})
	defer e.Close()
	dir := t.TempDir()
	q := "select id, ts, ts_tz, tod, ts + interval 1500 microsecond as t2 from events order by id"
	want := strings.Join(mustRun(t, e, q), "\n")
	for _, ext := range []string{"parquet", "csv"} {
		path := dir + "/ev." + ext
		mustRun(t, e, "copy ("+q+") to '"+path+"'")
		if got := strings.Join(mustRun(t, e, "select * from `"+path+"` order by id"), "\n"); got != want {
			t.Errorf("%s read back:\n%s\nwant\n%s", ext, got, want)
		}
		types := strings.Join(mustRun(t, e, "describe `"+path+"`"), "\n")
		for _, w := range []string{"ts\tTIMESTAMP\t", "ts_tz\tTIMESTAMP WITH TIME ZONE\t", "tod\tTIME\t", "t2\tTIMESTAMP\t"} {
			if !strings.Contains(types, w) {
				t.Errorf("%s: describe lacks %q:\n%s", ext, w, types)
			}
		}
	}
}
