package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func readSplits(tb Table) (int, error) {
	n := 0
	for s := range tb.NumSplits() {
		err := tb.Read(context.Background(), s, []int{0}, 100, memory.NewGoAllocator(), func(b arrow.RecordBatch) error {
			n += int(b.NumRows())
			b.Release()
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func rowsOf(t *testing.T, c *Catalog, name string) int {
	t.Helper()
	tb, ok := c.Table(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	n := len(readAll(t, tb, []int{0}, 100))
	if st := tb.Stats().RowCount; st != int64(n) {
		t.Errorf("%s: stats say %d rows, reading gives %d", name, st, n)
	}
	return n
}

// age sets path's times an hour back: a listing of it is then trusted
// (not racy), and a change must show in its stamp.
func age(t *testing.T, path string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestTablesFollowFiles: a --data directory's tables follow their files —
// a CSV appended to, a file added to a table's directory, a table file
// added to or removed from DIR — and DDL's drops stay dropped.
func TestTablesFollowFiles(t *testing.T) {
	dir := t.TempDir()
	csv := writeFile(t, filepath.Join(dir, "c.csv"), "x\n1\n2\n")
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	rec := sampleRecord(t, 0)
	defer rec.Release()
	writeParquet(t, filepath.Join(dir, "b", "1.parquet"), rec, 4)
	for _, p := range []string{csv, filepath.Join(dir, "b", "1.parquet"), filepath.Join(dir, "b"), dir} {
		age(t, p)
	}
	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	if n := rowsOf(t, c, "c"); n != 2 {
		t.Fatalf("c: %d rows", n)
	}
	f, err := os.OpenFile(csv, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("3\n4\n")
	f.Close()
	if n := rowsOf(t, c, "c"); n != 4 {
		t.Errorf("c after appending two rows: %d rows", n)
	}

	if n := rowsOf(t, c, "b"); n != 10 {
		t.Fatalf("b: %d rows", n)
	}
	writeParquet(t, filepath.Join(dir, "b", "2.parquet"), rec, 4)
	if n := rowsOf(t, c, "b"); n != 20 {
		t.Errorf("b after a second file: %d rows", n)
	}
	os.Remove(filepath.Join(dir, "b", "1.parquet"))
	if n := rowsOf(t, c, "b"); n != 10 {
		t.Errorf("b after removing its first file: %d rows", n)
	}

	writeFile(t, filepath.Join(dir, "d.csv"), "y\n7\n")
	if n := rowsOf(t, c, "D"); n != 1 {
		t.Errorf("d: %d rows", n)
	}
	writeFile(t, filepath.Join(dir, "e.csv"), "y\n7\n")
	if got := strings.Join(c.Names(), ","); got != "b,c,d,e" {
		t.Errorf("names after adding d.csv and e.csv: %s", got)
	}
	os.Remove(csv)
	if _, ok := c.Table("c"); ok {
		t.Errorf("c is still there after its file was removed")
	}
	os.Remove(filepath.Join(dir, "e.csv"))
	if got := strings.Join(c.Names(), ","); got != "b,d" {
		t.Errorf("names after removing c.csv and e.csv: %s", got)
	}

	// A dropped table stays dropped while its file is there, and a
	// table created in its place is not replaced by the file.
	if err := c.DropTable("d", false); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "f.csv"), "y\n7\n")
	if got := strings.Join(c.Names(), ","); got != "b,f" {
		t.Errorf("names after dropping d: %s", got)
	}
	if err := c.Register(NewMemTable("f", rec.Schema(), nil), true); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "f.csv"), "y\n7\n8\n")
	if tb, _ := c.Table("f"); tb.Stats().RowCount != 0 {
		t.Errorf("the file took back a replaced table")
	}
	// Attaching the directory again replaces its tables and brings back
	// the dropped one; a table DDL made is in its way.
	if _, err := c.AttachDir(dir); err == nil || !strings.Contains(err.Error(), "table f already exists") {
		t.Errorf("attaching over a created table: %v", err)
	}
	c.DropTable("f", false)
	n, err := c.AttachDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("attached %d tables", n)
	}
	if _, err := c.AttachDir(dir); err != nil {
		t.Fatalf("attaching twice: %v", err)
	}
	if got := strings.Join(c.Names(), ","); got != "b,d,f" {
		t.Errorf("names after attaching again: %s", got)
	}
}

// TestTableBeingWritten: a table whose changed file does not open fails
// its queries with the reason, and recovers when the file is whole.
func TestTableBeingWritten(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.parquet")
	rec := sampleRecord(t, 0)
	defer rec.Release()
	writeParquet(t, p, rec, 4)
	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(p)
	os.WriteFile(p, good[:len(good)/2], 0o644)
	tb, ok := c.Table("p")
	if !ok {
		t.Fatal("p is gone")
	}
	if _, err := readSplits(tb); err == nil {
		t.Error("a half-written file read without error")
	}
	writeParquet(t, p, rec, 5)
	if n := rowsOf(t, c, "p"); n != 10 {
		t.Errorf("p: %d rows", n)
	}
}

// BenchmarkFreshLookup is the cost freshness adds to a query: the lookups
// of TPC-H's eight tables (make data) in their --data directory ("files"),
// against the same tables registered without their files ("plain", what
// every lookup cost before tables followed their files).
func BenchmarkFreshLookup(b *testing.B) {
	dir := "../data/tpch-sf0.1"
	if _, err := os.Stat(filepath.Join(dir, "lineitem.parquet")); err != nil {
		b.Skip("no TPC-H data: make data")
	}
	files := New()
	if err := files.RegisterDir(dir); err != nil {
		b.Fatal(err)
	}
	names := []string{"lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region"}
	plain := New()
	for _, n := range names {
		t, _ := files.Table(n)
		plain.Register(t, false)
	}
	for _, c := range []struct {
		name string
		cat  *Catalog
	}{{"files", files}, {"plain", plain}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				for _, n := range names {
					if _, ok := c.cat.Table(n); !ok {
						b.Fatal(n)
					}
				}
			}
		})
	}
}

// TestFreshConcurrent: lookups, listings and DDL from many goroutines
// while files change (run under -race).
func TestFreshConcurrent(t *testing.T) {
	dir := t.TempDir()
	csv := writeFile(t, filepath.Join(dir, "c.csv"), "x\n1\n")
	c := New()
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	s := c.Session()
	done := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if tb, ok := s.Table("c"); !ok || tb.Stats().RowCount < 1 {
					t.Errorf("c: %v", ok)
					return
				}
				s.Table(fmt.Sprintf("new%d", i%3))
				c.Names()
				if g == 0 {
					c.DropTable("new0", true)
				}
			}
		}()
	}
	for i := range 50 {
		f, _ := os.OpenFile(csv, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("2\n")
		f.Close()
		writeFile(t, filepath.Join(dir, fmt.Sprintf("new%d.csv", i%3)), "y\n1\n")
	}
	close(done)
	wg.Wait()
	if n := rowsOf(t, c, "c"); n != 51 {
		t.Errorf("c: %d rows", n)
	}
}
