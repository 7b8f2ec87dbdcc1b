package catalog

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestReadCSVOptionsAndHive(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sales", "year=2023", "region=eu", "a.csv"), "1;x\n2;y\n")
	writeFile(t, filepath.Join(dir, "sales", "year=2024", "region=us", "b.csv"), "3;z\n")
	c := New()
	ctx := context.Background()
	args := []FuncArg{
		{Value: filepath.Join(dir, "sales")}, // a directory, no trailing /
		{Name: "delim", Value: ";"},
		{Name: "header", Value: false},
		{Name: "columns", Value: []FuncArg{{Name: "id", Value: "BIGINT"}, {Name: "v", Value: "VARCHAR"}}},
		{Name: "hive_partitioning", Value: true},
	}
	tb, ok, err := c.TableFunction(ctx, "read_csv", "s", args)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if got, want := schemaOf(tb), "id int64, v utf8, year int64, region utf8"; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	var rows []string
	for _, r := range readAll(t, tb, []int{3, 0, 2, 1}, 10) {
		rows = append(rows, strings.Join(r, "|"))
	}
	if got := strings.Join(rows, " "); got != "eu|1|2023|x eu|2|2023|y us|3|2024|z" {
		t.Errorf("rows %s", got)
	}
	// Sniffed, by a glob, with a trailing /, types of some columns given.
	writeFile(t, filepath.Join(dir, "t", "x.csv"), "a,b\n1,2\n")
	for _, p := range []string{filepath.Join(dir, "t") + "/", filepath.Join(dir, "t", "*.csv")} {
		tb, _, err := c.TableFunction(ctx, "read_csv_auto", "t", []FuncArg{{Value: p}, {Name: "types", Value: []FuncArg{{Name: "b", Value: "double"}}}})
		if err != nil || schemaOf(tb) != "a int64, b float64" {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, bad := range [][]FuncArg{
		{{Name: "delim", Value: ";"}},
		{{Value: "x"}, {Name: "nope", Value: 1}},
		{{Value: "x"}, {Name: "delim", Value: ";;"}},
		{{Value: "x"}, {Name: "columns", Value: []FuncArg{{Name: "a", Value: "BLOB"}}}},
	} {
		if _, _, err := c.TableFunction(ctx, "read_csv", "t", bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, ok, _ := c.TableFunction(ctx, "generate_series", "g", nil); ok {
		t.Errorf("generate_series is no table function here")
	}
}

func TestReadParquetHive(t *testing.T) {
	dir := t.TempDir()
	rec := nestedRecord(t, 10)
	defer rec.Release()
	writeFile(t, filepath.Join(dir, "k=1", ".keep"), "")
	writeFile(t, filepath.Join(dir, "k=2", ".keep"), "")
	writeParquet(t, filepath.Join(dir, "k=1", "a.parquet"), rec, 4)
	writeParquet(t, filepath.Join(dir, "k=2", "a.parquet"), rec, 4)
	c := New()
	tb, _, err := c.TableFunction(context.Background(), "read_parquet", "p", []FuncArg{{Value: dir + "/"}, {Name: "hive_partitioning", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaOf(tb), "id int64, ts timestamp[us], l list<element: int64, nullable>, name utf8, st struct<a: int64 nullable, b: utf8 nullable>, "+
		"m map<utf8, int64, items_nullable>, dec decimal64(10, 2), wide decimal(38, 2), tz timestamp[us, tz=UTC], t time64[us], v float64, k int64"; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	sum := 0
	for _, r := range readAll(t, tb, []int{11, 0}, 3) {
		if r[0] == "2" {
			sum++
		}
	}
	if sum != 10 {
		t.Errorf("%d rows of k=2", sum)
	}
	// Filtered reads take the partition column too.
	if n := len(readAll(t, tb, []int{11}, 100)); n != 20 {
		t.Errorf("%d rows", n)
	}
}

// A --data directory's table folder laid out in key=value folders, as
// Spark and Hive write, is one table with the keys as columns, and a
// partition added later is seen at the next lookup.
func TestDataDirHive(t *testing.T) {
	dir := t.TempDir()
	rec := nestedRecord(t, 10)
	defer rec.Release()
	for _, p := range []string{"year=2023/mon=1", "year=2023/mon=2", "year=2024/mon=1"} {
		writeFile(t, filepath.Join(dir, "sales", p, ".keep"), "")
		writeParquet(t, filepath.Join(dir, "sales", p, "part-0.parquet"), rec, 4)
	}
	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	tb, ok := c.Table("sales")
	if !ok {
		t.Fatal("no table sales")
	}
	if got, want := schemaOf(tb), "id int64, ts timestamp[us], l list<element: int64, nullable>, name utf8, st struct<a: int64 nullable, b: utf8 nullable>, "+
		"m map<utf8, int64, items_nullable>, dec decimal64(10, 2), wide decimal(38, 2), tz timestamp[us, tz=UTC], t time64[us], v float64, year int64, mon int64"; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	count := map[string]int{}
	for _, r := range readAll(t, tb, []int{11, 12}, 7) {
		count[r[0]+"/"+r[1]]++
	}
	if count["2023/1"] != 10 || count["2023/2"] != 10 || count["2024/1"] != 10 || len(count) != 3 {
		t.Errorf("rows per partition %v", count)
	}
	writeFile(t, filepath.Join(dir, "sales", "year=2025", "mon=3", ".keep"), "")
	writeParquet(t, filepath.Join(dir, "sales", "year=2025", "mon=3", "part-0.parquet"), rec, 4)
	// The folder's stamp may fall in the same clock tick as the first
	// listing; the lookup sees the new partition either way once the
	// racy window has passed.
	var n int
	for range 50 {
		tb, _ = c.Table("sales")
		if n = len(readAll(t, tb, []int{11}, 100)); n == 40 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n != 40 {
		t.Errorf("%d rows after adding a partition, want 40", n)
	}
	// Folders whose keys differ are one bad table, skipped with a warning.
	writeFile(t, filepath.Join(dir, "bad", "a=1", ".keep"), "")
	writeFile(t, filepath.Join(dir, "bad", "b=1", ".keep"), "")
	writeParquet(t, filepath.Join(dir, "bad", "a=1", "x.parquet"), rec, 4)
	writeParquet(t, filepath.Join(dir, "bad", "b=1", "x.parquet"), rec, 4)
	var warned []string
	c2 := New()
	c2.SetWarn(func(m string) { warned = append(warned, m) })
	if err := c2.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := c2.Table("bad"); ok || len(warned) == 0 {
		t.Errorf("table bad with mixed keys: loaded %v, warnings %q", ok, warned)
	}
	if _, ok := c2.Table("sales"); !ok {
		t.Error("sales lost beside a bad table")
	}
}

// read_csv's columns and types options declare DECIMAL(p,s) up to 38
// digits (issue 27): values are exact past 18 digits, extra fraction
// digits round half away from zero as DuckDB's cast does, and a value
// past p digits is an error naming the line, the column and the type.
func TestReadCSVDeclaredDecimals(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "d.csv"),
		"big,small,n\n"+
			"12345678901234567890123456.785,1.005,7\n"+
			"-99999999999999999999999999999999999.99,-2.5,1e2\n"+
			",,\n"+
			"0.004,0,-0.5\n")
	c := New()
	ctx := context.Background()
	tb, _, err := c.TableFunction(ctx, "read_csv", "d", []FuncArg{{Value: path},
		{Name: "types", Value: []FuncArg{{Name: "big", Value: "DECIMAL(38,2)"}, {Name: "small", Value: "numeric(15, 2)"}, {Name: "n", Value: "DECIMAL(5)"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaOf(tb), "big decimal(38, 2), small decimal64(15, 2), n decimal64(5, 0)"; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	var rows []string
	for _, r := range readAll(t, tb, []int{0, 1, 2}, 3) {
		rows = append(rows, strings.Join(r, "|"))
	}
	want := "12345678901234567890123456.79|1.01|7 -99999999999999999999999999999999999.99|-2.5|100 NULL|NULL|NULL 0|0|-1"
	if got := strings.Join(rows, " "); got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	for _, tc := range []struct{ typ, text, why string }{
		{"DECIMAL(4,2)", "a\n100.00\n", `cannot read "100.00" as DECIMAL(4,2)`},
		{"DECIMAL(20,2)", "a\n1/2\n", `cannot read "1/2" as DECIMAL(20,2)`},
		{"DECIMAL(38,0)", "a\n123456789012345678901234567890123456789\n", "as DECIMAL(38,0)"},
	} {
		p := writeFile(t, filepath.Join(dir, "bad.csv"), tc.text)
		tb, _, err := c.TableFunction(ctx, "read_csv", "b", []FuncArg{{Value: p}, {Name: "columns", Value: []FuncArg{{Name: "a", Value: tc.typ}}}, {Name: "header", Value: true}})
		if err == nil {
			err = readErr(tb)
		}
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s %q: error %v, want one containing %q", tc.typ, tc.text, err, tc.why)
		}
	}
	for _, bad := range []string{"DECIMAL(39,2)", "DECIMAL(5,6)", "DECIMAL(0)", "DECIMAL(a,b)", "DECIMAL(38,2"} {
		if _, _, err := c.TableFunction(ctx, "read_csv", "t", []FuncArg{{Value: path}, {Name: "types", Value: []FuncArg{{Name: "big", Value: bad}}}}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// readErr reads every split of tb and returns the first error.
func readErr(tb Table) error {
	for s := 0; s < tb.NumSplits(); s++ {
		err := tb.Read(context.Background(), s, []int{0}, 10, memory.NewGoAllocator(), func(b arrow.RecordBatch) error { return nil })
		if err != nil {
			return err
		}
	}
	return nil
}
