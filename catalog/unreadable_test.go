package catalog

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// nestedRecord has readable columns (time ones among them) between nested and other
// columns gq cannot read, so that table column i is not leaf i.
func nestedRecord(t *testing.T, n int) arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String}), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "huge", Type: &arrow.Decimal256Type{Precision: 40, Scale: 0}, Nullable: true},
		{Name: "wide", Type: &arrow.Decimal128Type{Precision: 38, Scale: 2}, Nullable: true},
		{Name: "tz", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "t", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	b := array.NewRecordBuilder(mem, s)
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1e6))
		lb := b.Field(2).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(i), int32(i + 1)}, nil)
		if i%3 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append("n" + strings.Repeat("x", i%5))
		}
		sb := b.Field(4).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
		sb.FieldBuilder(1).(*array.StringBuilder).Append("s")
		mb := b.Field(5).(*array.MapBuilder)
		mb.Append(true)
		mb.KeyBuilder().(*array.StringBuilder).Append("k")
		mb.ItemBuilder().(*array.Int32Builder).Append(int32(i))
		b.Field(6).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i * 101)))
		b.Field(7).(*array.Decimal256Builder).Append(decimal256.FromI64(int64(i)))
		b.Field(8).(*array.Decimal128Builder).Append(decimal128.New(int64(i), uint64(i))) // i·2^64 + i
		b.Field(9).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i)))
		b.Field(10).(*array.Time64Builder).Append(arrow.Time64(i))
		b.Field(11).(*array.Float64Builder).Append(float64(i) / 2)
	}
	return b.NewRecordBatch()
}

func TestUnreadableColumns(t *testing.T) {
	dir := t.TempDir()
	rec := nestedRecord(t, 100)
	defer rec.Release()
	p := filepath.Join(dir, "n.parquet")
	writeParquet(t, p, rec, 30)
	tb, err := OpenFile("n", p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range tb.Schema().Fields() {
		names = append(names, f.Name+" "+f.Type.String())
	}
	if got, want := strings.Join(names, ", "), "id int64, ts timestamp[us], l list<element: int64, nullable>, name utf8, st struct<a: int64 nullable, b: utf8 nullable>, "+
		"m map<utf8, int64, items_nullable>, dec decimal64(10, 2), wide decimal(38, 2), tz timestamp[us, tz=UTC], t time64[us], v float64"; got != want {
		t.Errorf("schema = %s, want %s", got, want)
	}
	var bad []string
	for _, u := range Unreadable(tb) {
		bad = append(bad, u.Name)
		if u.File != p || u.Type == "" || u.Why == "" {
			t.Errorf("unreadable %+v", u)
		}
	}
	if got, want := strings.Join(bad, " "), "huge"; got != want {
		t.Errorf("unreadable = %s, want %s", got, want)
	}
	err = Unreadable(tb)[0].Err("huge")
	if !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "huge") || !strings.Contains(err.Error(), "decimal256(40, 0)") || !strings.Contains(err.Error(), "n.parquet") {
		t.Errorf("Err = %v", err)
	}
	// Every split, columns out of order and repeated: the direct decoder
	// (id, name, v) and pqarrow (dec, wide) all find the right leaves.
	var sum, decSum int64
	var wideSum decimal128.Num
	var vsum float64
	var rows, nulls int
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, []int{10, 0, 3, 6, 0, 7}, 7, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
			defer b.Release()
			for i := 0; i < int(b.NumRows()); i++ {
				vsum += b.Column(0).(*array.Float64).Value(i)
				sum += b.Column(1).(*array.Int64).Value(i)
				if b.Column(2).IsNull(i) {
					nulls++
				}
				decSum += int64(b.Column(3).(*array.Decimal64).Value(i))
				wideSum = wideSum.Add(b.Column(5).(*array.Decimal128).Value(i))
			}
			rows += int(b.NumRows())
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if wideSum != decimal128.New(4950, 4950) {
		t.Errorf("sum(wide) = %s, want 4950·2^64 + 4950", wideSum.ToString(0))
	}
	if rows != 100 || sum != 4950 || vsum != 2475 || nulls != 34 || decSum != 4950*101 {
		t.Errorf("rows %d sum %d vsum %v nulls %d decSum %d", rows, sum, vsum, nulls, decSum)
	}
	// Statistics are those of the column's own leaf.
	pt := tb.(*ParquetTable)
	st, ok := pt.RowGroupStats(1, 10)
	if !ok || !st.HasMinMax || st.Min != 15.0 || st.Max != 29.5 {
		t.Errorf("stats of v in row group 1: %+v %v", st, ok)
	}
	// A 128-bit decimal's statistics are its 16-byte big-endian values.
	st, ok = pt.RowGroupStats(1, 7)
	if !ok || !st.HasMinMax || st.Min != decimal128.New(30, 30) || st.Max != decimal128.New(59, 59) {
		t.Errorf("stats of wide in row group 1: %+v %v", st, ok)
	}
	if pt.SplitBytes(0, []int{10}) <= 0 {
		t.Errorf("SplitBytes of v is 0")
	}
	// A nested column's leaves have statistics, the column has none;
	// its bytes are those of all its leaves.
	if st, ok := pt.RowGroupStats(1, 5); ok {
		t.Errorf("stats of the map m: %+v", st)
	}
	if m, k := pt.SplitBytes(0, []int{5}), pt.SplitBytes(0, []int{3}); m <= k {
		t.Errorf("SplitBytes of m (two leaves) %d <= of name %d", m, k)
	}
}

// The time columns of nestedRecord read as µs: ts (µs, no zone) as it is,
// tz (ns, UTC) floored to µs as TIMESTAMPTZ, t (time64 µs) as TIME.
func TestTimeColumnsRead(t *testing.T) {
	dir := t.TempDir()
	rec := nestedRecord(t, 20)
	defer rec.Release()
	p := filepath.Join(dir, "n.parquet")
	writeParquet(t, p, rec, 7)
	tb, err := OpenFile("n", p)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, []int{0, 1, 8, 9}, 5, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
			defer b.Release()
			for i := 0; i < int(b.NumRows()); i++ {
				id := b.Column(0).(*array.Int64).Value(i)
				ts := b.Column(1).(*array.Timestamp).Value(i)
				tz := b.Column(2).(*array.Timestamp).Value(i)
				tm := b.Column(3).(*array.Time64).Value(i)
				if int64(ts) != id*1e6 || int64(tz) != id/1000 || int64(tm) != id {
					t.Errorf("id %d: ts %d tz %d t %d", id, ts, tz, tm)
				}
				n++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != 20 {
		t.Errorf("%d rows", n)
	}
}
