package engine

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"gq/catalog"
	"gq/errs"
	gqmem "gq/memory"
)

// TestSpillDiskFull spills onto a 4 MiB tmpfs under a 1 MiB HOST limit:
// the external sort of lineitem (SF 0.1, ~100 MiB to spill) fills the
// disk. The query must fail with a clear I/O error naming the spill
// directory and "no space left on device" — no panic, no hang — leave no
// spill file and no byte of memory held, and the next query in the same
// engine must succeed.
func TestSpillDiskFull(t *testing.T) {
	dir := tpchData(t)
	spill := t.TempDir()
	if err := syscall.Mount("tmpfs", spill, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a tmpfs for the spill directory (needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(spill, 0); err != nil {
			t.Errorf("unmounting %s: %v", spill, err)
		}
	})
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{BatchSize: 8192, MemoryLimit: 1 << 20, SpillDir: spill})
	defer e.Close()

	for _, sql := range []string{sortQuery,
		// A hash aggregate with a group per order spills its partitions.
		"select l_orderkey, l_comment, sum(l_quantity) from lineitem group by l_orderkey, l_comment order by 3 desc limit 5"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, err := e.Query(ctx, sql)
		cancel()
		if err == nil {
			res.Release()
			t.Fatalf("%.40s…: succeeded on a 4 MiB spill disk", sql)
		}
		if errors.Is(err, errs.Cancelled) {
			t.Fatalf("%.40s…: timed out (a hang?): %v", sql, err)
		}
		if !errors.Is(err, errs.IO) && !errors.Is(err, errs.ResourcesExhausted) {
			t.Errorf("%.40s…: error of the wrong kind: %v", sql, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "no space left on device") || !strings.Contains(msg, spill) {
			t.Errorf("%.40s…: the error does not say the spill directory %s is full: %v", sql, spill, err)
		}
		t.Logf("%.40s…: %v", sql, err)
		checkNoHeldMemory(t, e, "after the disk-full query")
		if n := e.Memory().Reserved(gqmem.Host); n != 0 {
			t.Errorf("%d bytes still reserved", n)
		}
		left, err := os.ReadDir(spill)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range left {
			t.Errorf("left in the spill directory: %s", f.Name())
		}
	}

	res, err := e.Query(context.Background(), "select count(*), sum(l_quantity) from lineitem")
	if err != nil {
		t.Fatalf("the query after the disk-full ones: %v", err)
	}
	if res.NumRows() != 1 {
		t.Fatalf("%d rows", res.NumRows())
	}
	res.Release()
	checkNoHeldMemory(t, e, "after the next query")
}
