package engine

import (
	"context"
	"os"
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

// TestCopyIntervalParquet: INTERVAL columns written by COPY TO Parquet (as
// Parquet's INTERVAL: months, days, milliseconds) read back as INTERVALs
// of the same values; one Parquet's INTERVAL cannot hold is an error
// naming the column, and no file is left behind.
func TestCopyIntervalParquet(t *testing.T) {
	e := newTestEngine(t, Options{Threads: 2, BatchSize: 3})
	defer e.Close()
	dir := t.TempDir()
	q := "select id, date_trunc('second', ts) - timestamp '2023-01-01 00:00:00' as d, cast('1 year 2 months 3 days 04:05:06.789' as interval) as c, " +
		"case when id = 2 then cast('1 day 00:00:00.5' as interval) end as n from events where ts is not null and id < 8 order by id"
	want := strings.Join(mustRun(t, e, q), "\n")
	path := dir + "/iv.parquet"
	mustRun(t, e, "copy ("+q+") to '"+path+"'")
	if got := strings.Join(mustRun(t, e, "select * from `"+path+"` order by id"), "\n"); got != want {
		t.Errorf("read back:\n%s\nwant\n%s", got, want)
	}
	types := strings.Join(mustRun(t, e, "describe `"+path+"`"), "\n")
	for _, w := range []string{"d\tINTERVAL\t", "c\tINTERVAL\t", "n\tINTERVAL\t"} {
		if !strings.Contains(types, w) {
			t.Errorf("describe lacks %q:\n%s", w, types)
		}
	}
	for _, bad := range []string{
		"select ts - timestamp '2024-01-01 00:00:00' as d from events", // a negative time, and microseconds
		"select cast('1 day 00:00:00.0005' as interval) as d",
		"select cast('-1 month' as interval) as d",
	} {
		out := dir + "/bad.parquet"
		_, err := e.Query(context.Background(), "copy ("+bad+") to '"+out+"'")
		if err == nil || !strings.Contains(err.Error(), "column d: INTERVAL") || !strings.Contains(err.Error(), "cannot be written to Parquet") {
			t.Errorf("%s: got %v, want an error naming column d", bad, err)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("%s: a file was left at %s", bad, out)
		}
	}
}
