package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
	"gq/catalog"
)

// A GPU table load takes a Parquet string column's dictionary indices as
// its codes where the file has them (gpuexec/load.go, dictReader). Over a
// file whose row groups each have another dictionary, some of whose
// chunks fall back to PLAIN pages midway, with NULLs in a column (in all
// row groups, or in some only), the device answers as the CPU does:
// group-by, join, filter and ORDER BY on those columns.
func TestGPUParquetDictionaries(t *testing.T) {
	if !arrowgpu.DriverPresent() {
		if err := emulator.Enable(); err != nil {
			t.Skip("no GPU and no emulator: ", err)
		}
	}
	dir := t.TempDir()
	str := arrow.BinaryTypes.String
	mode := func(i int) string { // another 5 values in another order in each row group
		rg := i / 2500
		if v := (i*7+rg)%5 + rg; v != 2 {
			return fmt.Sprintf("m%d", v)
		}
		return "A"
	}
	writeDictFile(t, filepath.Join(dir, "t.parquet"), arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "mode", Type: str}, {Name: "note", Type: str}, {Name: "nmode", Type: str, Nullable: true},
		{Name: "hmode", Type: str, Nullable: true}}, nil), 10000,
		func(b *array.RecordBuilder, i int) {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append(mode(i))
			if (i/2500)%2 == 0 {
				b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("n%d", i%13))
			} else { // distinct: the dictionary overflows, PLAIN pages follow
				b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("note %d of a row group whose dictionary overflows", i))
			}
			if i%7 == 0 {
				b.Field(3).AppendNull()
			} else {
				b.Field(3).(*array.StringBuilder).Append(mode(i + 3))
			}
			if (i/2500)%2 == 1 && i%7 == 0 { // NULLs in some row groups only
				b.Field(4).AppendNull()
			} else {
				b.Field(4).(*array.StringBuilder).Append(mode(i + 1))
			}
		})
	writeDictFile(t, filepath.Join(dir, "d.parquet"), arrow.NewSchema([]arrow.Field{{Name: "dmode", Type: str},
		{Name: "w", Type: arrow.PrimitiveTypes.Int64}}, nil), 6,
		func(b *array.RecordBuilder, i int) {
			b.Field(0).(*array.StringBuilder).Append([]string{"A", "m1", "m3", "m5", "m7", "zz"}[i])
			b.Field(1).(*array.Int64Builder).Append(int64(i % 3))
		})
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	g := newGPUPairOver(t, cat)
	for _, q := range []string{
		"select mode, count(*), sum(k) from t group by mode order by mode",
		"select nmode, count(*), min(k) from t group by nmode order by nmode nulls first",
		"select note, count(*) from t group by note order by count(*) desc, note limit 20",
		"select mode, nmode, count(*) from t where nmode is not null group by mode, nmode order by mode, nmode",
		"select count(*), sum(k) from t where mode = 'm3'",
		"select count(*), sum(k) from t where note like 'n1%' or nmode in ('A', 'm6')",
		"select w, count(*), sum(k) from t join d on t.mode = d.dmode group by w order by w",
		"select dmode, count(k) from d left join t on t.nmode = d.dmode group by dmode order by dmode",
		"select k, mode from t order by mode desc, k limit 40",
		"select hmode, count(*), sum(k) from t group by hmode order by hmode nulls last",
		"select k, hmode from t where hmode <> 'm3' order by hmode desc nulls first, k limit 40",
		"select k, nmode, note from t order by nmode nulls first, note desc, k limit 40",
	} {
		g.same(q, q)
		if w := g.fellBack(); w != nil {
			t.Errorf("%s: fell back to the CPU: %q", q, w)
		}
		plan := strings.Join(g.run(g.gpu, "explain "+q), "\n")
		if !strings.Contains(plan, "GPU") {
			t.Errorf("%s: nothing on the device:\n%s", q, plan)
		}
	}
}

// writeDictFile writes n rows (row i by add) in row groups of 2500,
// dictionary-encoded with a dictionary page limit of 2 KiB.
func writeDictFile(t *testing.T, path string, schema *arrow.Schema, n int, add func(*array.RecordBuilder, int)) {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range n {
		add(b, i)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(2500),
		parquet.WithDataPageSize(700), parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(2048),
		parquet.WithStats(true)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
