package catalog

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/uuid"
)

// Fixed-size binary columns read as VARCHAR of their bytes, UUID columns
// as VARCHAR in DuckDB's text form, NULLs kept, across row groups and
// batch boundaries.
func TestFixedBinaryAndUUIDColumns(t *testing.T) {
	mem := memory.NewGoAllocator()
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "code", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
		{Name: "u", Type: extensions.NewUUIDType(), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, s)
	defer b.Release()
	const n = 50
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%7 == 3 {
			b.Field(1).AppendNull()
			b.Field(2).AppendNull()
			continue
		}
		b.Field(1).(*array.FixedSizeBinaryBuilder).Append([]byte{'a' + byte(i%26), 'x', '0' + byte(i%10)})
		var u uuid.UUID
		for k := range u {
			u[k] = byte(i*16 + k)
		}
		b.Field(2).(*extensions.UUIDBuilder).Append(u)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	p := filepath.Join(t.TempDir(), "f.parquet")
	writeParquet(t, p, rec, 16)
	tb, err := OpenFile("f", p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaOf(tb), "id int64, code utf8, u utf8"; got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	if u := Unreadable(tb); len(u) != 0 {
		t.Fatalf("unreadable: %+v", u)
	}
	rows := readAll(t, tb, []int{2, 0, 1}, 7)
	if len(rows) != n {
		t.Fatalf("%d rows, want %d", len(rows), n)
	}
	for _, r := range rows {
		i := int(atoi(t, r[1]))
		if i%7 == 3 {
			if r[0] != "NULL" || r[2] != "NULL" {
				t.Errorf("row %d: %q %q, want NULLs", i, r[0], r[2])
			}
			continue
		}
		var u uuid.UUID
		for k := range u {
			u[k] = byte(i*16 + k)
		}
		if r[0] != u.String() {
			t.Errorf("row %d: u %s, want %s", i, r[0], u.String())
		}
		if want := string([]byte{'a' + byte(i%26), 'x', '0' + byte(i%10)}); r[2] != want {
			t.Errorf("row %d: code %q, want %q", i, r[2], want)
		}
	}
}
