package flight

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestTimeTypesOnTheWire: TIMESTAMP, TIMESTAMPTZ, TIME and INTERVAL
// results reach a Flight SQL client as Arrow timestamp[us],
// timestamp[us, tz=UTC], time64[us] and month_day_nano_interval with
// their values; a timestamp parameter (here in ms) binds as the
// TIMESTAMP it is.
func TestTimeTypesOnTheWire(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	const sql = `select timestamp '2024-01-02 03:04:05.678901' as ts, to_timestamp(1704157445) as tz,
		time '23:59:59.5' as tm, timestamp '2024-03-01 00:00:00' - timestamp '2024-02-28 12:00:00' as iv`
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err := fetch(ctx, t, cl, info)
	defer release(got)
	if err != nil {
		t.Fatal(err)
	}
	want := []arrow.DataType{&arrow.TimestampType{Unit: arrow.Microsecond}, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
		arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.MonthDayNanoInterval}
	for i, w := range want {
		if !arrow.TypeEqual(schema.Field(i).Type, w) {
			t.Errorf("column %s is %v, want %v", schema.Field(i).Name, schema.Field(i).Type, w)
		}
	}
	if len(got) != 1 || got[0].NumRows() != 1 {
		t.Fatalf("%d batches", len(got))
	}
	b := got[0]
	ts := time.Date(2024, 1, 2, 3, 4, 5, 678901000, time.UTC).UnixMicro()
	if v := int64(b.Column(0).(*array.Timestamp).Value(0)); v != ts {
		t.Errorf("ts %d, want %d", v, ts)
	}
	if v := int64(b.Column(1).(*array.Timestamp).Value(0)); v != time.Date(2024, 1, 2, 1, 4, 5, 0, time.UTC).UnixMicro() {
		t.Errorf("tz %d", v)
	}
	if v := int64(b.Column(2).(*array.Time64).Value(0)); v != 86399_500000 {
		t.Errorf("tm %d", v)
	}
	if v := b.Column(3).(*array.MonthDayNanoInterval).Value(0); v != (arrow.MonthDayNanoInterval{Days: 1, Nanoseconds: 12 * 3600e9}) {
		t.Errorf("iv %+v", v)
	}

	prep, err := cl.Prepare(ctx, "select count(*) from lineitem where cast(l_shipdate as datetime) <= ?")
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(ctx)
	params := paramBatch([]arrow.Field{{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(time.Date(1995, 6, 17, 0, 0, 0, 1_000_000, time.UTC).UnixMilli()))
	})
	defer params.Release()
	prep.SetParameters(params)
	pinfo, err := prep.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pschema, pgot, err := fetch(ctx, t, cl, pinfo)
	defer release(pgot)
	if err != nil {
		t.Fatal(err)
	}
	lit := engineCSV(t, e, "select count(*) from lineitem where l_shipdate <= date '1995-06-17'")
	if g := csvOf(t, pschema, pgot); string(g) != string(lit) {
		t.Errorf("prepared with a timestamp parameter: %s, want %s", g, lit)
	}
}
