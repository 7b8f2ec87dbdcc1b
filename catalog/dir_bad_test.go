package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A bad entry in a data directory is a warning naming it; the other
// tables load, and the entry becomes a table once it is mended.
func TestRegisterDirSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "good.csv"), "a,b\n1,x\n")
	writeFile(t, filepath.Join(dir, "corrupt.parquet"), "PAR1 this is no footer PAR1")
	writeFile(t, filepath.Join(dir, "ragged.csv"), "a,b\n1,2\n3\n")
	writeFile(t, filepath.Join(dir, "dup.csv"), "a\n1\n")
	writeFile(t, filepath.Join(dir, "dup.tsv"), "a\n2\n")
	locked := writeFile(t, filepath.Join(dir, "locked.csv"), "a\n1\n")
	os.Chmod(locked, 0)
	rec := nestedRecord(t, 5)
	defer rec.Release()
	writeParquet(t, filepath.Join(dir, "nested.parquet"), rec, 5)

	var mu sync.Mutex
	var warns []string
	c := New()
	c.SetWarn(func(m string) { mu.Lock(); warns = append(warns, m); mu.Unlock() })
	if err := c.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	want := "dup,good,nested"
	if os.Geteuid() == 0 { // root reads a file of mode 0
		want = "dup,good,locked,nested"
	}
	if got := strings.Join(c.Names(), ","); got != want {
		t.Errorf("names = %s, want %s", got, want)
	}
	all := strings.Join(warns, "\n")
	for _, w := range []string{"corrupt.parquet", "ragged.csv:3: expected 2 fields, found 1", "dup.tsv"} {
		if !strings.Contains(all, w) {
			t.Errorf("no warning about %s in:\n%s", w, all)
		}
	}
	// Asking again does not warn again.
	n := len(warns)
	c.Table("nope")
	c.Names()
	if len(warns) != n {
		t.Errorf("warned again: %v", warns[n:])
	}
	// Mended, the file is a table at the next lookup.
	time.Sleep(10 * time.Millisecond)
	writeFile(t, filepath.Join(dir, "ragged.csv"), "a,b\n1,2\n3,4\n")
	if tb, ok := c.Table("ragged"); !ok || tb.Stats().RowCount != 2 {
		t.Errorf("mended file: %v %v", tb, ok)
	}
}
