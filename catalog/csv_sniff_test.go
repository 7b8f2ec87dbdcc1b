package catalog

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func gzipped(t *testing.T, text string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(text))
	w.Close()
	return b.Bytes()
}

func zstded(t *testing.T, text string) []byte {
	w, _ := zstd.NewWriter(nil)
	return w.EncodeAll([]byte(text), nil)
}

func TestCSVCompressedAndSniffed(t *testing.T) {
	dir := t.TempDir()
	var big strings.Builder
	big.WriteString("id;name;price\n")
	for i := 0; i < 30000; i++ {
		big.WriteString("7;\"a;b\";2.5\n")
	}
	cases := []struct {
		file, text, schema string
		rows               int
	}{
		{"semi.csv", "a;b\n1;x\n2;y\n", "a int64, b utf8", 2},
		{"pipe.csv", "a|b|c\n1|2|3\n", "a int64, b int64, c int64", 1},
		{"tab.csv", "a\tb\n1\t2\n", "a int64, b int64", 1},
		{"comma.tsv", "a,b\n1,2\n", "a int64, b int64", 1},
		{"one.csv", "word\nhello\n", "word utf8", 1},
		{"noheader.csv", "1,x,2024-01-02\n2,y,2024-01-03\n", "column0 int64, column1 utf8, column2 date32", 2},
		{"allwords.csv", "k,v\nx,y\n", "k utf8, v utf8", 1},
		{"dupnames.csv", "a,a,\n1,2,3\n", "a int64, a_1 int64, column2 int64", 1},
		{"big.csv.gz", big.String(), "id int64, name utf8, price float64", 30000},
		{"big.csv.zst", big.String(), "id int64, name utf8, price float64", 30000},
		{"t.tsv.gz", "x\ty\n1\t\n", "x int64, y utf8", 1},
	}
	defer func(b int) { csvBlockBytes = b }(csvBlockBytes)
	csvBlockBytes = 1000 // records cross block ends
	for _, c := range cases {
		data := []byte(c.text)
		switch filepath.Ext(c.file) {
		case ".gz":
			data = gzipped(t, c.text)
		case ".zst":
			data = zstded(t, c.text)
		}
		p := filepath.Join(dir, c.file)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tb, err := OpenFile("t", p)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if got := schemaOf(tb); got != c.schema {
			t.Errorf("%s: schema %s, want %s", c.file, got, c.schema)
		}
		all := make([]int, tb.Schema().NumFields())
		for i := range all {
			all[i] = i
		}
		rows := readAll(t, tb, all, 7)
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.file, len(rows), c.rows)
		} else if c.rows == 30000 && strings.Join(rows[29999], "|") != "7|a;b|2.5" {
			t.Errorf("%s: last row %s", c.file, rows[29999])
		}
	}
	// By glob, and in a data directory as table "big".
	if tb, err := OpenFile("g", filepath.Join(dir, "big.csv.*")); err != nil || tb.NumSplits() != 2 {
		t.Errorf("glob: %v", err)
	}
	c := New()
	c.SetWarn(func(string) {})
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Table("big"); !ok {
		t.Errorf("no table big in %v", c.Names())
	}
}
