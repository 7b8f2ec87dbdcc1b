package catalog

import (
	"crypto/md5"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A file DuckDB wrote with every column type it writes by default opens;
// the columns gq reads give DuckDB's answers (testdata/duckdb/README.md),
// the others are named with their types.
func TestDuckDBTypesFile(t *testing.T) {
	tb, err := OpenFile("d", "testdata/duckdb/duck_types.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaOf(tb), "id int64, name utf8, ts timestamp[us], tstz timestamp[us, tz=UTC], big decimal(38, 2), small decimal64(10, 2), l list<element: int64, nullable>, "+
		"st struct<a: int64 nullable, b: utf8 nullable>, m map<utf8, int64, items_nullable>, u utf8, iv month_day_nano_interval, d date32, t time64[us], flag bool, dbl float64"; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	for _, u := range Unreadable(tb) {
		t.Errorf("unreadable: %s %s", u.Name, u.Type)
	}
	// u is md5(id::varchar)::uuid, which DuckDB prints as the digest's hex
	// in 8-4-4-4-12 groups.
	for _, r := range readAll(t, tb, []int{0, 9}, 300) {
		h := fmt.Sprintf("%x", md5.Sum([]byte(r[0])))
		if want := h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]; r[1] != want {
			t.Fatalf("id %s: u %s, want %s", r[0], r[1], want)
		}
	}
	// DuckDB: count 1000, sum(id) 499500, sum(small) 624375.00 (and
	// big, the same values as DECIMAL(38,2)),
	// count(name) 1000, sum(dbl) 166500, min(d) 2024-01-01, sum(flag) 500.
	var n, sumID, sumSmall, sumBig, names, flags int64
	var sumDbl float64
	minD := int32(1 << 30)
	// ts and tstz are 2024-01-01 00:00:00 + id seconds, t is 12:00:00
	// (DuckDB: min(ts) 2024-01-01 00:00:00, max(ts) 2024-01-01 00:16:39);
	// iv, Parquet's INTERVAL, is id days (DuckDB: 0 days … 999 days).
	for _, r := range readAll(t, tb, []int{0, 2, 3, 12, 10}, 257) {
		id := atoi(t, r[0])
		want := time.Unix(1704067200+id, 0).UTC().Format("2006-01-02T15:04:05")
		if r[1] != want || r[2] != want+"Z" || r[3] != "12:00:00.000000" {
			t.Fatalf("id %d: ts %s tstz %s t %s, want %s %sZ 12:00:00.000000", id, r[1], r[2], r[3], want, want)
		}
		if wantIV := fmt.Sprintf(`{"months":0,"days":%d,"nanoseconds":0}`, id); r[4] != wantIV {
			t.Fatalf("id %d: iv %s, want %s", id, r[4], wantIV)
		}
	}
	for _, r := range readAll(t, tb, []int{0, 1, 4, 5, 11, 13, 14}, 333) {
		n++
		sumID += atoi(t, r[0])
		if r[1] != "NULL" {
			names++
		}
		if r[5] == "true" {
			flags++
		}
		_ = r[5]
	}
	mem := countedAllocator(t)
	for s := 0; s < tb.NumSplits(); s++ {
		tb.Read(t.Context(), s, []int{14, 11, 5, 4}, 1000, mem, func(b arrow.RecordBatch) error {
			defer b.Release()
			for i := 0; i < int(b.NumRows()); i++ {
				sumSmall += int64(b.Column(2).(*array.Decimal64).Value(i))
				big := b.Column(3).(*array.Decimal128).Value(i)
				if big.HighBits() != 0 {
					t.Errorf("big row %d: %s", i, big.ToString(2))
				}
				sumBig += int64(big.LowBits())
				sumDbl += b.Column(0).(interface{ Value(int) float64 }).Value(i)
				if d := int32(b.Column(1).(interface{ Value(int) arrow.Date32 }).Value(i)); d < minD {
					minD = d
				}
			}
			return nil
		})
	}
	if sumBig != 62437500 {
		t.Errorf("sum(big) %d", sumBig)
	}
	if n != 1000 || sumID != 499500 || sumSmall != 62437500 || names != 1000 || flags != 500 || sumDbl < 166499.999 || sumDbl > 166500.001 || minD != 19723 {
		t.Errorf("n %d sum(id) %d sum(small) %d names %d flags %d sum(dbl) %v min(d) %d", n, sumID, sumSmall, names, flags, sumDbl, minD)
	}
}

func atoi(t *testing.T, s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
