package tpch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

func readTable(t *testing.T, path string) arrow.Table {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

func TestGenerateSF001(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dbgen's 300 MB text pool")
	}
	dir := t.TempDir()
	if err := Generate(0.01, dir); err != nil {
		t.Fatal(err)
	}
	wantRows := map[string]int64{
		"region": 5, "nation": 25, "supplier": 100, "customer": 1500,
		"part": 2000, "partsupp": 8000, "orders": 15000,
	}
	for _, name := range Tables {
		tbl := readTable(t, filepath.Join(dir, name+".parquet"))
		if fi, err := os.Stat(filepath.Join(dir, name+".parquet")); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v (%v), want 0644 like any file written for others to read", name, fi.Mode(), err)
		}
		if want, ok := wantRows[name]; ok && tbl.NumRows() != want {
			t.Errorf("%s: %d rows, want %d", name, tbl.NumRows(), want)
		}
		if name == "lineitem" && (tbl.NumRows() < 55000 || tbl.NumRows() > 65000) {
			t.Errorf("lineitem: %d rows, want about 60000", tbl.NumRows())
		}
	}
	// No temp files left behind.
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}

	str := func(tbl arrow.Table, col, row int) string {
		return tbl.Column(col).Data().Chunk(0).(*array.String).Value(row)
	}
	nation := readTable(t, filepath.Join(dir, "nation.parquet"))
	if got := str(nation, 1, 0); got != "ALGERIA" {
		t.Errorf("nation 0 = %q, want ALGERIA", got)
	}
	if got := nation.Column(2).Data().Chunk(0).(*array.Int64).Value(1); got != 1 {
		t.Errorf("ARGENTINA's region = %d, want 1", got)
	}
	region := readTable(t, filepath.Join(dir, "region.parquet"))
	for i, want := range []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"} {
		if got := str(region, 1, i); got != want {
			t.Errorf("region %d = %q, want %q", i, got, want)
		}
	}
	// Keys stay in the scaled ranges, as the spec's dbgen keeps them.
	orders := readTable(t, filepath.Join(dir, "orders.parquet"))
	for _, c := range orders.Column(1).Data().Chunks() {
		for _, k := range c.(*array.Int64).Int64Values() {
			if k < 1 || k > 1500 || k%3 == 0 {
				t.Fatalf("o_custkey %d out of range", k)
			}
		}
	}
	lineitem := readTable(t, filepath.Join(dir, "lineitem.parquet"))
	for col, hi := range map[int]int64{1: 2000, 2: 100} {
		for _, c := range lineitem.Column(col).Data().Chunks() {
			for _, k := range c.(*array.Int64).Int64Values() {
				if k < 1 || k > hi {
					t.Fatalf("lineitem column %d key %d outside [1,%d]", col, k, hi)
				}
			}
		}
	}
	// The first order of dbgen at any scale: key 1, date 1996-01-02.
	if k := orders.Column(0).Data().Chunk(0).(*array.Int64).Value(0); k != 1 {
		t.Errorf("first o_orderkey = %d", k)
	}
	if d := orders.Column(4).Data().Chunk(0).(*array.Date32).Value(0); d.FormattedString() != "1996-01-02" {
		t.Errorf("first o_orderdate = %s", d.FormattedString())
	}
	dec := lineitem.Column(4).DataType().(*arrow.Decimal128Type)
	if dec.Precision != 15 || dec.Scale != 2 {
		t.Errorf("l_quantity type %v", dec)
	}
}

func TestGenerateBadScale(t *testing.T) {
	for _, sf := range []float64{0, -1, 1.5, 0.0001} {
		if err := Generate(sf, t.TempDir()); err == nil {
			t.Errorf("Generate(%v) succeeded", sf)
		}
	}
}

func TestParseDate(t *testing.T) {
	for s, want := range map[string]int32{"1970-01-01": 0, "1992-01-01": 8035, "1998-12-01": 10561, "2000-03-01": 11017} {
		if got := parseDate(s); got != want {
			t.Errorf("parseDate(%s) = %d, want %d", s, got, want)
		}
	}
}

var _ = os.Remove

// Parts generated apart (as gq gen tpch --jobs runs them, here one after
// another in one process) hold exactly the rows of one serial run: each
// part's random streams are skipped to its first row.
func TestGeneratePartsSF001(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dbgen's 300 MB text pool three times")
	}
	whole, split := t.TempDir(), t.TempDir()
	if err := Generate(0.01, whole); err != nil {
		t.Fatal(err)
	}
	const parts = 2
	for p := range parts {
		if err := GeneratePart(0.01, split, p, parts); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range Tables {
		want := tableRows(t, readTable(t, filepath.Join(whole, name+".parquet")))
		var got []string
		if name == "region" || name == "nation" {
			got = tableRows(t, readTable(t, filepath.Join(split, name+".parquet")))
		} else {
			for p := range parts {
				path := filepath.Join(split, name, fmt.Sprintf("part-%03d.parquet", p))
				got = append(got, tableRows(t, readTable(t, path))...)
			}
		}
		// Parts are contiguous row ranges in order: the concatenation
		// is the serial table row for row.
		if len(got) != len(want) {
			t.Errorf("%s: %d rows in parts, %d in one run", name, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s row %d: parts %q, one run %q", name, i, got[i], want[i])
				break
			}
		}
	}
}

// tableRows is each row of tbl as one string of its values.
func tableRows(t *testing.T, tbl arrow.Table) []string {
	t.Helper()
	rows := make([]string, tbl.NumRows())
	for c := range int(tbl.NumCols()) {
		r := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := range chunk.Len() {
				rows[r] += chunk.ValueStr(i) + "|"
				r++
			}
		}
	}
	return rows
}
