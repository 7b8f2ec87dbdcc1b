package catalog

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// A DECIMAL(38) column is written to Parquet as it is (38 digits, its
// scale, NULLs), beside a DECIMAL(18) one widened as before; read back
// by pqarrow, not by gq's reader.
func TestParquetWriteDecimal128(t *testing.T) {
	mem := memory.NewGoAllocator()
	wt := &arrow.Decimal128Type{Precision: 38, Scale: 5}
	nt := &arrow.Decimal64Type{Precision: 18, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{{Name: "w", Type: wt, Nullable: true}, {Name: "n", Type: nt, Nullable: true}}, nil)
	nines, _ := new(big.Int).SetString("-99999999999999999999999999999999999999", 10)
	wide := []decimal128.Num{decimal128.FromBigInt(nines), {}, decimal128.FromI64(-1), decimal128.New(1, 0)}
	wb := array.NewDecimal128Builder(mem, wt)
	wb.AppendValues(wide, []bool{true, false, true, true})
	nb := array.NewDecimal64Builder(mem, nt)
	nb.AppendValues([]decimal.Decimal64{1, 2, 3, 4}, nil)
	wa, na := wb.NewArray(), nb.NewArray()
	b := array.NewRecordBatch(schema, []arrow.Array{wa, na}, 4)
	wa.Release()
	na.Release()
	defer b.Release()
	path := filepath.Join(t.TempDir(), "w.parquet")
	w, err := CreateParquet(path, schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	got := tbl.Column(0).Data().Chunk(0).(*array.Decimal128)
	if !arrow.TypeEqual(got.DataType(), wt) {
		t.Fatalf("read back as %s, want %s", got.DataType(), wt)
	}
	for i, want := range wide {
		if valid := i != 1; got.IsValid(i) != valid || valid && got.Value(i) != want {
			t.Errorf("row %d: %v (valid %v), want %v", i, got.Value(i).BigInt(), got.IsValid(i), want.BigInt())
		}
	}
	if n := tbl.Column(1).DataType(); n.ID() != arrow.DECIMAL128 || n.(*arrow.Decimal128Type).Scale != 2 {
		t.Errorf("DECIMAL(18,2) written as %s", n)
	}
}
